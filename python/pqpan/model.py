"""The BLE key-exchange model over the library, as `pqpan estimate` runs it: options →
struct pqpan_ble_config + energy inputs → pqpan_ble_estimate_pqke / pqpan_ble_estimate_lesc →
pqpan_energy_compute per side and per phase → one flat row per side with the CLI's field
names and units (cli/ble_model.c model_run / model_fill). Every figure is computed by the
library; this module only sums, converts ns to ms and names."""
from . import data, fields
from . import defaults as _d
from ._lib import (DataError, PqpanError, UsageError, check, cstr, ffi, lib, macro)

LESC_NAME = "LESC-P256"
KEM_NAMES = ("ML-KEM-512", "ML-KEM-768", "ML-KEM-1024")
SIDES = ("peripheral", "central", "total")
_TABLE_WORDS = ("system", "radio-only")
_PROTOCOL_NAMES = {0: "pqpan", 1: "pqpan", 2: "pqpan-psk", 3: "pqpan-kem-auth",
                   4: "pqpan-kem-auth-mutual", 5: "pqpan-sig", 6: "pqpan-sig-mutual",
                   7: "pqpan-numeric"}


def _op_names():
    return data.op_names()


def _phase_names():
    return [cstr(lib.pqpan_phase_name(p)) for p in range(lib.PQPAN_PHASE_COUNT)]


class Result(dict):
    """A result as the CLI's JSON: the run's assumptions as members and "sides", a list of
    one dict per side. A side is also reachable by its name: result["peripheral"]."""

    def __missing__(self, key):
        for side in dict.get(self, "sides", ()):
            if side.get("side") == key:
                return side
        raise KeyError(key)


