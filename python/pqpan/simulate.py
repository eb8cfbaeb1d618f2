"""One key exchange PDU by PDU in the library's BLE packet simulator (src/sim), as
`pqpan simulate` runs it (cli/ble_sim.c, cli/simulate.c): the rows of the estimate for the
simulated run plus a "simulation" object (packets, retransmissions, CRC errors, connection
events, whether the keys agree). The exchange is the real PQKE (ML-KEM and key
confirmation, randomness from the seed) or, with the configuration's protocol "study",
the study's raw ek and ct; for LESC-P256 the LE Secure Connections pairing over SMP with real values and
the LL encryption start (src/sim/lesc_app.c)."""
from . import defaults as _d
from . import model
from ._lib import PqpanError, UsageError, cstr, ffi, lib

_SIDE_KEYS = ("central", "peripheral")  # enum pqpan_ble_role order


def _sim_config(env, kem, cfg, transport, per, ber, seed, supervision_timeout_ms, adv_case):
    lesc = kem == model.LESC_NAME
    if cfg.encrypted:
        raise UsageError("--encrypted is not simulated (the exchange runs before the LL "
                         "encryption)")
    if lesc and transport != "gatt":
        raise UsageError("%s pairs over SMP: --transport does not apply" % model.LESC_NAME)
    c = ffi.new("struct pqpan_sim_config *")
    lib.pqpan_sim_config_default(c)
    c.ble = cfg[0]
    c.cycles = list(model.model_setup(env, c.ble, kem))
    c.dev = env.dev[0]
    if lesc:
        c.transport = lib.PQPAN_SIM_SMP
    else:
        c.transport = (lib.PQPAN_SIM_L2CAP_COC if transport == "l2cap-coc"
                       else lib.PQPAN_SIM_GATT)
    for ch in c.chan:
        ch.per, ch.ber = per, ber
    c.seed = seed
    c.supervision_timeout_ms = supervision_timeout_ms
    if adv_case == "mean":
        channel = ffi.new("uint8_t *")
        wait = ffi.new("uint64_t *")
        lib.pqpan_ble_adv_mean(c.ble.adv_interval_ns, channel, wait)
        c.adv_scan_channel, c.adv_wait_ns = channel[0], wait[0]
    return c


