"""pqpan from Python: the energy and latency of post-quantum key establishment over BLE and
IEEE 802.15.4, computed by the same C library as the `pqpan` command (libpqpan.so, loaded
through cffi in ABI mode). Results have the fields and units of `pqpan ... --format json`.

    >>> import pqpan
    >>> r = pqpan.estimate(kem="ML-KEM-768", ll_octets=251)
    >>> r["peripheral"]["e_total_uj"]

See docs/PYTHON.md."""
import functools
import inspect
import os
import warnings
from typing import Dict, Optional, Union

from . import data, kem
from . import defaults
from . import defaults as _d
from . import options as _options, run as _run
from ._lib import (DataError, FileError, PqpanError, UsageError, LIBRARY_PATH, strerror,
                   version)
from .data import Profile
from .run import Result

__all__ = ["trace", "estimate", "idle", "sweep", "simulate", "estimate_802154", "simulate_802154", "estimate_mesh", "simulate_mesh", "advise", "calibrate", "compare", "reproduce", "profiles", "load_profile", "kem", "defaults", "PqpanError", "UsageError",
           "DataError", "FileError", "Result", "Profile", "version", "strerror",
           "LIBRARY_PATH"]

__version__ = "0.1.0"


@_options.with_options("estimate", "ble")
def estimate(kem: str = _d.text("KEM"), *, protocol: str = _d.text("PROTOCOL"),
             phy: str = _d.text("PHY"), att_mtu: int = _d.number("ATT_MTU"),
             ll_octets: int = _d.number("LL_OCTETS"), max_tx_time_us: Optional[int] = None,
             transfer: str = _d.text("TRANSFER"), ci_ms: float = _d.number("CI_MS"),
             event_len_ms: Optional[float] = None,
             max_pdus_per_event: int = _d.number("MAX_PDUS_PER_EVENT"),
             reply: str = _d.text("REPLY"), keygen_side: str = _d.text("KEYGEN_SIDE"),
             encrypted: bool = False, auth: str = _d.text("AUTH"), sig: Optional[str] = None,
             adv_interval_ms: float = _d.number("ADV_INTERVAL_MS"),
             features: Union[bool, str] = _d.switch("FEATURES"),
             conn_update: Union[bool, str] = _d.switch("CONN_UPDATE"),
             initial_ci_ms: float = _d.number("INITIAL_CI_MS"),
             discovery: Union[bool, str] = _d.switch("DISCOVERY"),
             profile: Union[str, Profile] = _d.text("PROFILE"),
             calibration: Optional[str] = None, crypto_impl: str = _d.text("CRYPTO_IMPL"),
             currents: str = _d.text("CURRENTS"), tx_dbm: int = _d.number("TX_DBM"),
             ramp: str = _d.text("RAMP"), gamma_comm: Optional[float] = None,
             gamma_comp: Optional[Dict[str, float]] = None,
             gatt_server: str = _d.text("GATT_SERVER"), allow_unbuildable: bool = False,
             p256_impl: str = _d.text("P256_IMPL"),
             lesc_keypair: str = _d.text("LESC_KEYPAIR"), **more) -> Result:
    """One key exchange over BLE, per side: `pqpan estimate --format json` as a dict, run by
    the library's pqpan_run (pqpan.run) as the CLI runs it.

    The options are the CLI's (`pqpan help estimate`), with '_' for '-': kem is ML-KEM-512,
    ML-KEM-768, ML-KEM-1024 or LESC-P256; on/off options take True/False or "on"/"off";
    sig names the signature of auth="sig" / "sig-mutual" (`--sig`, e.g. "ML-DSA-65");
    gamma_comp maps an operation name (kem_keygen, ...) to its γ (--gamma-comp OP=X once
    per operation); a Profile is passed as its file's path or built-in name (the file as
    it is on disk: a Profile parsed from bytes raises UsageError). An argument at its default
    (or None) is left out of the request, so it takes the library's default. Defaults are
    the library's table (pqpan.defaults, docs/CLI.md "Defaults"): the study's link set-up
    with pqpan's protocol (protocol="study" for the study's). bits_ifs (`--bits-ifs`:
    "each" or "per-pdu-sent", how many T_IFS the bits accounting books) is the rule
    `pqpan reproduce` sets for its study reading. The result
    has the CLI's JSON members (figures and prose) and "sides" (peripheral, central,
    total), each side also as result["peripheral"] etc.; energies in µJ, times in ms; a
    warning the CLI prints is a UserWarning. transfer names each GATT role's method
    ("notify/write-cmd": the server notifies, the client writes Write Commands;
    gatt_server says which side is the server): a
    configuration GATT cannot build (a side sending what its role does not, Core v5.4 Vol 3
    Part G §2.2) raises UsageError unless allow_unbuildable. Raises UsageError (an option
    out of range), DataError (a bad profile or calibration file), FileError (a file that
    cannot be read). Messages name keyword arguments (att_mtu, not --att-mtu)."""
    options = dict(locals())
    options.update(options.pop("more"))
    return _run_estimate(estimate, options)