class Env:
    """The energy inputs of a run (the CLI's model_env): profile, γ, cycle tables, current
    table, TX level and ramp-up mode."""

    def __init__(self, profile=data.DEFAULT_PROFILE, calibration=None, crypto_impl=None,
                 currents=_d.text("CURRENTS"), tx_dbm=_d.number("TX_DBM"), ramp=_d.text("RAMP"),
                 gamma_comm=None, gamma_comp=None, p256_impl=_d.text("P256_IMPL"),
                 lesc_keypair=_d.text("LESC_KEYPAIR")):
        currents = canonical(currents, _TABLE_WORDS)
        ramp = canonical(ramp, ("fast", "normal"))
        if isinstance(profile, str):
            profile = canonical(profile, data.builtin_profiles())
        if isinstance(profile, data.Profile):
            self.profile = profile
        else:
            self.profile = data.load_profile(profile)
        self.calibration = calibration
        self.gamma = ffi.new("struct pqpan_gamma *")
        lib.pqpan_gamma_default(self.gamma)
        if calibration is not None:
            data.load_calibration(self.gamma, calibration)
        self.cycles = data.builtin_cycles()
        self.crypto_impl = data.DEFAULT_CRYPTO_IMPL if crypto_impl is None else crypto_impl
        self._check_impl()
        self._set_p256(p256_impl, lesc_keypair)
        self._apply_gamma_overrides(gamma_comm, gamma_comp or {})
        if currents not in _TABLE_WORDS:
            raise UsageError("--currents %s: want system or radio-only" % currents)
        self.table = _TABLE_WORDS.index(currents)
        if not isinstance(tx_dbm, int) or isinstance(tx_dbm, bool) or not -40 <= tx_dbm <= 40:
            raise UsageError("--tx-dbm %s: want an integer in -40..40" % (tx_dbm,))
        self.tx_dbm = tx_dbm
        if ramp not in ("fast", "normal"):
            raise UsageError("--ramp %s: want fast or normal" % ramp)
        self.ramp_normal = ramp == "normal"
        self.dev = self._device()

    def _check_impl(self):
        impl = self.crypto_impl
        known = any(self.cycles.rows[i].op == lib.PQPAN_OP_KEM_KEYGEN and
                    cstr(self.cycles.rows[i].impl).lower() == str(impl).lower()
                    for i in range(self.cycles.count))
        if not isinstance(impl, str) or len(impl.encode()) >= 24 or not known:
            impls = []
            for i in range(self.cycles.count):
                name = cstr(self.cycles.rows[i].impl)
                if self.cycles.rows[i].op == lib.PQPAN_OP_KEM_KEYGEN and \
                        name.lower() not in [n.lower() for n in impls]:
                    impls.append(name)
            raise UsageError("--crypto-impl %s: no ML-KEM cycle rows for it in data/cycles/ "
                             "(want %s)" % (impl, ", ".join(impls)))

    def _set_p256(self, impl, keypair):
        """--p256-impl (a name some P-256 row of the tables has) and --lesc-keypair."""
        rows = [self.cycles.rows[i] for i in range(self.cycles.count)]
        ops = {r.op for r in rows if cstr(r.scheme).lower() == "p-256" and
               cstr(r.impl).lower() == str(impl).lower()}
        if not isinstance(impl, str) or len(impl.encode()) >= 24 or \
                not {lib.PQPAN_OP_ECDH_KEYGEN, lib.PQPAN_OP_ECDH_SHARED} <= ops:
            raise UsageError("--p256-impl %s: no P-256 cycle rows for it in data/cycles/ (want "
                             "emill-asm, p256-m, tinycrypt, cc310 or pqpan)" % (impl,))
        self.p256_impl = impl
        self.lesc_keypair = canonical(keypair, ("fresh", "reused"))
        if self.lesc_keypair not in ("fresh", "reused"):
            raise UsageError("--lesc-keypair %s: want fresh or reused" % (keypair,))

    def p256_source(self):
        """The source of the P-256 ECDH row in use (the CLI's p256_cycles_source)."""
        row = lib.pqpan_cycles_find(self.cycles, b"P-256", self.p256_impl.encode(),
                                    lib.PQPAN_OP_ECDH_SHARED)
        return cstr(row.source)

    def _apply_gamma_overrides(self, gamma_comm, gamma_comp):
        if gamma_comm is not None:
            self.gamma.comm = _gamma_value("--gamma-comm", gamma_comm)
        names = _op_names()
        for op, value in gamma_comp.items():
            if op not in names:
                raise UsageError("--gamma-comp %s=%s: want OP=X with OP one of %s"
                                 % (op, value, ", ".join(names)))
            self.gamma.comp[names.index(op)] = _gamma_value("--gamma-comp " + op, value)

    def _device(self):
        p = self.profile.struct
        dev = ffi.new("struct pqpan_ble_device *")
        check(lib.pqpan_ble_device_from_profile(dev, p, 1 if self.ramp_normal else 0),
              "pqpan_ble_device_from_profile")
        return dev

    def members(self):
        """The assumption members of the CLI's JSON that are figures or names."""
        out = {"profile": self.profile.name,
               "currents": cstr(lib.pqpan_current_table_name(self.table)),
               "tx_dbm": self.tx_dbm, "ramp": "normal" if self.ramp_normal else "fast",
               "crypto_impl": self.crypto_impl, "p256_impl": self.p256_impl,
               "lesc_keypair": self.lesc_keypair, "gamma_comm": self.gamma.comm}
        for op, name in enumerate(_op_names()):
            out["gamma_comp_" + name] = self.gamma.comp[op]
        return out

    def energy(self, ledger, radio):
        """pqpan_energy_compute for one ledger; a missing figure is the CLI's message."""
        opts = ffi.new("struct pqpan_energy_opts *")
        opts.radio = radio
        opts.table = self.table
        opts.tx_dbm = self.tx_dbm
        e = ffi.new("struct pqpan_energy *")
        rc = lib.pqpan_energy_compute(e, ledger, self.profile.struct, opts, self.gamma)
        if rc == lib.PQPAN_ERR_UNSUPPORTED:
            raise UsageError(self._missing_message(radio), code=rc)
        if rc != lib.PQPAN_OK:
            raise PqpanError(rc, "energy model: %s" % cstr(lib.pqpan_strerror(rc)), 3)
        return e

    def _missing_message(self, radio):
        p, table = self.profile.struct, cstr(lib.pqpan_current_table_name(self.table))
        if radio == lib.PQPAN_RADIO_IEEE802154:
            return ("profile %s gives no %s current in 802.15.4 mode for TX %d dBm or RX (its "
                    "ieee802154 section); try another --currents table or --tx-dbm, or a "
                    "profile with 802.15.4 figures (built in: nrf52840 at 0 dBm)"
                    % (self.profile.name, table, self.tx_dbm))
        ua = ffi.new("double *")
        if lib.pqpan_profile_tx_mode_ua(p, self.table, radio, self.tx_dbm, ua) != lib.PQPAN_OK:
            what = "TX %d dBm" % self.tx_dbm
        elif lib.pqpan_profile_rx_ua(p, self.table, radio, ua) != lib.PQPAN_OK:
            what = "RX %s" % cstr(lib.pqpan_radio_mode_name(radio))
        elif not p.ble_event.ramp_given[self.table]:
            what = "radio start-up (ble_event.ramp_ua)"
        else:
            what = "this configuration"
        return ("profile %s gives no %s current for %s; try another --currents table, "
                "--tx-dbm or --phy" % (self.profile.name, table, what))

    def lookup(self, cycles, scheme, impl, op):
        out = ffi.new("uint64_t *")
        if lib.pqpan_cycles_lookup(self.cycles, scheme.encode(),
                                   ffi.NULL if impl is None else impl.encode(), op,
                                   out) != lib.PQPAN_OK:
            raise UsageError("no cycle count for %s %s (%s) in data/cycles/"
                             % (scheme, cstr(lib.pqpan_op_name(op)),
                                impl if impl is not None else "any implementation"),
                             code=lib.PQPAN_ERR_NOT_FOUND)
        cycles[op] = out[0]