def _check_options(transport, per, ber, seed, supervision_timeout_ms, adv_case):
    for name, value, words in (("transport", transport, ("gatt", "l2cap-coc")),
                               ("adv-case", adv_case, ("drawn", "mean"))):
        if value not in words:
            raise UsageError("bad value for --%s: '%s'" % (name, value))
    for name, value in (("per", per), ("ber", ber)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise UsageError("bad value for --%s: '%s'" % (name, value))
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
        raise UsageError("bad value for --seed: '%s'" % (seed,))
    if isinstance(supervision_timeout_ms, bool) or not isinstance(supervision_timeout_ms, int) \
            or not 100 <= supervision_timeout_ms <= 32000:
        raise UsageError("bad value for --supervision-timeout-ms: '%s'"
                         % (supervision_timeout_ms,))


def run_once(env, kem, cfg, transport=_d.text("TRANSPORT"), per=_d.number("PER"),
             ber=_d.number("BER"), seed=_d.number("SEED"),
             supervision_timeout_ms=_d.number("SUPERVISION_TIMEOUT_MS"),
             adv_case=_d.text("ADV_CASE"), allow_unbuildable=False):
    """(sim, keys): a finished struct pqpan_sim and {"protocol", "equal", "confirmed"}; the
    messages are cfg's protocol's (the study's raw ek and ct, or the real PQKE). Over GATT, a
    configuration GATT cannot build raises UsageError unless allow_unbuildable
    (model.check_gatt, as cli/ble_sim.c ble_sim_check)."""
    study = cfg.protocol == lib.PQPAN_BLE_PROTO_STUDY
    _check_options(transport, per, ber, seed, supervision_timeout_ms, adv_case)
    if study and cfg.pqke_mode != lib.PQPAN_PQKE_MODE_NONE:
        raise UsageError("--auth %s needs pqpan's protocol (--protocol pqpan)"
                         % cstr(lib.pqpan_pqke_mode_name(cfg.pqke_mode)))
    if transport == "gatt" and not allow_unbuildable:
        model.check_gatt(cfg, kem)
    c = _sim_config(env, kem, cfg, transport, float(per), float(ber), seed,
                    supervision_timeout_ms, adv_case)
    sim = ffi.new("struct pqpan_sim *")
    if lib.pqpan_sim_init(sim, c) != lib.PQPAN_OK:
        raise UsageError("configuration out of range (CI and idle CI multiples of 1.25 ms, "
                         "supervision timeout > 2 intervals, --transfer study needs "
                         "ATT_MTU >= 403)")
    keys = {"protocol": not study or kem == model.LESC_NAME, "lesc": kem == model.LESC_NAME,
            "equal": False, "confirmed": False}
    if keys["lesc"]:
        app = ffi.new("struct pqpan_sim_lesc *")
        lib.pqpan_sim_lesc_init(app, seed)
        rc = lib.pqpan_sim_run(sim, lib.pqpan_sim_lesc_app(), app, ffi.NULL, ffi.NULL)
        keys["equal"] = bool(lib.pqpan_sim_lesc_keys_equal(app))
        keys["confirmed"] = bool(lib.pqpan_sim_lesc_confirmed(app))
        lib.pqpan_sim_lesc_wipe(app)
    elif study:  # the study's raw messages (LESC-P256 ignores the protocol, as estimate)
        app = ffi.new("struct pqpan_sim_synth *")
        lib.pqpan_sim_synth_init(app, c.ble.ek_bytes, c.ble.ct_bytes, c.ble.keygen_side)
        rc = lib.pqpan_sim_run(sim, lib.pqpan_sim_synth_app(), app, ffi.NULL, ffi.NULL)
    else:
        pq = ffi.new("struct pqpan_sim_pqke *")
        suite = lib.pqpan_pqke_suite_for_kem(lib.pqpan_kem_by_name(kem.encode()).id)
        if lib.pqpan_sim_pqke_init(pq, suite, c.ble.pqke_mode, c.ble.pqke_sig, c.ble.keygen_side,
                                   seed) != lib.PQPAN_OK:
            raise PqpanError(lib.PQPAN_ERR_STATE, "cannot set up the protocol", 1)
        rc = lib.pqpan_sim_run(sim, lib.pqpan_sim_pqke_app(), pq, ffi.NULL, ffi.NULL)
        keys["equal"] = bool(lib.pqpan_sim_pqke_keys_equal(pq))
        keys["confirmed"] = bool(lib.pqpan_sim_pqke_confirmed(pq))
        lib.pqpan_sim_pqke_wipe(pq)
    if rc == lib.PQPAN_ERR_INVALID_ARG:
        raise PqpanError(rc, "simulator: %s" % cstr(lib.pqpan_strerror(rc)), 1)
    return sim, keys


def sim_estimate(sim):
    """The run's ledgers and counts in the estimator's form (cli/ble_sim.c ble_sim_rows)."""
    r = sim.res
    e = ffi.new("struct pqpan_ble_estimate *")
    e.ledger = r.ledger
    e.bits = r.bits
    e.counts = r.counts
    e.ll_octets_eff = r.ll_octets
    e.latency_ns = r.latency_ns
    e.setup_ns = r.setup_ns
    e.span_ns = r.span_ns
    return e


def _confirmed(sim, keys):
    """Key confirmation: both tags (PQKE), or both DHKey checks and the LL encryption
    started (LE Secure Connections)."""
    return keys["confirmed"] and (not keys["lesc"] or bool(sim.res.encrypted))


def succeeded(sim, keys):
    return sim.res.status == lib.PQPAN_OK and (not keys["protocol"] or
                                                (keys["equal"] and _confirmed(sim, keys)))


def simulation_members(sim, keys, seed, per, ber, transport):
    r = sim.res
    out = {"seed": seed, "per": float(per), "ber": float(ber),
           "transport": "smp" if keys["lesc"] else transport}
    for role, name in enumerate(_SIDE_KEYS):
        out[name] = {"packets_tx": r.ledger[role].pdus_tx,
                     "retransmissions": r.retransmissions[role],
                     "crc_errors_rx": r.crc_errors[role], "missed_rx": r.missed[role]}
    out.update({"conn_events": r.conn_events, "att_mtu": r.att_mtu, "ll_octets": r.ll_octets,
                "latency_ms": r.latency_ns * 1e-6, "sim_time_ms": r.end_ns * 1e-6,
                "result": "completed" if r.status == lib.PQPAN_OK
                else cstr(lib.pqpan_strerror(r.status)),
                "messages": "lesc" if keys["lesc"] else "pqke" if keys["protocol"]
                else "estimate",
                "keys_equal": keys["equal"] if keys["protocol"] else None,
                "key_confirmation": ("ok" if _confirmed(sim, keys) else "failed")
                if keys["protocol"] else None})
    return out


def simulate_ble(env, kem, cfg, **sim_options):
    """The Result of one simulated exchange: the estimate's members and sides for the run,
    and "simulation". A failed exchange (link lost, damaged message) is not an exception:
    result["simulation"]["result"] says why and result["succeeded"] is False (the CLI
    prints the same rows and exits 1)."""
    sim, keys = run_once(env, kem, cfg, **sim_options)
    result = model.Result(env.members())
    result["e_comm_accounting"] = "bits"
    result.update(model.setup_members(cfg))
    result["simulation"] = simulation_members(
        sim, keys, sim_options.get("seed", _d.number("SEED")),
        sim_options.get("per", _d.number("PER")), sim_options.get("ber", _d.number("BER")),
        sim_options.get("transport", _d.text("TRANSPORT")))
    result["sides"] = model.fill_rows(env, kem, sim.cfg.ble, sim_estimate(sim),
                                      sim.res.conn_events)
    result["succeeded"] = succeeded(sim, keys)
    return result
