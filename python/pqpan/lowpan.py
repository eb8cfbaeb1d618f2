"""The PQKE over 6LoWPAN / IEEE 802.15.4 as `pqpan simulate --link 802154` runs it
(cli/simulate_802154.c): the library's contention simulator (pqpan_sim154_*), its per-run
energies and statistics. `pqpan estimate --link 802154` (pqpan.estimate_802154()) runs on
pqpan_run (pqpan.run), not here; sweep() takes the 802.15.4 side names and fields from
here."""
import math

from . import defaults as _d
from . import fields, model
from ._lib import PqpanError, UsageError, cstr, ffi, lib, macro

SIDES = ("initiator", "responder", "total")
_SEC_WORDS = ("none", "mic32", "mic64", "mic128", "enc-mic32", "enc-mic64", "enc-mic128")
_SEC_LEVELS = ("NONE", "MIC_32", "MIC_64", "MIC_128", "ENC_MIC_32", "ENC_MIC_64",
               "ENC_MIC_128")


def _sec_level(word):
    if word not in _SEC_WORDS:
        raise UsageError("--mac-security %s: see --help for the allowed values" % (word,))
    return getattr(lib, "PQPAN_802154_SEC_" + _SEC_LEVELS[_SEC_WORDS.index(word)])


def _sec_name(level):
    for word, name in zip(_SEC_WORDS, _SEC_LEVELS):
        if getattr(lib, "PQPAN_802154_SEC_" + name) == level:
            return word
    return None


class LinkOptions:
    """The 802.15.4 link options (cli/lowpan_model.c lowpan_opts), checked."""

    def __init__(self, kem=_d.text("KEM"), busy=_d.number("BUSY"), csma=_d.text("CSMA"),
                 addr=_d.text("ADDR"), idle=None, backoff=None,
                 mac_security=_d.text("MAC_SECURITY"), key_id_mode=_d.number("KEY_ID_MODE"),
                 auth=_d.text("AUTH"), ipv6_frag=False):
        kem = model.canonical(kem, model.KEM_NAMES)
        csma = model.canonical(csma, ("ieee", "contiki"))
        addr = model.canonical(addr, ("extended", "short"))
        idle = model.canonical(idle, ("sleep", "listen"))
        backoff = model.canonical(backoff, ("sleep", "listen"))
        mac_security = model.canonical(mac_security, _SEC_WORDS)
        if lib.pqpan_kem_by_name(str(kem).encode()) == ffi.NULL:
            raise UsageError("--kem %s: see --help for the allowed values" % (kem,))
        for name, value, words in (("csma", csma, ("ieee", "contiki")),
                                   ("addr", addr, ("extended", "short"))):
            if value not in words:
                raise UsageError("--%s %s: see --help for the allowed values" % (name, value))
        for name, value in (("idle", idle), ("backoff", backoff)):
            if value is not None and value not in ("sleep", "listen"):
                raise UsageError("--%s %s: see --help for the allowed values" % (name, value))
        if key_id_mode not in (0, 1, 2, 3) or isinstance(key_id_mode, bool):
            raise UsageError("--key-id-mode %s: see --help for the allowed values"
                             % (key_id_mode,))
        if isinstance(busy, bool) or not isinstance(busy, (int, float)) or \
                not 0.0 <= busy <= 0.99:
            raise UsageError("--busy %s: see --help for the allowed values" % (busy,))
        self.kem, self.busy = kem, float(busy)
        self.contiki, self.short_addr = csma == "contiki", addr == "short"
        self.idle = None if idle is None else idle == "listen"
        self.backoff = None if backoff is None else backoff == "listen"
        self.sec_level, self.key_id_mode = _sec_level(mac_security), key_id_mode
        self.mode = model.auth_mode(auth)
        if not isinstance(ipv6_frag, bool):
            raise UsageError("ipv6_frag %r: True or False (the flag --ipv6-frag)" % (ipv6_frag,))
        self.ipv6_frag = ipv6_frag

    def idle_listens(self, env):
        return self.idle if self.idle is not None else bool(
            env.profile.struct.ieee802154.idle_rx)

    def backoff_listens(self, env):
        return self.backoff if self.backoff is not None else bool(
            env.profile.struct.ieee802154.backoff_rx)