def _gamma_value(opt, value):
    try:
        x = float(value)
    except (TypeError, ValueError):
        x = -1.0
    if not 0.01 <= x <= 100.0:
        raise UsageError("%s %s: want a number in 0.01..100" % (opt, value))
    return x


# ---- the link configuration ---------------------------------------------------------

def _uint(name, value, lo, hi):
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise UsageError("bad value for --%s: '%s' (want an integer in %d..%d)"
                         % (name, value, lo, hi))
    return value


def _ms_to_ns(name, value, lo, hi):
    try:
        ms = float(value)
    except (TypeError, ValueError):
        ms = float("nan")
    if isinstance(value, bool) or not lo <= ms <= hi:
        raise UsageError("bad value for --%s: '%s' (want ms in %g..%g)" % (name, value, lo, hi))
    return int(ms * 1e6 + 0.5)


def canonical(value, words):
    """value as words spell it when it is one of them in another ASCII case (the CLI's
    cli_word_canonical: `--phy 2m` is 1M), else value unchanged."""
    if isinstance(value, str) and value.isascii():
        for w in words:
            if w.lower() == value.lower():
                return w
    return value


def _word(name, value, words):
    value = canonical(value, words)
    if value not in words:
        raise UsageError("bad value for --%s: '%s' (want %s)" % (name, value, " or ".join(words)))
    return words.index(value)


def _onoff(name, value):
    if isinstance(value, bool):
        return int(value)
    return _word(name, value, ("off", "on"))


def ble_config(kem=_d.text("KEM"), protocol=_d.text("PROTOCOL"), phy=_d.text("PHY"),
               att_mtu=_d.number("ATT_MTU"), ll_octets=_d.number("LL_OCTETS"),
               max_tx_time_us=None, transfer=_d.text("TRANSFER"), ci_ms=_d.number("CI_MS"),
               event_len_ms=None, max_pdus_per_event=_d.number("MAX_PDUS_PER_EVENT"),
               reply=_d.text("REPLY"), keygen_side=_d.text("KEYGEN_SIDE"), encrypted=False,
               auth=_d.text("AUTH"), adv_interval_ms=None, features=_d.switch("FEATURES"),
               conn_update=_d.switch("CONN_UPDATE"), initial_ci_ms=None,
               discovery=_d.switch("DISCOVERY"), bits_ifs="each",
               gatt_server=_d.text("GATT_SERVER")):
    """A struct pqpan_ble_config from the options of `pqpan estimate` (the same names with
    '_' for '-', the same ranges); defaults are the library's table (pqpan.defaults), which
    pqpan_ble_config_default also reads.
    bits_ifs ("each" or "per-pdu-sent", enum pqpan_ble_bits_ifs) is not an estimate option:
    `pqpan reproduce` sets it for its study reading."""
    kem = canonical(kem, KEM_NAMES + (LESC_NAME,))
    if kem not in KEM_NAMES and kem != LESC_NAME:
        raise UsageError("bad value for --kem: '%s' (%s, %s)" % (kem, ", ".join(KEM_NAMES),
                                                                 LESC_NAME))
    cfg = ffi.new("struct pqpan_ble_config *")
    lib.pqpan_ble_config_default(cfg)
    cfg.protocol = _word("protocol", protocol, ("study", "pqpan"))
    phy = canonical(phy, [cstr(lib.pqpan_ble_phy_name(k))
                          for k in range(lib.PQPAN_BLE_PHY_COUNT)])
    phy_out = ffi.new("enum pqpan_ble_phy *")
    if not isinstance(phy, str) or lib.pqpan_ble_phy_parse(phy_out, phy.encode()) != 0:
        raise UsageError("bad value for --phy: '%s' (want 1M, 2M, S2 or S8)" % (phy,))
    cfg.phy = phy_out[0]
    cfg.att_mtu = _uint("att-mtu", att_mtu, macro("PQPAN_ATT_DEFAULT_MTU"),
                        macro("PQPAN_ATT_MAX_MTU"))
    cfg.ll_octets = _uint("ll-octets", ll_octets, macro("PQPAN_LL_DATA_MIN_PAYLOAD"),
                          macro("PQPAN_LL_DATA_MAX_PAYLOAD"))
    if max_tx_time_us is not None:
        cfg.max_tx_time_us = _uint("max-tx-time-us", max_tx_time_us, 328, 17040)
    names = [cstr(lib.pqpan_ble_transfer_choice(k, ffi.NULL, ffi.NULL))
             for k in range(macro("PQPAN_BLE_TRANSFER_CHOICES"))]
    transfer = canonical(transfer, names)
    server = ffi.new("enum pqpan_ble_transfer *")
    client = ffi.new("enum pqpan_ble_transfer *")
    if (not isinstance(transfer, str) or
            lib.pqpan_ble_transfer_choice_parse(server, client, transfer.encode()) != 0):
        raise UsageError("bad value for --transfer: '%s'" % (transfer,))
    cfg.server_transfer = server[0]
    cfg.client_transfer = client[0]
    cfg.gatt_server = _role("gatt-server", gatt_server)
    cfg.ci_ns = _ms_to_ns("ci-ms", ci_ms, 7.5, 4000.0)
    if event_len_ms is not None:
        cfg.event_len_ns = _ms_to_ns("event-len-ms", event_len_ms, 0.0, 4000.0)
    cfg.max_pairs = _uint("max-pdus-per-event", max_pdus_per_event, 0, 1000000)
    cfg.same_event_reply = _word("reply", reply, ("next-event", "same-event"))
    cfg.keygen_side = _role("keygen-side", keygen_side)
    cfg.encrypted = _onoff("encrypted", encrypted)
    cfg.pqke_mode = auth_mode(auth)
    if adv_interval_ms is not None:
        cfg.adv_interval_ns = _adv_interval(adv_interval_ms)
    cfg.features = _onoff("features", features)
    cfg.conn_update = _onoff("conn-update", conn_update)
    if initial_ci_ms is not None:
        cfg.idle_ci_ns = _ms_to_ns("initial-ci-ms", initial_ci_ms, 7.5, 4000.0)
    cfg.discovery = _onoff("discovery", discovery)
    ifs_words = tuple(cstr(lib.pqpan_ble_bits_ifs_name(b))
                      for b in range(lib.PQPAN_BLE_BITS_IFS_COUNT))
    cfg.bits_ifs = _word("bits-ifs", bits_ifs, ifs_words)
    if cfg.pqke_mode != lib.PQPAN_PQKE_MODE_NONE and (cfg.protocol != lib.PQPAN_BLE_PROTO_PQPAN
                                                      or kem == LESC_NAME):
        raise UsageError("--auth %s applies to pqpan's protocol: add --protocol pqpan (and an "
                         "ML-KEM --kem)" % auth)
    return cfg


