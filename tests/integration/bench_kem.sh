#!/bin/sh
# pqpan bench kem: the shape of its three output formats (timings vary, so no golden
# file): one row per parameter set x operation with positive integer medians, and exactly
# the selected row with --param/--op. Usage: bench_kem.sh CLI SRCDIR BUILDDIR.
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
[ $status -eq 0 ] && echo "bench kem: csv, json and table outputs well-formed"
exit $status
