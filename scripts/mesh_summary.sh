#!/bin/sh
# The mesh summary `make run` prints (issue 29): energy per node and latency of pqpan's PQKE
# across 1, 2, 4 and 8 hops of 6LoWPAN, of BLE Mesh provisioning over PB-ADV and PB-GATT,
# and of the PQKE between two mesh nodes 1, 2, 4 and 8 hops apart over the mesh network,
# per ML-KEM level, from `pqpan compare --mesh` (docs/CLI.md).
# $1 = pqpan binary.
set -eu
cli=$1
echo "Mesh (pqpan compare --mesh; all-states energy, nRF52840 profile, defaults):"
"$cli" compare --mesh --format csv | awk -F, '
NR == 1 { next }
$2 == "ble-mesh-network" {
    if ($3 == 1 || $3 == 2 || $3 == 4 || $3 == 8) {
        relay = $6 == "" ? "-" : sprintf("%.1f", $6)
        printf "  %-11s mesh network, %d hop%s: %9.1f ms; initiator %9.1f, relay %9s, responder %9.1f uJ\n",
               $1, $3, $3 == 1 ? " " : "s", $4, $5, relay, $7
    }
    next
}
$2 ~ /^ble-mesh/ {
    bearer = $2 == "ble-mesh-pb-adv" ? "PB-ADV " : "PB-GATT"
    printf "  %-11s provisioning over %s: %9.1f ms; provisioner %9.1f uJ, device %9.1f uJ\n",
           $1, bearer, $4, $5, $7
    next
}
$3 == 1 || $3 == 2 || $3 == 4 || $3 == 8 {
    fwd = $6 == "" ? "-" : sprintf("%.1f", $6)
    printf "  %-11s 802.15.4, %d hop%s %s: %9.1f ms; source %9.1f, forwarder %9s, destination %9.1f uJ\n",
           $1, $3, $3 == 1 ? " " : "s", substr($2, 8), $4, $5, fwd, $7
}'
