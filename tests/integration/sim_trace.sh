#!/bin/sh
# `pqpan simulate --trace` writes a PPK2 CSV that `pqpan trace` reads back: the D0
# (crypto) time of the trace equals the simulated crypto CPU time of that side within
# two 10-us samples per segment, for each side.
# Usage: sim_trace.sh CLI SRCDIR BUILDDIR.
set -u
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for side in peripheral central; do
    "$cli" simulate --trace "$tmp/t.csv" --trace-side "$side" --format json > "$tmp/s.json" ||
        { echo "$side: simulate failed"; fail=1; continue; }
    want=$(awk -v side="\"$side\"" '/"side":/ { cur = $2 } /"t_crypto_ms":/ && cur == side "," { gsub(",", "", $2); print $2 }' "$tmp/s.json")
    got=$("$cli" trace "$tmp/t.csv" --phases d0=crypto,d1=radio --format csv |
          awk -F, '$1 == "crypto" { print $4, $3 }')
    set -- $got
    ok=$(awk -v g="$1" -v segs="$2" -v w="$want" 'BEGIN { d = g - w; if (d < 0) d = -d; print (w > 0 && d <= 0.02 * segs) ? 1 : 0 }')
    if [ "$ok" = 1 ]; then
        echo "$side: crypto $1 ms in the trace, $want ms simulated"
    else
        echo "$side: crypto '$1' ms in the trace ($2 segments), want $want ms"; fail=1
    fi
done
exit $fail
