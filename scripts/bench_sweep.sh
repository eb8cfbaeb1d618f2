#!/bin/sh
# `pqpan sweep` throughput for `make bench`: rows per second of CPU time on one core
# (--jobs 1, CSV to /dev/null) over issue 12's example grid without the energy options
# (3 ML-KEM levels x 3 PHYs x LL 27..251:8 x 4 ATT_MTUs x CI 7.5..97.5:7.5 ms x 6
# transfers x 2 keygen sides = 162,864 rows). The CPU time is the shell's `times` for
# its children (user + system), so it holds under a loaded machine.
# Usage: scripts/bench_sweep.sh PQPAN_BINARY
set -eu
cli=$1
rows=162864
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$cli" sweep --jobs 1 --kem ML-KEM-512,ML-KEM-768,ML-KEM-1024 --phy 1M,2M,S8 \
    --ll-octets 27..251:8 --att-mtu 23,247,403,517 --ci-ms 7.5..97.5:7.5 --transfer all \
    --keygen-side peripheral,central > /dev/null
# `times` prints the shell's user/system time, then its children's: "0m1.234s 0m0.056s"
# (into a file: in a pipeline it would run in a subshell, which has no children).
times > "$tmp"
sed -n 2p "$tmp" | awk -v rows="$rows" '{
    s = 0
    for (i = 1; i <= 2; i++) { split($i, p, "m"); s += p[1] * 60 + p[2] }
    printf "sweep: %d rows (pqpan sweep --jobs 1, CSV) in %.2f s of CPU = %.0f rows/s/core\n", rows, s, rows / s
}'