def _same(value, default):
    return type(value) is type(default) and value == default


def _option_value(key, value):
    """A keyword argument's value as pqpan.run takes it: gamma_comp's dict as --gamma-comp
    OP=X once per operation, a Profile as the path of its file."""
    if key == "gamma_comp":
        if not isinstance(value, dict):
            raise UsageError("gamma_comp %r: want a dict {operation: gamma}" % (value,))
        return ["%s=%s" % (op, x) for op, x in value.items()]
    if key == "profile" and isinstance(value, Profile):
        return _profile_request(value)
    return value


def _profile_request(profile):
    """--profile of a Profile: the file it was read from, or its name if it is built in
    (origin "data/profiles/NAME.json (built in)", src/io/load/data.c). One parsed from
    bytes has no file: UsageError."""
    if os.path.isfile(profile.origin):
        return profile.origin
    if profile.origin.endswith(" (built in)") and profile.name in data.builtin_profiles():
        return profile.name
    raise UsageError("profile: a Profile read from %s, not from a file; pass a built-in "
                     "name or a profile file's path" % (profile.origin,))


@functools.lru_cache(maxsize=None)
def _defaults_of(fn):
    """fn's keyword defaults, generated ones included (read once per function, not on
    every call)."""
    return {k: p.default for k, p in inspect.signature(fn).parameters.items()}


def _run_command(command, fn, options, link=None):
    """pqpan.run of command with fn's keyword arguments (options): an argument at fn's
    default (or None) is left out, so it takes the library's default as the CLI's option
    does; the run's warnings are UserWarnings."""
    defaults = _defaults_of(fn)
    request = {} if link is None else {"link": link}
    for key, value in options.items():
        if value is not None and not _same(value, defaults[key]):
            request[key] = _option_value(key, value)
    out = _run.run(command, **request)
    for text in out["warnings"]:
        warnings.warn(text, stacklevel=4)
    return out


def _run_estimate(fn, options, link=None):
    """`pqpan estimate` of fn's keyword arguments (options) through pqpan.run. The Result
    has the CLI's JSON members and "sides"."""
    out = _run_command("estimate", fn, options, link)
    result = Result(out["assumptions"])
    result["sides"] = out["sides"]
    if "nodes" in out:
        result["nodes"] = out["nodes"]
    return result


