#!/bin/sh
# Instructions per ML-KEM operation (valgrind callgrind), for `make bench`.
# For each parameter set and operation, `pqpan bench kem --op OP --iterations N` runs one
# setup and then exactly N operations; callgrind counts only inside the operation's entry
# point (--toggle-collect), so Ir / N is the cost of one call, setup and timing excluded.
# Usage: scripts/bench_kem.sh PQPAN_BINARY [N]. Prints a table; exits 0 without valgrind.
set -eu
cli=$1
n=${2:-20}
if ! command -v valgrind >/dev/null 2>&1; then
    echo "bench_kem.sh: valgrind not installed, no instruction counts"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Reference points for ML-KEM-768 (gcc 12 -O3, callgrind Ir/op), quoted in issue 2:
# PQClean "clean" and mlkem-native portable C.
ref() {
    case "$1/$2" in
    768/keygen) echo "602000 439000" ;;
    768/encaps) echo "722000 507000" ;;
    768/decaps) echo "887000 617000" ;;
    *) echo "- -" ;;
    esac
}

printf '%-12s %-7s %10s %14s %18s\n' param op ir_per_op pqclean_ratio mlkem_native_ratio
for level in 512 768 1024; do
    for op in keygen encaps decaps; do
        case $op in
        keygen) fn=pqpan_mlkem${level}_keypair_derand ;;
        encaps) fn=pqpan_mlkem${level}_encaps_derand ;;
        decaps) fn=pqpan_mlkem${level}_decaps ;;
        esac
        valgrind --tool=callgrind --toggle-collect="$fn" --callgrind-out-file="$tmp/cg.out" \
            "$cli" bench kem --param "ML-KEM-$level" --op "$op" --iterations "$n" \
            --format csv > /dev/null 2> "$tmp/err"
        total=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$tmp/err")
        per=$((total / n))
        set -- $(ref "$level" "$op")
        if [ "$1" = - ]; then
            r1=-; r2=-
        else
            r1=$(awk -v a="$per" -v b="$1" 'BEGIN { printf "%.3f", a / b }')
            r2=$(awk -v a="$per" -v b="$2" 'BEGIN { printf "%.3f", a / b }')
        fi
        printf '%-12s %-7s %10s %14s %18s\n' "ML-KEM-$level" "$op" "$per" "$r1" "$r2"
    done
done
