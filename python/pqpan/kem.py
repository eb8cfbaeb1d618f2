"""ML-KEM (FIPS 203) on bytes, through the library's parameter-generic layer (struct
pqpan_kem): keygen, encaps, decaps. Randomness comes from os.urandom unless the caller gives
the seeds (FIPS 203 Alg. 16 / 17 inputs, for known-answer tests)."""
import os

from ._lib import DataError, PqpanError, UsageError, cstr, ffi, lib

NAMES = ("ML-KEM-512", "ML-KEM-768", "ML-KEM-1024")


def params(name="ML-KEM-768"):
    """The parameter set: {"name", "security_category", "ek_bytes", "dk_bytes", "ct_bytes",
    "ss_bytes"} (FIPS 203 Table 2, 3 via the library)."""
    k = _kem(name)
    return {"name": cstr(k.name), "security_category": k.security_category,
            "ek_bytes": k.ek_bytes, "dk_bytes": k.dk_bytes, "ct_bytes": k.ct_bytes,
            "ss_bytes": k.ss_bytes}


def _kem(name):
    k = lib.pqpan_kem_by_name(name.encode()) if isinstance(name, str) else ffi.NULL
    if k == ffi.NULL:
        raise UsageError("unknown KEM '%s' (%s)" % (name, ", ".join(NAMES)),
                         code=lib.PQPAN_ERR_NOT_FOUND)
    return k


def _bytes(what, value, length):
    if not isinstance(value, (bytes, bytearray, memoryview)):
        raise DataError("%s: want bytes, got %s" % (what, type(value).__name__),
                        code=lib.PQPAN_ERR_INVALID_ARG)
    value = bytes(value)
    if len(value) != length:
        raise DataError("%s: %d bytes, want %d" % (what, len(value), length),
                        code=lib.PQPAN_ERR_BAD_LENGTH)
    return value


def _call(rc, what):
    if rc != lib.PQPAN_OK:
        raise PqpanError(rc, "%s: %s" % (what, cstr(lib.pqpan_strerror(rc))), 3)


def keygen(kem="ML-KEM-768", d=None, z=None):
    """(ek, dk): ML-KEM.KeyGen (FIPS 203 Alg. 19); d and z (32 bytes each) make it
    deterministic (ML-KEM.KeyGen_internal, Alg. 16)."""
    k = _kem(kem)
    d = os.urandom(32) if d is None else _bytes("d", d, 32)
    z = os.urandom(32) if z is None else _bytes("z", z, 32)
    ek = ffi.new("uint8_t[]", k.ek_bytes)
    dk = ffi.new("uint8_t[]", k.dk_bytes)
    _call(k.keypair_derand(ek, dk, d, z), "keygen")
    return bytes(ek), bytes(dk)


def encaps(ek, kem="ML-KEM-768", m=None):
    """(ct, ss): ML-KEM.Encaps (Alg. 20) with the §7.2 input check on ek (PqpanError
    PQPAN_ERR_BAD_KEY); m (32 bytes) makes it deterministic (Alg. 17)."""
    k = _kem(kem)
    ek = _bytes("ek", ek, k.ek_bytes)
    m = os.urandom(32) if m is None else _bytes("m", m, 32)
    ct = ffi.new("uint8_t[]", k.ct_bytes)
    ss = ffi.new("uint8_t[]", k.ss_bytes)
    _call(k.encaps_derand(ct, ss, ek, m), "encaps")
    return bytes(ct), bytes(ss)


def decaps(dk, ct, kem="ML-KEM-768"):
    """ss: ML-KEM.Decaps (Alg. 21) with the §7.3 check on dk; a ciphertext that does not
    decrypt gives the implicit-rejection key, not an error (FIPS 203 Alg. 18)."""
    k = _kem(kem)
    dk = _bytes("dk", dk, k.dk_bytes)
    ct = _bytes("ct", ct, k.ct_bytes)
    ss = ffi.new("uint8_t[]", k.ss_bytes)
    _call(k.decaps(ss, ct, dk), "decaps")
    return bytes(ss)


def _check(kem, key, which):
    k = _kem(kem)
    if not isinstance(key, (bytes, bytearray, memoryview)):
        return False
    key = bytes(key)
    return getattr(k, which)(key, len(key)) == lib.PQPAN_OK


def check_ek(ek, kem="ML-KEM-768"):
    """True if ek passes the FIPS 203 §7.2 checks (length and modulus)."""
    return _check(kem, ek, "check_ek")


def check_dk(dk, kem="ML-KEM-768"):
    """True if dk passes the FIPS 203 §7.3 checks (length and hash)."""
    return _check(kem, dk, "check_dk")