def _link(link_cfg, o):
    if o.short_addr:
        link_cfg.src.mode = macro("PQPAN_802154_ADDR_SHORT")
        link_cfg.src.short_addr = 0x0001
        link_cfg.dst.mode = macro("PQPAN_802154_ADDR_SHORT")
        link_cfg.dst.short_addr = 0x0002
    link_cfg.sec_level = o.sec_level
    link_cfg.key_id_mode = o.key_id_mode


def setup(c, env, o):
    """Fills the estimator configuration c and returns the cycles (lowpan_setup)."""
    lib.pqpan_802154_est_config_default(c)
    k = lib.pqpan_kem_by_name(o.kem.encode())
    ble = ffi.new("struct pqpan_ble_config *")
    lib.pqpan_ble_config_default(ble)
    ble.protocol = lib.PQPAN_BLE_PROTO_PQPAN
    ble.pqke_mode = o.mode
    cycles = model.model_setup(env, ble, o.kem)
    if lib.pqpan_802154_est_config_pqke(c, lib.pqpan_pqke_suite_for_kem(k.id), o.mode,
                                        0) != lib.PQPAN_OK:
        raise UsageError("--auth %s: no such PQKE variant"
                         % cstr(lib.pqpan_pqke_mode_name(o.mode)))
    c.csma = lib.pqpan_802154_csma_contiki() if o.contiki else lib.pqpan_802154_csma_ieee()
    c.ipv6_frag = int(o.ipv6_frag)
    c.p_busy = o.busy
    p = env.profile.struct
    c.cpu_hz = p.cpu_hz
    c.rx_always_on = int(o.idle_listens(env))
    c.backoff_rx = int(o.backoff_listens(env))
    _link(c.link, o)
    if not c.rx_always_on or not c.backoff_rx:
        c.wake_xtal_ns = p.hfxo_start_ns
        c.wake_cpu_ns = p.ieee802154.wake_cpu_ns
        if not p.ieee802154.wake_cpu_given:
            raise UsageError("profile %s gives no ieee802154.wake_cpu_us: a radio that sleeps "
                             "wakes before its frames and needs it (or use --idle listen "
                             "--backoff listen)" % env.profile.name)
    return cycles


CONFIG_FIELDS = fields.config_fields("802154")


def side_fields():
    """The names of a side's result fields, after "side" and CONFIG_FIELDS, in order (the
    run layer's field table)."""
    return fields.side_fields("802154")


def side_energies(env, ledgers):
    """The energy of each side and of both (initiator, responder, total) in the events
    accounting, every state of the ledgers (a simulated run's: lowpan_model.c)."""
    led, _ = model.side_ledgers(ledgers, ledgers, (0, 1))
    return [env.energy(one, lib.PQPAN_RADIO_IEEE802154).total_events_uj for one in led]


def _tx_level(env):
    s = env.profile.struct.ieee802154
    for i in range(min(s.tx_level_count, macro("PQPAN_PROFILE_TX_LEVELS_MAX"))):
        if s.tx_dbm[i] == env.tx_dbm and s.tx_given[env.table][i]:
            return i
    return -1


