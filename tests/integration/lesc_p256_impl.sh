#!/bin/sh
# --p256-impl and --lesc-keypair priced against a hand computation (docs/MODEL.md "LE SC as
# stacks run it"): E = gamma_comp x cycles x I_CPU x V / f_CPU, cycles the row of
# data/cycles/p256_impl_cortex_m4.csv (p256-m: 145 ms keygen, 144 ms ECDH at 100 MHz, the
# mbedtls 3rdparty/p256-m README), I_CPU, V, f_CPU from data/profiles/nrf52840.json and
# gamma_comp as the output states it. LE SC with a reused key pair books no KeyGen; a fresh
# one books it; --hybrid p256 takes the same rows; reproduce prints both LE SC readings.
# $1 = pqpan binary, $2 = source dir.
set -u
cli=$1
src=$2
command -v python3 > /dev/null 2>&1 || { echo "python3 missing"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { out=$1; shift; "$cli" "$@" --format json > "$tmp/$out" || { echo "pqpan $* failed"; exit 1; }; }
run reused.json estimate --kem LESC-P256 --p256-impl p256-m
run fresh.json estimate --kem LESC-P256 --p256-impl P256-M --lesc-keypair fresh
run emill.json estimate --kem LESC-P256 --lesc-keypair fresh
run hybrid.json estimate --protocol pqpan --hybrid p256 --p256-impl p256-m
"$cli" reproduce > "$tmp/repro.txt" || { echo "reproduce failed"; exit 1; }
python3 - "$tmp" "$src" <<'PY' || exit 1
import json, sys
tmp, src = sys.argv[1], sys.argv[2]
prof = json.load(open(src + "/data/profiles/nrf52840.json"))
i_ua, v, f = prof["cpu_ua"]["value"], prof["supply_v"]["value"], prof["cpu_hz"]["value"]

def load(name):
    return json.load(open(tmp + "/" + name))

def side(doc, name):
    return [r for r in doc["sides"] if r["side"] == name][0]

def hand(doc, op, cycles):
    return doc["gamma_comp_" + op] * cycles / f * i_ua * v  # uA x V x s = uJ

fails = []
def near(what, got, want):
    if abs(got - want) > 1e-3 * max(1.0, abs(want)):
        fails.append("%s: %.3f, by hand %.3f" % (what, got, want))

for name, keygen in (("reused.json", 0), ("fresh.json", 14500000)):
    d = load(name)
    p = side(d, "peripheral")
    near(name + " ECDH", p["e_comp_ecdh_shared_uj"], hand(d, "ecdh_shared", 14400000))
    near(name + " KeyGen", p["e_comp_ecdh_keygen_uj"], hand(d, "ecdh_keygen", keygen))
    if p["p256_impl"].lower() != "p256-m" or p["lesc_keypair"] != ("reused" if keygen == 0 else "fresh"):
        fails.append(name + ": p256_impl/lesc_keypair fields wrong")
    if not p["e_lesc_enc_start_uj"] > 0 or p["e_lesc_key_dist_uj"] != 0:
        fails.append(name + ": named parts wrong")
e = load("emill.json")
near("emill-asm ECDH", side(e, "peripheral")["e_comp_ecdh_shared_uj"], hand(e, "ecdh_shared", 906000))
h = load("hybrid.json")
near("hybrid p256-m ECDH", side(h, "total")["e_comp_ecdh_shared_uj"], hand(h, "ecdh_shared", 2 * 14400000))
near("hybrid p256-m KeyGen", side(h, "total")["e_comp_ecdh_keygen_uj"], hand(h, "ecdh_keygen", 2 * 14500000))
text = open(tmp + "/repro.txt").read()
for want in ("== reading: study", "== reading: shipped", "P-256 emill-asm", "P-256 p256-m", "result:"):
    if want not in text:
        fails.append("reproduce lacks " + repr(want))
ratios = [l for l in text.splitlines() if l.startswith("PQKE / LE SC energy ratio")]
if len(ratios) != 3 or not ratios[1].rstrip().endswith("inside"):
    fails.append("the study reading's ratio is not inside the study's range: %r" % ratios)
print("\n".join(fails) if fails else "ok")
sys.exit(1 if fails else 0)
PY