def _role(name, value):
    """The enum pqpan_ble_role of a central/peripheral option."""
    return (lib.PQPAN_BLE_CENTRAL if _word(name, value, ("central", "peripheral")) == 0
            else lib.PQPAN_BLE_PERIPHERAL)


def auth_mode(auth):
    """The PQKE mode (enum) of an --auth word (any case); UsageError naming the modes
    otherwise."""
    auth = canonical(auth, [cstr(lib.pqpan_pqke_mode_name(m)) for m in range(1, 16)
                            if lib.pqpan_pqke_mode_name(m) != ffi.NULL])
    mode = lib.pqpan_pqke_mode_by_name(auth.encode()) if isinstance(auth, str) else 0
    if mode == 0 or not lib.pqpan_pqke_mode_implemented(mode):
        names = [cstr(lib.pqpan_pqke_mode_name(m)) for m in range(1, 16)
                 if lib.pqpan_pqke_mode_name(m) != ffi.NULL and lib.pqpan_pqke_mode_implemented(m)]
        raise UsageError("--auth %s: want %s" % (auth, ", ".join(names)))
    return mode


def _adv_interval(value):
    ns = _ms_to_ns("adv-interval-ms", value, 0.0,
                   macro("PQPAN_BLE_ADV_INTERVAL_MAX_NS") * 1e-6)
    if ns != 0 and (ns < macro("PQPAN_BLE_ADV_INTERVAL_MIN_NS") or
                    ns % macro("PQPAN_BLE_ADV_INTERVAL_STEP_NS") != 0):
        raise UsageError("bad value for --adv-interval-ms: '%s' (0, or 20..10485759.375 in "
                         "steps of 0.625)" % (value,))
    return ns


# ---- one run --------------------------------------------------------------------------