@_options.with_options("simulate", "ble")
def simulate(kem: str = _d.text("KEM"), *, per: float = _d.number("PER"),
             ber: float = _d.number("BER"), seed: int = _d.number("SEED"),
             transport: str = _d.text("TRANSPORT"),
             supervision_timeout_ms: int = _d.number("SUPERVISION_TIMEOUT_MS"),
             adv_case: str = _d.text("ADV_CASE"), **more) -> Result:
    """One key exchange PDU by PDU over a simulated BLE connection: `pqpan simulate --format
    json` as a dict, run by the library's pqpan_run (pqpan.run) as the CLI runs it. The
    options are the CLI's (`pqpan help simulate`), with '_' for '-', as estimate()'s
    (protocol "pqpan", the default: the real protocol with ML-KEM and key confirmation, or
    "study": the study's raw ek and ct; auth and sig the PQKE mode); per and ber are the
    packet and bit error rates in each direction, seed the channel's and the protocol's
    randomness (the same seed gives the same result), transport "gatt" or "l2cap-coc",
    adv_case "drawn" or "mean"; pcap and trace name files the run writes. The result is
    the CLI's JSON members (the assumptions and "simulation": packets, retransmissions,
    CRC errors, connection events, latency, keys_equal, key_confirmation) and "sides", plus
    "succeeded" (False when the exchange failed: link lost, damaged message; the CLI then
    exits 1)."""
    options = dict(locals())
    options.update(options.pop("more"))
    out = _run_command("simulate", simulate, options)
    result = Result(out["assumptions"])
    result["sides"] = out["sides"]
    result["succeeded"] = bool(out["simulation"][-1]["succeeded"])
    return result


@_options.with_options("estimate", "802154")
def estimate_802154(kem: str = _d.text("KEM"), *, busy: float = _d.number("BUSY"),
                    csma: str = _d.text("CSMA"), addr: str = _d.text("ADDR"),
                    idle: Optional[str] = None, backoff: Optional[str] = None,
                    mac_security: str = _d.text("MAC_SECURITY"),
                    key_id_mode: int = _d.number("KEY_ID_MODE"), auth: str = _d.text("AUTH"),
                    sig: Optional[str] = None, ipv6_frag: bool = False,
                    profile: Union[str, Profile] = _d.text("PROFILE"),
                    calibration: Optional[str] = None, crypto_impl: str = _d.text("CRYPTO_IMPL"),
                    currents: str = _d.text("CURRENTS"), tx_dbm: int = _d.number("TX_DBM"),
                    ramp: str = _d.text("RAMP"),
                    gamma_comm: Optional[float] = None,
                    gamma_comp: Optional[Dict[str, float]] = None, **more) -> Result:
    """The exchange over 6LoWPAN / IEEE 802.15.4 (pqpan's INIT / RESP / FIN, one acknowledged
    frame after another with unslotted CSMA-CA, the closed-form cost for a channel-busy
    probability `busy`): `pqpan estimate --link 802154 --format json` as a dict, sides
    initiator, responder, total. idle / backoff: "listen" or "sleep" (None: the profile's
    ieee802154 section); mac_security: none, mic32, mic64, mic128, enc-mic32, enc-mic64,
    enc-mic128; key_id_mode 0..3; auth: the PQKE mode (`--auth`: none, psk, kem-auth,
    kem-auth-mutual, numeric, sig, sig-mutual with sig naming the signature); ipv6_frag
    (`--ipv6-frag`): a message over 1232 octets in IPv6 fragments instead of segments;
    hops above 1: the chain, the result's "nodes" (one dict per node, initiator first) in
    place of "sides". Run by pqpan_run (pqpan.run) with link="802154", as estimate()."""
    options = dict(locals())
    options.update(options.pop("more"))
    return _run_estimate(estimate_802154, options, link="802154")


