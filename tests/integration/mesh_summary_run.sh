#!/bin/sh
# The mesh summary of `make run` (scripts/mesh_summary.sh): 4 hop counts of 6LoWPAN, 2
# provisioning bearers and 4 hop counts of the mesh network for each of the 3 ML-KEM
# levels, each line's figures those of `pqpan compare --mesh`.
# $1 = pqpan binary, $2 = source dir.
set -u
cli=$1
src=$2
out=$("$src/scripts/mesh_summary.sh" "$cli") || { echo "FAIL: mesh_summary.sh exited $?"; exit 1; }
status=0
lines=$(printf '%s\n' "$out" | grep -c '^  ML-KEM-')
[ "$lines" = 30 ] || { echo "FAIL: $lines lines, want 30"; status=1; }
# ML-KEM-768 at 4 hops: latency and source energy as compare prints them, to 0.1.
want=$("$cli" compare --mesh --format csv |
       awk -F, '$1 == "ML-KEM-768" && $2 == "802154-reassemble" && $3 == 4 { printf "%.1f %.1f", $4, $5 }')
got=$(printf '%s\n' "$out" |
      awk '/ML-KEM-768 +802.15.4, 4 hops/ { sub(/;/, "", $6); print $6, $9 }' | tr -d ',')
[ "$got" = "$want" ] || { echo "FAIL: ML-KEM-768 4 hops: summary '$got', compare '$want'"; status=1; }
# ML-KEM-768 over the mesh network at 4 hops: latency and the relay's energy, to 0.1.
want=$("$cli" compare --mesh --format csv |
       awk -F, '$1 == "ML-KEM-768" && $2 == "ble-mesh-network" && $3 == 4 { printf "%.1f %.1f", $4, $6 }')
got=$(printf '%s\n' "$out" |
      awk '/ML-KEM-768 +mesh network, 4 hops/ { sub(/;/, "", $6); print $6, $11 }' | tr -d ',')
[ "$got" = "$want" ] || { echo "FAIL: ML-KEM-768 network 4 hops: summary '$got', compare '$want'"; status=1; }
exit $status
