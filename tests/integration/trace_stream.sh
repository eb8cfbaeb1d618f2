#!/bin/sh
# pqpan trace on a generated 5 M-row PPK2 capture (~140 MB, 50 s at 100 kS/s): the file is
# streamed (peak RSS stays under 16 MB), the energies match hand-computed values, and a
# bad row is reported with its line number. Args: CLI SRCDIR BUILDDIR.
set -eu
cli=$1
src=$2
[ -x /usr/bin/time ] || { echo "skip: /usr/bin/time (package 'time') not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rows=5000000
max_rss_kb=16384

# Period of 1000 samples (10 ms): 100 samples at 5000 uA with D0 high, 900 at 3 uA.
awk -v n=$rows 'BEGIN {
    print "Timestamp(ms),Current(uA),D0-D7"
    for (i = 0; i < n; i++) {
        hi = (i % 1000) < 100
        printf "%d.%02d,%s,%s\n", int(i / 100), i % 100, hi ? "5000.000" : "3.000", hi ? "10000000" : "00000000"
    }
}' > "$tmp/big.csv"
echo "generated $(wc -c < "$tmp/big.csv") bytes"

start=$(date +%s%N)
/usr/bin/time -f '%M' -o "$tmp/rss" "$cli" trace "$tmp/big.csv" --phases d0=crypto --format csv > "$tmp/out.csv"
end=$(date +%s%N)
rss=$(tail -n 1 "$tmp/rss")
ms=$(( (end - start) / 1000000 ))
echo "peak RSS ${rss} kB, ${ms} ms, $(( rows * 1000 / (ms + 1) )) rows/s"
cat "$tmp/out.csv"
status=0
if [ "$rss" -gt "$max_rss_kb" ]; then
    echo "FAIL: peak RSS ${rss} kB > ${max_rss_kb} kB"; status=1
fi
# Hand-computed (trapezoid, 3 V): per period 99*5000 + 2501.5 + 899*3 + 2501.5 = 502700 uA
# times 0.01 ms; 5000 periods less the missing final interval (2501.5 * 0.01):
# 25134974.985 uA*ms -> 75404.925 uJ over 49999.990 ms. crypto: (99*5000 + 2501.5) * 0.01
# * 5000 = 24875075 uA*ms -> 74625.225 uJ over 5000 ms in 5000 segments.
grep -qx 'total,5000000,1,49999.990,75404.925,502.700,3.000,3.000,5000.000,5000.000,5000000,0,3.000,0.000,none' "$tmp/out.csv" \
    || { echo "FAIL: total row"; status=1; }
grep -q '^crypto,500000,5000,5000.000,74625.225,' "$tmp/out.csv" || { echo "FAIL: crypto row"; status=1; }

# A bad row stops the run with exit 3 and names its line.
set +e
"$cli" trace "$src/tests/fixtures/ppk2/bad_rows.csv" > /dev/null 2> "$tmp/err"
rc=$?
set -e
[ "$rc" -eq 3 ] || { echo "FAIL: bad input exit $rc, want 3"; status=1; }
grep -q 'bad_rows.csv:4: non-numeric field' "$tmp/err" || { echo "FAIL: stderr does not name line 4:"; cat "$tmp/err"; status=1; }
exit $status