@_options.with_options("idle", ("ble", "802154"))
def idle(link: str = "ble", **options) -> Result:
    """What an idle link costs between key exchanges: `pqpan idle --format json` as a dict,
    run by pqpan_run (pqpan.run). On BLE (link="ble") one side (role) of a connection with
    nothing to send over one latency period: its average current, the charge of one event
    and "phases", one dict per state of the period (time_us, current_ua, charge_uc). With
    link="802154" a sleepy end device polling its parent every poll_ms: the charge per poll,
    the average current and "phases" (phase, state, time_us, current_ua, charge_uc). The
    members are the CLI's JSON members (its assumptions and the figures); result.units maps
    each figure and phase field to its unit. An option left out takes the CLI's default; a
    bad one raises UsageError naming the keyword. With exchange_uj (the battery side's
    energy of one key exchange, e.g. estimate()'s e_exchange_events_uj) the result has
    "battery": the average current with a rekey every rekey_every and the battery life on
    battery_mah, as `pqpan idle --exchange-uj X` prints them (advise's arithmetic)."""
    request = {} if link == "ble" else {"link": link}
    for key, value in options.items():
        if value is not None:
            request[key] = _option_value(key, value)
    out = _run.run("idle", **request)
    for text in out["warnings"]:
        warnings.warn(text, stacklevel=3)
    result = Result(out["assumptions"])
    result.update(out["own"])
    result["phases"] = out["phases"]
    if "battery" in out:
        result["battery"] = out["battery"]
    result.units = out["units"]
    return result


@_options.with_options("simulate", "802154")
def simulate_802154(kem: str = _d.text("KEM"), *, nodes: int = _d.number("NODES"),
                    load: float = _d.number("LOAD"),
                    frame_bytes: int = _d.number("FRAME_BYTES"),
                    hidden: int = _d.number("HIDDEN"), capture: str = _d.text("CAPTURE"),
                    reasm_timeout: int = _d.number("REASM_TIMEOUT"),
                    dgram_retries: int = _d.number("DGRAM_RETRIES"),
                    runs: int = _d.number("RUNS"), seed: int = _d.number("SEED"),
                    **more) -> Result:
    """A Monte Carlo of the real PQKE over a contended 802.15.4 channel: `pqpan simulate
    --link 802154 --format json` as a dict, run by the library's pqpan_run (pqpan.run) as
    the CLI runs it. nodes (2..200) share the channel, the nodes - 2 background ones each
    offering `load` frames/s of frame_bytes octets (hidden of them hidden from the
    initiator); runs seeded exchanges (seed + i); mean / p50 / p90 / p99 of each side's
    energy (all states) and of the latency, failures, per-run counts. The other options are
    estimate_802154()'s link and energy options except busy (contention is simulated),
    auth and sig included; pcap names the file of the first run's frames. hops above 1 runs
    the chain simulator (nodes 2, no pcap): the members are the link's assumptions and
    "chain" (hops, forwarding, runs, seed, mean latency), and "nodes" one dict per node,
    initiator first (energy averaged over the runs, t_tx_ms and t_rx_ms of the last run)."""
    options = dict(locals())
    options.update(options.pop("more"))
    out = _run_command("simulate", simulate_802154, options, link="802154")
    result = Result(out["assumptions"])
    if "nodes" in out:
        result["nodes"] = out["nodes"]
    return result


def _run_mesh(command, fn, options):
    """`pqpan COMMAND --link ble-mesh --format json` of fn's keyword arguments as a Result."""
    out = _run_command(command, fn, options, link="ble-mesh")
    result = Result(out["assumptions"])
    result["sides"] = out["sides"]
    result.units = out["units"]
    return result


@_options.with_options("estimate", "ble-mesh")
def estimate_mesh(**options) -> Result:
    """BLE Mesh provisioning (MshPRT v1.1 §5.4) with ML-KEM keys (pqpan's variant,
    docs/PROTOCOL.md §10), P-256's or both (hybrid="p256") over PB-ADV or PB-GATT (bearer):
    `pqpan estimate --link ble-mesh --format json` as a dict, run by the library's pqpan_run
    (pqpan.run) as the CLI runs it. "sides": provisioner, device, total (energy in the events
    accounting, latency, times, counts; result.units maps each to its unit). A bad keyword or
    value, or options of the other bearer, raise UsageError naming the keyword."""
    return _run_mesh("estimate", estimate_mesh, options)


