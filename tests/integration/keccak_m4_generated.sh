#!/bin/sh
# The Cortex-M4 Keccak-f[1600] assembly is what its generator writes now, and the
# generator's self-test passes (its round code run on a register model against a plain
# Keccak-f[1600], the FIPS 202 all-zero-state value included): src/crypto/m4/keccak_f1600.S
# must equal the output of scripts/gen_keccak_m4.py. Fix: regenerate with
# `scripts/gen_keccak_m4.py > src/crypto/m4/keccak_f1600.S`, read the diff, commit it.
# $1 = pqpan binary (unused), $2 = source dir, $3 = build dir (unused).
set -u
src=$2
command -v python3 >/dev/null 2>&1 || { echo "SKIPPED: python3 is not installed"; exit 77; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
python3 "$src/scripts/gen_keccak_m4.py" --selftest || { echo "FAIL: generator self-test"; exit 1; }
python3 "$src/scripts/gen_keccak_m4.py" >"$tmp" || { echo "FAIL: generator failed"; exit 1; }
if ! diff -u "$src/src/crypto/m4/keccak_f1600.S" "$tmp"; then
    echo "FAIL: src/crypto/m4/keccak_f1600.S differs from scripts/gen_keccak_m4.py's output"
    exit 1
fi
echo "keccak_f1600.S is the generator's output; self-test ok"