def _scale_kdf(cycles, kem_id, mode):
    suite = lib.pqpan_pqke_suite_for_kem(kem_id)
    none = ffi.new("struct pqpan_pqke_work *")
    work = ffi.new("struct pqpan_pqke_work *")
    if (lib.pqpan_pqke_side_work(none, suite, lib.PQPAN_PQKE_MODE_NONE, 0,
                                 lib.PQPAN_PQKE_ROLE_INITIATOR, 0) != lib.PQPAN_OK or
            lib.pqpan_pqke_side_work(work, suite, mode, 0, lib.PQPAN_PQKE_ROLE_INITIATOR,
                                     0) != lib.PQPAN_OK):
        raise UsageError("--auth %s is not implemented" % cstr(lib.pqpan_pqke_mode_name(mode)))
    kdf = lib.PQPAN_OP_KDF
    cycles[kdf] = ((cycles[kdf] * work.keccak_permutations + none.keccak_permutations // 2)
                   // none.keccak_permutations)


def model_setup(env, cfg, kem):
    """The cycles of each operation (uint64_t[PQPAN_OP_COUNT]) and the KEM's sizes in cfg."""
    cycles = ffi.new("uint64_t[]", lib.PQPAN_OP_COUNT)
    if kem == LESC_NAME:
        env.lookup(cycles, "P-256", env.p256_impl, lib.PQPAN_OP_ECDH_KEYGEN)
        env.lookup(cycles, "P-256", env.p256_impl, lib.PQPAN_OP_ECDH_SHARED)
        if env.lesc_keypair == "reused":  # generated once before: no KeyGen in the pairing
            cycles[lib.PQPAN_OP_ECDH_KEYGEN] = 0
        return cycles
    k = lib.pqpan_kem_by_name(kem.encode())
    cfg.ek_bytes = k.ek_bytes
    cfg.ct_bytes = k.ct_bytes
    impl = env.crypto_impl
    env.lookup(cycles, kem, impl, lib.PQPAN_OP_KEM_KEYGEN)
    if cfg.protocol == lib.PQPAN_BLE_PROTO_PQPAN:
        env.lookup(cycles, kem, impl, lib.PQPAN_OP_KDF)
        _scale_kdf(cycles, k.id, cfg.pqke_mode)
    env.lookup(cycles, kem, impl, lib.PQPAN_OP_KEM_ENCAPS)
    env.lookup(cycles, kem, impl, lib.PQPAN_OP_KEM_DECAPS)
    return cycles


def protocol_name(mode):
    """The protocol field of pqpan's protocol in mode (cli/ble_model.c model_protocol_name)."""
    return _PROTOCOL_NAMES.get(mode, "pqpan")


def _ms_text(ns):
    """ns as milliseconds, up to 3 decimals without trailing zeros (cli/link_opts.c)."""
    text = "%.3f" % (ns * 1e-6)
    return text.rstrip("0").rstrip(".")


def check_link(cfg):
    """UsageError, with the CLI's message (cli/link_opts.c link_opts_check), for a link that
    cannot hold: pqpan_ble_config_fault."""
    fault = lib.pqpan_ble_config_fault(cfg)
    if fault == lib.PQPAN_BLE_CONFIG_OK:
        return
    if fault == lib.PQPAN_BLE_CONFIG_CI_STEP:
        raise UsageError("--ci-ms %s: a connection interval is a multiple of 1.25 ms in "
                         "7.5..4000 (Core v5.4 Vol 6 Part B §4.5.1)" % _ms_text(cfg.ci_ns))
    if fault == lib.PQPAN_BLE_CONFIG_IDLE_CI_STEP:
        raise UsageError("--initial-ci-ms %s: a connection interval is a multiple of 1.25 ms in "
                         "7.5..4000 (Core v5.4 Vol 6 Part B §4.5.1)" % _ms_text(cfg.idle_ci_ns))
    if fault == lib.PQPAN_BLE_CONFIG_EVENT_LEN:
        raise UsageError("--event-len-ms %s is longer than the connection interval (--ci-ms "
                         "%s): an event ends before the next one starts"
                         % (_ms_text(cfg.event_len_ns), _ms_text(cfg.ci_ns)))
    if fault == lib.PQPAN_BLE_CONFIG_PAIR:
        given = cfg.event_len_ns != 0
        raise UsageError(
            "a data PDU of %u LL octets on %s and the empty PDU answering it take %s ms, longer "
            "than a connection event (%s ms: %s%s%s): the link cannot carry its own payload; "
            "use a faster --phy, fewer --ll-octets, a --max-tx-time-us limit or a longer %s"
            % (lib.pqpan_ble_config_ll_octets(cfg), cstr(lib.pqpan_ble_phy_name(cfg.phy)),
               _ms_text(lib.pqpan_ble_config_pair_ns(cfg)),
               _ms_text(lib.pqpan_ble_config_event_ns(cfg)),
               "--event-len-ms" if given else "--ci-ms ", "" if given else _ms_text(cfg.ci_ns),
               "" if given else " minus T_IFS", "--event-len-ms" if given else "--ci-ms"))
    raise UsageError("configuration out of range (--phy 1M, 2M, S2, S8; --ll-octets 27..251; "
                     "--ci-ms and --initial-ci-ms 7.5..4000)")


def _role_word(role):
    return "central" if role == lib.PQPAN_BLE_CENTRAL else "peripheral"


def _messages_of(cfg, role):
    """The messages role sends (cli/link_opts.c messages_of)."""
    keygen = role == cfg.keygen_side
    if cfg.protocol != lib.PQPAN_BLE_PROTO_PQPAN:
        return "ek" if keygen else "ct"
    if keygen:
        return "INIT and FIN"
    return "RESP and REVEAL" if cfg.pqke_mode == lib.PQPAN_PQKE_MODE_NUMERIC else "RESP"


_PROCEDURE_NOUNS = ("notifications (§4.10)", "indications (§4.11)", "Write Requests (§4.9.3)",
                    "Write Commands (§4.9.1)", "long writes (§4.9.4)")


def check_gatt(cfg, kem):
    """UsageError, with the CLI's message (cli/link_opts.c link_gatt_check), for a PQKE a
    side of which would send what its GATT role cannot (pqpan_ble_config_gatt_fault: Core
    v5.4 Vol 3 Part G §2.2, only the server notifies or indicates, only the client
    writes)."""
    if kem == LESC_NAME:
        return
    side = ffi.new("enum pqpan_ble_role *", cfg.keygen_side)
    fault = lib.pqpan_ble_config_gatt_fault(cfg, side)
    if fault == lib.PQPAN_BLE_GATT_OK:
        return
    server = fault == lib.PQPAN_BLE_GATT_SERVER_WRITES
    raise UsageError(
        "unbuildable: the %s, the GATT %s, would send %s by %s, which only a GATT %s sends "
        "(Core v5.4 Vol 3 Part G §2.2); use --transfer SERVER/CLIENT (server: notify, "
        "indicate; client: write-req, write-cmd, long-write), --gatt-server, or "
        "--allow-unbuildable to price it anyway"
        % (_role_word(side[0]), "server" if server else "client", _messages_of(cfg, side[0]),
           _PROCEDURE_NOUNS[lib.pqpan_ble_config_procedure(cfg, side[0])],
           "client" if server else "server"))


def transfer_name(cfg):
    """The transfer field: the name of cfg's (server, client) methods (cli/ble_model.c
    model_transfer_name)."""
    name = lib.pqpan_ble_transfer_choice_name(cfg.server_transfer, cfg.client_transfer)
    return cstr(name) if name != ffi.NULL else "unnamed"


def run_estimator(env, cfg, kem, allow_unbuildable=False):
    """pqpan_ble_estimate_pqke (or _lesc for LESC-P256): the per-side ledgers and counts,
    after the link check `estimate` makes (check_link) and, unless allow_unbuildable, its
    GATT roles check (check_gatt)."""
    check_link(cfg)
    if not allow_unbuildable:
        check_gatt(cfg, kem)
    cycles = model_setup(env, cfg, kem)
    est = ffi.new("struct pqpan_ble_estimate *")
    if kem == LESC_NAME:
        if lib.pqpan_ble_estimate_lesc(est, cfg, env.dev, cycles) != lib.PQPAN_OK:
            raise UsageError("configuration out of range")
    elif lib.pqpan_ble_estimate_pqke(est, cfg, env.dev, cycles) != lib.PQPAN_OK:
        raise UsageError("configuration out of range (ATT_MTU 23..517, and >= 403 for "
                         "--transfer study; LL octets 27..251; CI 7.5..4000 ms)")
    return est


def _pct(part, whole):
    return 100.0 * part / whole if whole > 0.0 else 0.0


def _ms(ns):
    return ns * 1e-6


def _config_fields(kem, cfg, est):
    lesc = kem == LESC_NAME
    mode = lib.PQPAN_PQKE_MODE_NONE
    if lesc:
        protocol = "lesc"
    elif cfg.protocol == lib.PQPAN_BLE_PROTO_PQPAN:
        protocol = protocol_name(cfg.pqke_mode)
        mode = cfg.pqke_mode
    else:
        protocol = "study"
    # auth: the PQKE mode; idle: the radio sleeps between connection events (cli/ble_model.h
    # MODEL_BLE_IDLE)
    return {"kem": kem, "protocol": protocol, "auth": cstr(lib.pqpan_pqke_mode_name(mode)),
            "idle": "sleep", "phy": cstr(lib.pqpan_ble_phy_name(cfg.phy)),
            "att_mtu": cfg.att_mtu, "ll_octets": cfg.ll_octets,
            "dle": int(cfg.ll_octets > macro("PQPAN_LL_DATA_MIN_PAYLOAD")),
            "transfer": "smp" if lesc else transfer_name(cfg),
            "ci_ms": _ms(cfg.ci_ns),
            "keygen_side": "central" if cfg.keygen_side == lib.PQPAN_BLE_CENTRAL
            else "peripheral"}


def phase_energies(env, ledger, radio):
    """The events accounting of each phase alone (e_<phase>_uj): the ledger's time in that
    phase (and, for CRYPTO, the operations' cycles) through the energy model."""
    out = []
    for p in range(lib.PQPAN_PHASE_COUNT):
        one = ffi.new("struct pqpan_ledger *")
        lib.pqpan_ledger_init(one)
        one.ns[p] = ledger.ns[p]
        if p == lib.PQPAN_PHASE_CRYPTO:
            one.op_count = ledger.op_count
            one.op_cycles = ledger.op_cycles
        out.append(env.energy(one, radio).total_events_uj)
    return out


def _exchange_energy(env, ledger, radio):
    ex = ffi.new("struct pqpan_ledger *")
    mask = ((1 << lib.PQPAN_PHASE_KEY_TRANSFER) | (1 << lib.PQPAN_PHASE_CRYPTO) |
            (1 << lib.PQPAN_PHASE_CONFIRM))
    lib.pqpan_advise_ledger_phases(ex, ledger, mask)
    return env.energy(ex, radio).total_events_uj


def energy_fields(full, bits, led, bl):
    """The energy, time and count fields one side's two energies and ledgers give."""
    ops = {"e_comp_%s_uj" % name: full.comp_op_uj[op] for op, name in enumerate(_op_names())}
    e_total = full.comp_uj + bits.comm_bits_uj
    return {
        "e_comp_uj": full.comp_uj, "e_comm_uj": bits.comm_bits_uj, "e_total_uj": e_total,
        "comm_share_pct": _pct(bits.comm_bits_uj, e_total), "ops": ops,
        "e_comm_tx_uj": bits.bits_tx_uj, "e_comm_rx_uj": bits.bits_rx_uj,
        "e_comm_ifs_uj": bits.bits_ifs_uj, "e_comm_events_uj": full.comm_events_uj,
        "e_ev_radio_uj": full.ev_radio_uj, "e_ev_hfxo_uj": full.ev_hfxo_uj,
        "e_ev_ramp_uj": full.ev_ramp_uj, "e_ev_pre_uj": full.ev_pre_uj,
        "e_ev_rx_window_uj": full.ev_rx_window_uj, "e_ev_post_uj": full.ev_post_uj,
        "e_ev_sleep_uj": full.ev_sleep_uj, "e_ev_cpu_uj": full.ev_cpu_radio_uj,
        "e_total_events_uj": full.total_events_uj,
        "comm_share_events_pct": _pct(full.comm_events_uj, full.total_events_uj),
        "t_tx_ms": _ms(lib.pqpan_ledger_state_ns(bl, lib.PQPAN_STATE_TX)),
        "t_rx_ms": _ms(lib.pqpan_ledger_state_ns(bl, lib.PQPAN_STATE_RX)),
        "t_ifs_ms": _ms(lib.pqpan_ledger_state_ns(bl, lib.PQPAN_STATE_IFS)),
        "t_crypto_ms": _ms(led.ns[lib.PQPAN_PHASE_CRYPTO][lib.PQPAN_STATE_CPU]),
        "pdus_tx": bl.pdus_tx, "pdus_rx": bl.pdus_rx, "bytes_tx": bl.bytes_tx,
        "bytes_rx": bl.bytes_rx,
    }


# The set-up and exchange phases whose energy and span a side reports (their order in the
# field table is the run layer's: src/run/fields.c fields_ble).
_SETUP_PHASES = ("advertise", "connect", "features", "conn_update", "phy_update",
                 "length_update", "mtu_exchange", "discovery")
_EXCHANGE_PHASES = ("key_transfer", "crypto", "confirm")

CONFIG_FIELDS = fields.config_fields("ble")


def side_fields():
    """The names of a side's result fields, after "side" and CONFIG_FIELDS, in order (the
    run layer's field table)."""
    return fields.side_fields("ble")


def _ble_row(side, config, f, extra, phase_e, phase_t):
    values = dict(f)
    values.update(f["ops"])
    values.update(extra)
    phases = _phase_names()
    for ph in _SETUP_PHASES + _EXCHANGE_PHASES:
        values["e_%s_uj" % ph] = phase_e[phases.index(ph)]
    for ph in _SETUP_PHASES:
        values["t_%s_ms" % ph] = phase_t[phases.index(ph)]
    row = {"side": side}
    row.update(config)
    row.update((name, values[name]) for name in side_fields())
    return row


def side_ledgers(ledgers, bits, order):
    """([a, b, total], [a, b, total]): copies of the two sides' ledgers (everything, bits
    accounting) in `order` (indexes into the arrays) and their sums."""
    led = [ffi.new("struct pqpan_ledger *", ledgers[i]) for i in order]
    bl = [ffi.new("struct pqpan_ledger *", bits[i]) for i in order]
    for group in (led, bl):
        total = ffi.new("struct pqpan_ledger *")
        lib.pqpan_ledger_init(total)
        for one in group:
            lib.pqpan_ledger_accumulate(total, one)
        group.append(total)
    return led, bl


def fill_rows(env, kem, cfg, est, conn_events=None):
    """The three rows (peripheral, central, total) of one estimate or simulated run;
    conn_events: a simulated run's count (None: the estimate's)."""
    roles = (lib.PQPAN_BLE_PERIPHERAL, lib.PQPAN_BLE_CENTRAL)
    radio = lib.pqpan_advise_radio_mode(cfg.phy)
    led, bl = side_ledgers(est.ledger, est.bits, roles)
    config = _config_fields(kem, cfg, est)
    phase_t = [_ms(est.span_ns[p]) for p in range(lib.PQPAN_PHASE_COUNT)]
    rows, counts = [], []
    for s, side in enumerate(SIDES):
        full, bits = env.energy(led[s], radio), env.energy(bl[s], radio)
        phase_e = phase_energies(env, led[s], radio)
        if s < 2:
            role = 0 if roles[s] == lib.PQPAN_BLE_CENTRAL else 1
            c = (est.counts.data_pdus_tx[role], est.counts.empty_pdus_tx[role],
                 est.counts.att_pdus[role])
        else:
            c = tuple(a + b for a, b in zip(counts[0], counts[1]))
        counts.append(c)
        extra = {"latency_ms": _ms(est.latency_ns), "setup_ms": _ms(est.setup_ns),
                 "e_exchange_events_uj": _exchange_energy(env, led[s], radio),
                 "ll_octets_eff": est.ll_octets_eff,
                 "data_pdus_tx": c[0], "empty_pdus_tx": c[1], "att_pdus_tx": c[2],
                 "conn_events": conn_events if conn_events is not None else
                 lib.pqpan_ble_conn_events(est),
                 "idle_events": est.counts.idle_events}
        rows.append(_ble_row(side, config, energy_fields(full, bits, led[s], bl[s]), extra,
                             phase_e, phase_t))
        if kem == LESC_NAME:
            rows[-1].update(lesc_fields(env, bl[s], phase_e, radio))
    return rows


def lesc_fields(env, bits_ledger, phase_e, radio):
    """LE SC's named parts (cli/ble_model.c fill_lesc): the P-256 rows and key pair, the
    encryption start (the CONFIRM phase) in both accountings, no key distribution."""
    confirm = ffi.new("struct pqpan_ledger *")
    lib.pqpan_ledger_init(confirm)
    confirm.ns[lib.PQPAN_PHASE_CONFIRM] = bits_ledger.ns[lib.PQPAN_PHASE_CONFIRM]
    return {"p256_impl": env.p256_impl, "p256_cycles_source": env.p256_source(),
            "lesc_keypair": env.lesc_keypair,
            "e_lesc_enc_start_uj": env.energy(confirm, radio).comm_bits_uj,
            "e_lesc_enc_start_events_uj": phase_e[lib.PQPAN_PHASE_CONFIRM],
            "e_lesc_key_dist_uj": 0.0}


def setup_members(cfg):
    return {"setup_adv_interval_ms": _ms(cfg.adv_interval_ns),
            "setup_features": bool(cfg.features), "setup_conn_update": bool(cfg.conn_update),
            "setup_initial_ci_ms": _ms(cfg.idle_ci_ns), "setup_discovery": bool(cfg.discovery)}


def estimate_ble(env, kem, cfg, allow_unbuildable=False):
    """The Result of one BLE configuration (one GATT cannot build: UsageError unless
    allow_unbuildable, check_gatt)."""
    est = run_estimator(env, cfg, kem, allow_unbuildable)
    result = Result(env.members())
    result["e_comm_accounting"] = "bits"
    result.update(setup_members(cfg))
    result["sides"] = fill_rows(env, kem, cfg, est)
    return result


__all__ = ["Env", "Result", "ble_config", "estimate_ble", "fill_rows", "DataError"]