@_options.with_options("simulate", "ble-mesh")
def simulate_mesh(**options) -> Result:
    """The same provisioning executed by the library's simulator (real Provisioning PDUs,
    keys and crypto; seed the random source, pcap a file of the packets): `pqpan simulate
    --link ble-mesh --format json` as a dict, with estimate_mesh()'s "sides" (equal at zero
    loss) and the run's outcome: keys_equal, complete, failed_code (the CLI exits 1 when the
    keys are not equal; here keys_equal is False)."""
    return _run_mesh("simulate", simulate_mesh, options)


@_options.with_options("advise", None, frame=("--format", "--out"))
def advise(**options) -> dict:
    """The cheapest key exchange for a battery-powered device under constraints, through the
    library's run layer (pqpan_run "advise", as `pqpan advise`): every option of advise's
    tables is a keyword argument (its name with '_' for '-', listed below with unit, default
    and words; link="802154" searches IEEE 802.15.4; link="ble-mesh" the BLE Mesh provisioning
    that costs the device least, with min_level, max_latency_ms, hybrid, top and the energy
    options). Returns what `pqpan advise --format json` prints, as a dict (the
    recommendations, the switching decision, the levels, the Pareto front; ble-mesh:
    "choices", "best_per_bearer" (from the run's typed MESH_CHOICE and MESH_BEST rows:
    pqpan.run.run("advise", link="ble-mesh") gives them with units), "grid"). Raises UsageError naming the keyword argument, DataError, FileError, or
    PqpanError (exit_code 1) when no configuration meets the constraints."""
    given = {k: v for k, v in options.items() if v is not None}
    out = _run.run("advise", **given)
    return dict(out["assumptions"], **out.get("listed", {}))


@_options.with_options("calibrate", "ble")
def calibrate(trace, **options) -> Result:
    """Fits the model's correction factors to measured Power Profiler Kit II captures
    through the library's run layer (pqpan_run "calibrate", as `pqpan calibrate`): trace is
    one PPK2 CSV export with digital channels or a list of them (each one side of one key
    exchange; "central:FILE" overrides side for that file). gamma_comp per crypto operation
    and gamma_comm by least squares through the origin, against the model at gamma = 1 for
    the same link and energy options (every option of calibrate's tables is a keyword
    argument, listed below with unit, default and words; out="FILE" writes the calibration
    overlay that estimate(calibration=FILE) reads). Returns what `pqpan calibrate --format
    json` prints, as a dict ("fit", "residuals", "traces" and the configuration);
    result.units maps each typed figure of those rows to its unit. A fitted gamma outside
    the study's range is a warning. Raises UsageError naming the keyword argument,
    DataError for a trace that does not parse or whose segments do not match the
    operations, FileError, or PqpanError (exit_code 1) when out cannot hold the fit."""
    given = {k: v for k, v in options.items() if v is not None}
    out = _run.run("calibrate", trace=list(trace) if isinstance(trace, (list, tuple))
                   else trace, **given)
    for text in out["warnings"]:
        warnings.warn(text, stacklevel=3)
    result = Result(out["assumptions"])
    result.units = out["units"]
    return result


@_options.with_options("compare", None, frame=("--format",))
def compare(**options) -> dict:
    """The PQKE for ML-KEM-512, -768 and -1024 over BLE (the study's preset without and
    with DLE, analytic) against IEEE 802.15.4 / 6LoWPAN at 0, 10 and 30 % channel load (the
    contention simulator, `runs` seeded runs per cell), through the library's run layer
    (pqpan_run "compare", as `pqpan compare`): every option of compare's tables is a keyword
    argument (out=DIR writes compare.csv and the gnuplot figure there, as the CLI does).
    Returns what `pqpan compare --format json` prints, as a dict: the assumptions as
    members and "rows", one dict per level and link (energy_uj, energy_p90_uj, latency_ms,
    latency_p90_ms, failure_rate, ...), values typed. mesh=True: the mesh table (`pqpan
    compare --mesh`): "rows" one dict per level, network and hop count (latency_ms,
    source_uj, forwarder_max_uj, None without a forwarder, destination_uj). Raises
    UsageError naming the keyword argument, DataError or FileError."""
    given = {k: v for k, v in options.items() if v is not None}
    out = _run.run("compare", **given)
    return dict(out["assumptions"], rows=out["rows"])