def assumption_members(env, o):
    """The figure and name members of the assumptions (lowpan_print_assumptions_json) with
    the profile's sources of its ieee802154 section."""
    p = env.profile.struct
    src = env.profile.sources_802154
    lvl = _tx_level(env)
    idle, backoff = o.idle_listens(env), o.backoff_listens(env)
    rx_given = p.rx_given[env.table][lib.PQPAN_RADIO_IEEE802154]
    out = {"link": "802154", "profile": env.profile.name,
           "currents": cstr(lib.pqpan_current_table_name(env.table)),
           "currents_section": "ieee802154", "tx_dbm": env.tx_dbm,
           "tx_ua": p.ieee802154.tx_ua[env.table][lvl] if lvl >= 0 else 0.0,
           "tx_source": src[("tx", env.table, lvl)] if lvl >= 0 else "not given",
           "rx_ua": p.rx_ua[env.table][lib.PQPAN_RADIO_IEEE802154],
           "rx_source": src[("rx", env.table)] if rx_given else "not given",
           "idle": "listen" if idle else "sleep",
           "idle_source": "--idle (command line)" if o.idle is not None else src["idle"],
           "backoff": "listen" if backoff else "sleep",
           "backoff_source": "--backoff (command line)" if o.backoff is not None
           else src["backoff"],
           "ramp_tx_fast_us": p.ieee802154.ramp_tx_fast_ns * 1e-3,
           "ramp_tx_normal_us": p.ieee802154.ramp_tx_normal_ns * 1e-3,
           "large_messages": "ipv6-frag" if o.ipv6_frag else "segments",
           "mac_security": _sec_name(o.sec_level), "key_id_mode": o.key_id_mode,
           "aux_header_octets": lib.pqpan_802154_sec_aux_len(o.sec_level, o.key_id_mode),
           "mic_octets": lib.pqpan_802154_sec_mic_len(o.sec_level),
           "wake_ups": not idle or not backoff, "wake_xtal_us": p.hfxo_start_ns * 1e-3,
           "wake_xtal_ua": p.hfxo_start_ua,
           "wake_cpu_us": p.ieee802154.wake_cpu_ns * 1e-3
           if p.ieee802154.wake_cpu_given else None,
           "wake_cpu_ua": p.cpu_ua, "wake_cpu_source": src["wake_cpu"]}
    members = env.members()
    for key in ("profile", "currents", "tx_dbm", "ramp"):
        members.pop(key)
    out.update(members)
    return out


# ---- the contention simulator (Monte Carlo) ----------------------------------------------

_COUNTS = (("data_frames", "frames"), ("mac_retries", "retries"),
           ("access_failures", "access_failures"), ("ccas", "ccas"),
           ("frames_lost_rx", "rx_lost"), ("datagram_retransmissions", "dgram_retx"),
           ("reassembly_timeouts", "reasm_timeouts"), ("duplicate_datagrams", "duplicates"))


def stats(values):
    """Mean and nearest-rank p50, p90, p99 (cli/lowpan_model.c lowpan_stats_of)."""
    v = sorted(values)
    n = len(v)
    out = {"mean": sum(values) / n}
    for q in (50, 90, 99):
        rank = math.ceil(q / 100.0 * n)
        out["p%d" % q] = v[rank - 1 if rank > 0 else 0]
    return out


def _uint_opt(name, value, lo, hi):
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise UsageError("--%s %s: not an allowed value (see --help)" % (name, value))
    return value


