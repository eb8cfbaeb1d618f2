#!/bin/sh
# pqpan bench kem: the shape of its three output formats (timings vary, so no golden
# file): one row per parameter set x operation with positive integer medians, and exactly
# the selected row with --param/--op. Then the distribution benchmarks bench sig and bench
# ecdh: one CSV row per parameter set x operation, median <= p99 in ns.
# Usage: bench_kem.sh CLI SRCDIR BUILDDIR.
set -u
cli=$1
status=0
fail() { echo "FAIL: $*"; status=1; }

csv=$("$cli" bench kem --iterations 3 --format csv) || fail "csv run exited $?"
[ "$(printf '%s\n' "$csv" | head -n 1)" = "param,op,iterations,median_cycles,median_ns" ] ||
    fail "csv header: $(printf '%s\n' "$csv" | head -n 1)"
rows=$(printf '%s\n' "$csv" | awk -F, 'NR > 1 && $3 == 3 && $5 ~ /^[0-9]+$/ && $5 > 0 &&
    ($4 == "" || ($4 ~ /^[0-9]+$/ && $4 > 0))' | wc -l)
[ "$rows" -eq 9 ] || fail "csv: $rows valid rows, want 9: $csv"
for p in 512 768 1024; do
    for op in keygen encaps decaps; do
        printf '%s\n' "$csv" | grep -q "^ML-KEM-$p,$op," || fail "csv: no row ML-KEM-$p $op"
    done
done

json=$("$cli" bench kem --iterations 2 --format json) || fail "json run exited $?"
case $json in
\[\{*\}\]) ;;
*) fail "json is not an array of objects: $json" ;;
esac
[ "$(printf '%s' "$json" | grep -o '"median_ns":[0-9][0-9]*' | wc -l)" -eq 9 ] ||
    fail "json: want 9 median_ns"

table=$("$cli" bench kem --param ML-KEM-512 --op decaps --iterations 2) || fail "table run exited $?"
[ "$(printf '%s\n' "$table" | wc -l)" -eq 2 ] || fail "table: want header + 1 row: $table"
printf '%s\n' "$table" | tail -n 1 | grep -q '^ML-KEM-512 *decaps *2 ' || fail "table row: $table"
# dist KIND ROWS NAMES...: `pqpan bench KIND` in CSV has ROWS well-formed rows and a row
# for each "param,op" in NAMES.
dist() {
    kind=$1 want=$2
    shift 2
    out=$("$cli" bench "$kind" --iterations 3 --format csv) || { fail "bench $kind exited $?"; return; }
    [ "$(printf '%s\n' "$out" | head -n 1)" = \
        "param,op,iterations,mean_cycles,median_cycles,p99_cycles,mean_ns,median_ns,p99_ns" ] ||
        fail "bench $kind csv header: $(printf '%s\n' "$out" | head -n 1)"
    rows=$(printf '%s\n' "$out" | awk -F, 'NR > 1 && $3 == 3 && $7 > 0 && $8 > 0 && $8 <= $9' | wc -l)
    [ "$rows" -eq "$want" ] || fail "bench $kind: $rows valid rows, want $want: $out"
    for name in "$@"; do
        printf '%s\n' "$out" | grep -q "^$name," || fail "bench $kind: no row $name"
    done
}
dist sig 9 ML-DSA-44,keygen ML-DSA-65,sign ML-DSA-87,verify
dist ecdh 3 P-256,keygen P-256,shared P-256,decode

[ $status -eq 0 ] && echo "bench kem, sig, ecdh: outputs well-formed"
exit $status