@_options.with_options("reproduce", None, frame=("--format",))
def reproduce(**options) -> dict:
    """The SenSys '26 study's matrix (ML-KEM-512/768/1024 without and with DLE on the study
    preset, and the LE Secure Connections baseline) and its headline figures beside the
    study's ranges, per reading (reading="defaults", "study", "shipped", "both" or "all"),
    through the library's run layer (pqpan_run "reproduce", as `pqpan reproduce`): every
    option of reproduce's tables is a keyword argument (out=DIR writes the CSV files and
    gnuplot figures there, as the CLI does). Returns what `pqpan reproduce --format json`
    prints, as a dict: "headline_side", "readings" (each reading's assumptions), "rows"
    (the matrix: one dict per reading, configuration and side), "headline", "modes" and
    "builds", values typed. Raises UsageError naming the keyword argument, DataError or
    FileError."""
    given = {k: v for k, v in options.items() if v is not None}
    out = _run.run("reproduce", **given)
    return dict(out["assumptions"], rows=out["rows"], headline=out["headline"],
                modes=out["modes"], builds=out["builds"])


@_options.with_options("sweep", ("ble", "802154", "ble-mesh"), skip=("--out", "--jobs"))
def sweep(link: Optional[str] = None, **options):
    """estimate() (or, with link="802154", estimate_802154(); with link="ble-mesh",
    estimate_mesh()) over every combination of the values given: `pqpan sweep`, run by the library's pqpan_run "sweep" (pqpan.run) as the
    CLI runs it. Each option takes a list (or range) of values or one value, e.g.
    sweep(kem=["ML-KEM-512", "ML-KEM-768"], ll_octets=range(27, 252, 8), phy=["1M", "2M"]);
    a flag True (given) or False; gamma_comp a dict {operation: γ or a list of them}, one
    --gamma-comp per operation; a Profile as its file. Returns a pandas.DataFrame when
    pandas is installed (the result columns' units in frame.attrs["units"]), else a list of
    dicts: one row per configuration with the columns of `pqpan sweep` (config, configs,
    status, in_<option> as the text the CLI writes, the configuration's fields,
    <side>_<field> for every result field; ble-mesh: provisioner_, device_, total_, a field
    of the other bearer None), in its order. An option value out of range
    raises UsageError (the CLI refuses the whole sweep); a configuration the model rejects
    gets its reason in "status" and None results. per (a list of packet error rates, BLE)
    adds the Monte Carlo's columns (sim_per ... sim_latency_p99_ms; runs per configuration,
    seed of run 0 of configuration 0); hops / forwarding with link="802154" the chain's
    (chain_latency_ms, chain_initiator_uj, chain_forwarder_max_uj, chain_responder_uj), as
    `pqpan sweep` writes them. The keyword arguments are the options of `pqpan sweep` on
    three links (each a LIST: the table's range and words are those of one value)."""
    if link not in (None, "ble", "802154", "ble-mesh"):
        raise UsageError("--link %s: want ble, 802154 or ble-mesh" % (link,))
    pairs = [] if link is None else [("link", link)]
    for key, value in options.items():
        pairs += _sweep_pairs(key, value)
    rows, columns, units = _run.sweep(pairs)
    try:
        import pandas
    except ImportError:
        return rows
    frame = pandas.DataFrame(rows, columns=columns)
    for name in columns:  # integer columns stay integers where invalid rows have None
        values = [r[name] for r in rows if r[name] is not None]
        if values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            frame[name] = frame[name].astype("Int64")
    frame.attrs["units"] = {name: units[name] for name in columns if units.get(name)}
    return frame