def simulate(env, o, nodes=_d.number("NODES"), hidden=_d.number("HIDDEN"),
             capture=_d.text("CAPTURE"), load=_d.number("LOAD"),
             frame_bytes=_d.number("FRAME_BYTES"), reasm_timeout=_d.number("REASM_TIMEOUT"),
             dgram_retries=_d.number("DGRAM_RETRIES"), runs=_d.number("RUNS"),
             seed=_d.number("SEED")):
    """The Result of `pqpan simulate --link 802154` (runs seeded exchanges, seed + i)."""
    max_nodes = macro("PQPAN_SIM154_MAX_NODES")
    _uint_opt("nodes", nodes, 2, max_nodes)
    _uint_opt("hidden", hidden, 0, max_nodes - 2)
    _uint_opt("reasm-timeout", reasm_timeout, 1, macro("PQPAN_SIM154_REASM_TIMEOUT_MS_MAX"))
    _uint_opt("dgram-retries", dgram_retries, 0, macro("PQPAN_SIM154_DGRAM_RETRIES_MAX"))
    _uint_opt("frame-bytes", frame_bytes, macro("PQPAN_SIM154_MIN_BG_PSDU"),
              macro("PQPAN_802154_MAX_PSDU"))
    _uint_opt("runs", runs, 1, 100000)
    _uint_opt("seed", seed, 0, (1 << 64) - 1)
    if capture not in ("none", "first"):
        raise UsageError("--capture %s: not an allowed value (see --help)" % (capture,))
    if isinstance(load, bool) or not isinstance(load, (int, float)) or not 0 <= load <= 1000:
        raise UsageError("--load %s: not an allowed value (see --help)" % (load,))
    if hidden > nodes - 2:
        raise UsageError("--hidden %u: at most N - 2 = %u background nodes"
                         % (hidden, nodes - 2))
    c = ffi.new("struct pqpan_sim154_config *")
    lib.pqpan_sim154_config_default(c)
    cycles = setup(ffi.addressof(c, "exch"), env, o)
    c.cycles = list(cycles)
    c.nodes, c.hidden = nodes, hidden
    c.capture = lib.PQPAN_SIM154_CAPTURE_FIRST if capture == "first" \
        else lib.PQPAN_SIM154_CAPTURE_NONE
    c.load_fps, c.load_psdu = float(load), frame_bytes
    c.reasm_timeout_ms, c.dgram_retries = reasm_timeout, dgram_retries
    suite = lib.pqpan_pqke_suite_for_kem(lib.pqpan_kem_by_name(o.kem.encode()).id)
    sim = ffi.new("struct pqpan_sim154 *")
    app = ffi.new("struct pqpan_sim_pqke *")
    energy = [[], [], []]
    latency, failed = [], 0
    counts = {name: 0 for name, _ in _COUNTS}
    for run in range(runs):
        c.seed = seed + run
        rc = lib.pqpan_sim_pqke_init(app, suite, o.mode, 0, c.initiator_side, c.seed)
        if rc == lib.PQPAN_OK:
            rc = lib.pqpan_sim154_init(sim, c)
        if rc == lib.PQPAN_OK:
            rc = lib.pqpan_sim154_run(sim, lib.pqpan_sim_pqke_app(), app, ffi.NULL, ffi.NULL)
        lib.pqpan_sim_pqke_wipe(app)
        if rc != lib.PQPAN_OK:
            message = "802.15.4 simulator: %s" % cstr(lib.pqpan_strerror(rc))
            if rc == lib.PQPAN_ERR_INVALID_ARG:
                raise UsageError(message, code=rc)
            raise PqpanError(rc, message, 1)
        res = sim.res
        for s, e in enumerate(side_energies(env, res.ledger)):
            energy[s].append(e)
        latency.append(res.latency_ns * 1e-6)
        failed += res.status != lib.PQPAN_OK
        for name, member in _COUNTS:
            counts[name] += getattr(res, member)[0] + getattr(res, member)[1]
    result = model.Result(assumption_members(env, o))
    bg = nodes - 2
    frame_ms = lib.pqpan_802154_phy_ppdu_ns(frame_bytes) * 1e-6
    result.update({
        "energy_accounting": "all-states", "kem": o.kem,
        "protocol": model.protocol_name(o.mode), "auth": cstr(lib.pqpan_pqke_mode_name(o.mode)),
        "addr": "short" if o.short_addr else "extended", "csma": "contiki" if o.contiki else "ieee"})
    simulation = {
        "nodes": nodes, "hidden": hidden,
        "capture": capture, "load_fps": float(load), "frame_bytes": frame_bytes,
        "channel_load_pct": 100.0 * bg * float(load) * frame_ms * 1e-3,
        "reasm_timeout_ms": reasm_timeout, "dgram_retries": dgram_retries, "runs": runs,
        "seed": seed, "failed": failed, "failure_rate": failed / runs}
    for s, side in enumerate(SIDES):
        simulation["energy_%s_uj" % side] = stats(energy[s])
    simulation["latency_ms"] = stats(latency)
    simulation["per_run_mean"] = {name: counts[name] / runs for name, _ in _COUNTS}
    result["simulation"] = simulation
    return result
