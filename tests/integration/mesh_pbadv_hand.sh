#!/bin/sh
# `pqpan estimate --link ble-mesh` on PB-ADV against a hand computation (issue 29 item 4):
# the segments and advertising events of each side at ML-KEM-768, No OOB, HMAC values.
# MshPRT v1.1 §5.3.1.1 / §5.3.1.3: a Transaction Start carries 20 octets of the
# Provisioning PDU, each Continuation 23. Provisioning PDUs (§5.4.1, docs/PROTOCOL.md §10):
# Invite 2, Capabilities 12, Start 6, Public Key = Type 1 + Part 1 + ek 1184 (provisioner) or
# ct 1088 (device), Confirmation and Random 1 + 32, Data 34, Complete 1. Each segment is
# sent --pdu-transmissions times, each Transaction Ack / Link Ack --ack-transmissions times,
# Link Close --close-transmissions times, Link Open --pdu-transmissions times (§5.3.1.4).
# $1 = pqpan binary.
set -u
cli=$1
py=/usr/bin/python3
[ -x "$py" ] || py=python3
status=0

# Segments of a transaction of $1 octets: 1 Start, then ceil((len - 20) / 23) Continuations.
segs() {
    if [ "$1" -le 20 ]; then echo 1; else echo $(( 1 + ($1 - 20 + 22) / 23 )); fi
}

check() { # pdu_tx ack_tx close_tx
    pdu=$1 ack=$2 close=$3
    prov_pdus="2 6 $((1 + 1 + 1184)) 33 33 34"
    dev_pdus="12 $((1 + 1 + 1088)) 33 33 1"
    ps=0; for l in $prov_pdus; do ps=$((ps + $(segs "$l"))); done
    ds=0; for l in $dev_pdus; do ds=$((ds + $(segs "$l"))); done
    # provisioner: Link Open, its segments, an Ack per device transaction (5), Link Close
    pe=$((pdu + ps * pdu + 5 * ack + close))
    # device: Link Ack, its segments, an Ack per provisioner transaction (6)
    de=$((ack + ds * pdu + 6 * ack))
    out=$("$cli" estimate --link ble-mesh --bearer pb-adv --kem ML-KEM-768 \
          --pdu-transmissions "$pdu" --ack-transmissions "$ack" --close-transmissions "$close" \
          --format json) || { echo "FAIL: estimate exited $?"; status=1; return; }
    got=$(printf '%s' "$out" | "$py" -c '
import json, sys
d = json.load(sys.stdin)
s = {r["side"]: r for r in d["sides"]}
print(s["provisioner"]["segments"], s["device"]["segments"],
      s["provisioner"]["adv_events"], s["device"]["adv_events"], d["transactions"])')
    want="$ps $ds $pe $de 11"
    if [ "$got" != "$want" ]; then
        echo "FAIL: transmissions $pdu/$ack/$close: got '$got', by hand '$want'"
        status=1
    fi
}

# The ek's Public Key PDU alone: 1186 octets = 20 + 50 x 23 + 16: 52 segments.
[ "$(segs 1186)" = 52 ] || { echo "FAIL: segs 1186 = $(segs 1186), not 52"; status=1; }
check 1 3 3
# The Public Key PDU alone: against P-256's (1 + 64 = 65 octets: 3 segments) the provisioner
# sends 52 - 3 = 49 more segments, each one advertising event at --pdu-transmissions 1.
events() {
    "$cli" estimate --link ble-mesh --kem "$1" --format csv |
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i }
                 $1 == "provisioner" { print $col["segments"], $col["adv_events"] }'
}
set -- $(events ML-KEM-768) $(events P-256)
if [ "$(($1 - $3)) $(($2 - $4))" != "$(( $(segs 1186) - $(segs 65) )) 49" ]; then
    echo "FAIL: ML-KEM-768 - P-256 provisioner segments, events: $(($1 - $3)) $(($2 - $4)), by hand 49 49"
    status=1
fi
check 2 1 1
check 3 2 4
exit $status
