"""pqpan from Python: the energy and latency of post-quantum key establishment over BLE and
IEEE 802.15.4, computed by the same C library as the `pqpan` command (libpqpan.so, loaded
through cffi in ABI mode). Results have the fields and units of `pqpan ... --format json`.

    >>> import pqpan
    >>> r = pqpan.estimate(kem="ML-KEM-768", ll_octets=251)
    >>> r["peripheral"]["e_total_uj"]

See docs/PYTHON.md."""
from typing import Dict, Optional, Union

from . import data, kem, model
from ._lib import (DataError, FileError, PqpanError, UsageError, LIBRARY_PATH, strerror,
                   version)
from .data import Profile
from .model import Result

__all__ = ["estimate", "profiles", "load_profile", "kem", "PqpanError", "UsageError",
           "DataError", "FileError", "Result", "Profile", "version", "strerror",
           "LIBRARY_PATH"]

__version__ = "0.1.0"

_ENERGY_KEYS = ("profile", "calibration", "crypto_impl", "currents", "tx_dbm", "ramp",
                "gamma_comm", "gamma_comp")
_env_cache: Dict[tuple, "model.Env"] = {}


def _env(options: dict) -> "model.Env":
    """The energy inputs for options (cached per distinct set: loading the cycle tables and a
    profile is the slow part of a small run)."""
    energy = {k: options.pop(k) for k in _ENERGY_KEYS if k in options}
    profile = energy.get("profile", data.DEFAULT_PROFILE)
    if isinstance(profile, Profile):
        return model.Env(**energy)
    key = tuple(sorted((k, tuple(sorted(v.items())) if isinstance(v, dict) else v)
                       for k, v in energy.items()))
    try:
        hash(key)
    except TypeError:
        return model.Env(**energy)
    if key not in _env_cache:
        if len(_env_cache) > 64:
            _env_cache.clear()
        _env_cache[key] = model.Env(**energy)
    return _env_cache[key]


def estimate(kem: str = "ML-KEM-768", *, protocol: str = "study", phy: str = "1M",
             att_mtu: int = 403, ll_octets: int = 27, max_tx_time_us: Optional[int] = None,
             transfer: str = "study", ci_ms: float = 50, event_len_ms: Optional[float] = None,
             max_pdus_per_event: int = 0, reply: str = "next-event",
             keygen_side: str = "peripheral", encrypted: bool = False, auth: str = "none",
             adv_interval_ms: Optional[float] = None, features: Union[bool, str] = True,
             conn_update: Union[bool, str] = True, idle_ci_ms: Optional[float] = None,
             discovery: Union[bool, str] = True,
             profile: Union[str, Profile] = "nrf52840", calibration: Optional[str] = None,
             crypto_impl: Optional[str] = None, currents: str = "system", tx_dbm: int = 0,
             ramp: str = "fast", gamma_comm: Optional[float] = None,
             gamma_comp: Optional[Dict[str, float]] = None) -> Result:
    """One key exchange over BLE, per side: `pqpan estimate --format json` as a dict.

    The options are the CLI's (`pqpan help estimate`), with '_' for '-': kem is ML-KEM-512,
    ML-KEM-768, ML-KEM-1024 or LESC-P256; on/off options take True/False or "on"/"off";
    gamma_comp maps an operation name (kem_keygen, ...) to its γ. Defaults are the study's
    set-up. The result has the run's assumptions as members and "sides" (peripheral,
    central, total), each side also as result["peripheral"] etc.; energies in µJ, times in
    ms. Raises UsageError (an option out of range), DataError (a bad profile or calibration
    file), FileError (a file that cannot be read)."""
    options = dict(locals())
    kem_name = options.pop("kem")
    env = _env(options)
    cfg = model.ble_config(kem=kem_name, **options)
    return model.estimate_ble(env, kem_name, cfg)


def profiles() -> list:
    """The built-in device profiles: one dict per profile with its name, description and
    origin (data/profiles/NAME.json)."""
    out = []
    for name in data.builtin_profiles():
        p = data.load_profile(name)
        out.append({"name": p.name, "description": data.cstr(p.struct.description),
                    "origin": p.origin})
    return out


def load_profile(name_or_path: str) -> Profile:
    """A device profile, validated as `pqpan profiles show` validates it: a built-in name or a
    path to a profile file (docs/MODEL.md "Profile file format"). Pass it as
    estimate(profile=...). Raises DataError (with the CLI's message) or FileError."""
    return data.load_profile(name_or_path)
