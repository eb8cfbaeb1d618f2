#!/bin/sh
# `pqpan simulate --trace` writes a PPK2 CSV that `pqpan trace` reads back: D0 (crypto) is
# high from each operation's start to its end, through the connection events that suspend
# it (those rows have D1 high as well), so the D0 time of the trace less its rows with D1
# high too equals the simulated crypto CPU time of that side, within two 10-us samples per
# D0 segment and per suspension; for each side, at the default 50 ms interval and at
# 7.5 ms, where every operation is suspended (the test asks for suspensions there).
# Usage: sim_trace.sh CLI SRCDIR BUILDDIR.
set -u
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for ci in 50 7.5; do
    for side in peripheral central; do
        "$cli" simulate --ci-ms $ci --trace "$tmp/t.csv" --trace-side "$side" --format json > "$tmp/s.json" ||
            { echo "$side: simulate failed"; fail=1; continue; }
        want=$(awk -v side="\"$side\"" '/"side":/ { cur = $2 } /"t_crypto_ms":/ && cur == side "," { gsub(",", "", $2); print $2 }' "$tmp/s.json")
        got=$("$cli" trace "$tmp/t.csv" --phases d0=crypto,d1=radio --format csv |
              awk -F, '$1 == "crypto" { print $4, $3 }')
        # rows with D0 and D1 high (a suspension, or an event's first or last sample), and
        # how many stretches of them
        both=$(awk -F, 'NR > 1 { b = substr($3, 1, 2) == "11"; if (b) { t += 0.01; if (!prev) n++ } prev = b }
                        END { printf "%.2f %d\n", t, n }' "$tmp/t.csv")
        set -- $got $both
        ok=$(awk -v g="$1" -v segs="$2" -v o="$3" -v susp="$4" -v w="$want" -v ci=$ci 'BEGIN {
                 d = g - o - w; if (d < 0) d = -d
                 print (w > 0 && d <= 0.02 * (segs + susp) && (ci > 10 || susp > 0)) ? 1 : 0 }')
        if [ "$ok" = 1 ]; then
            echo "CI $ci ms, $side: crypto $1 ms in the trace, $3 ms of it in $4 stretches with D1 high; $want ms simulated"
        else
            echo "CI $ci ms, $side: crypto '$1' ms in the trace ($2 segments), $3 ms with D1 high ($4 stretches), want $want ms"
            fail=1
        fi
    done
done
exit $fail