def _sweep_pairs(key, value):
    """A sweep() keyword as request pairs: gamma_comp's dict one --gamma-comp LIST per
    operation, a Profile (or a list of them) as its file."""
    if key == "gamma_comp":
        if not isinstance(value, dict):
            raise UsageError("gamma_comp %r: want a dict {operation: gamma or a list}" % (value,))
        return [(key, ["%s=%s" % (op, x) for x in (v if isinstance(v, (list, tuple, range))
                                                   else [v])]) for op, v in value.items()]
    if key == "profile" and isinstance(value, (list, tuple)):
        return [(key, [_option_value(key, v) for v in value])]
    return [(key, _option_value(key, value))]


@_options.with_options("trace", None)
def trace(path: str, *, phases: Union[None, str, Dict[int, str]] = None,
          windows: Optional[Dict[str, tuple]] = None, **options) -> dict:
    """Per-phase statistics of a Power Profiler Kit II CSV export: `pqpan trace FILE --format
    json` as a dict, run by the library's pqpan_run "trace" (pqpan.run) as the CLI runs it:
    rows read and skipped, voltage, baseline, sampling intervals, and for the whole trace
    ("total") and each phase ("phases") samples, segments, duration_ms, energy_uj, avg /
    min / median / p99 / max current in µA (median and p99 within 0.25 %,
    quantile_rel_error); with segments=True "segments", every segment of each channel phase
    (one crypto operation each). The options are the CLI's (`pqpan help trace`) with '_'
    for '-'; phases is --phases' text ("d0=crypto,d1=radio") or a dict {0: "crypto", 1:
    "radio"}; window is --window's "NAME=START:END" (a list for several), windows a dict
    {name: (start_ms, end_ms)}; baseline_ua a number or "auto". A warning the CLI prints (bad
    rows skipped with lenient=True, a file without samples) is a UserWarning. The file is
    streamed: memory does not grow with its size. Raises UsageError (naming the keyword),
    DataError (a bad row, with its line), FileError."""
    if isinstance(phases, dict):
        phases = ",".join("d%s=%s" % (channel, name) for channel, name in phases.items())
    defaults = _defaults_of(trace)
    given = {k: v for k, v in options.items() if v is not None and not _same(v, defaults[k])}
    if phases is not None:
        given["phases"] = phases
    if windows:
        more = given.pop("window", [])
        given["window"] = (list(more) if isinstance(more, (list, tuple)) else [more]) + [
            "%s=%s:%s" % (name, start, end) for name, (start, end) in windows.items()]
    out = _run.run("trace", _raw=[("FILE", path)], **given)
    for text in out["warnings"]:
        warnings.warn(text, stacklevel=3)
    result = dict(out["trace"])
    result["total"], result["phases"] = out["trace_phases"][0], out["trace_phases"][1:]
    if given.get("segments") not in (None, False, "off"):
        result["segments"] = out.get("segments", [])
    return result


def profiles() -> list:
    """The built-in device profiles, as `pqpan profiles --format json` (run by the library's
    pqpan_run "profiles"): one dict per profile with its name, key figures (supply_v,
    cpu_mhz, cpu_ua, sleep_ua, TX 0 dBm and RX LE 1M currents of the system-level and the
    radio-only tables, None where the datasheet gives none), how many figures are
    assumptions and how many derived, datasheet, description, origin
    (data/profiles/NAME.json) and "sources" ({column: the source of its figure})."""
    out = []
    for p in _run.run("profiles")["profiles"]:
        figures = p.pop("figures")
        p["sources"] = {f["column"]: f["source"] for f in figures}
        out.append(p)
    return out


def load_profile(name_or_path: str) -> Profile:
    """A device profile, validated as `pqpan profiles show` validates it: a built-in name or a
    path to a profile file (docs/MODEL.md "Profile file format"). Pass it as
    estimate(profile=...). Raises DataError (with the CLI's message) or FileError."""
    return data.load_profile(name_or_path)
