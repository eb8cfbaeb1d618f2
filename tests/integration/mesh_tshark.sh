#!/bin/sh
# tshark checks `pqpan simulate --link ble-mesh --bearer pb-adv --pcap`: every advertising
# PDU dissects as "BT Mesh PB-ADV" (Wireshark's btmesh PB-ADV and provisioning
# dissectors), no malformed packet, no incorrect CRC; with two passes (-2, so the
# Generic Provisioning transactions reassemble) the provisioning PDUs decode in order:
# Invite, Capabilities, Start, Public Key (one per part), Confirmation x2, Random x2, Data,
# Complete (MshPRT v1.1 §5.4.2). The P-256 run is clean of every expert error; tshark
# knows only the 64-octet P-256 Public Key, so in the ML-KEM variants it shows the first 64
# octets (pqpan's Part octet and the key's start) as "Public Key X / Y" and the rest as
# "Unknown Payload" (Expert Error/Protocol), the only expert item such a run may have, once
# per Public Key PDU. Each run's rows equal `pqpan estimate`'s (zero loss). Usage: mesh_tshark.sh CLI SRCDIR BUILDDIR. Exit 77 only without tshark.
set -u
cli=$1
command -v tshark >/dev/null 2>&1 || { echo "tshark not installed (scripts/deps.sh)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

check() { # name public-key-pdus extra-args...
    name=$1
    pk=$2
    shift 2
    pcap=$tmp/$name.pcap
    if ! "$cli" simulate --link ble-mesh --bearer pb-adv --prov-alg cmac --format csv \
        --pcap "$pcap" "$@" >"$tmp/$name.csv"; then
        echo "FAIL $name: simulate exited non-zero"; fail=1; return
    fi
    grep -q ',yes$' "$tmp/$name.csv" || { echo "FAIL $name: keys not equal"; fail=1; }
    # estimate = simulate at zero loss: the same rows but the keys_equal column.
    "$cli" estimate --link ble-mesh --bearer pb-adv --prov-alg cmac --format csv "$@" >"$tmp/$name.est"
    sed 's/,keys_equal$//; s/,yes$//' "$tmp/$name.csv" | cmp -s - "$tmp/$name.est" ||
        { echo "FAIL $name: simulate's rows differ from estimate's"; fail=1; }
    tshark -r "$pcap" -T fields -e frame.protocols 2>/dev/null >"$tmp/$name.protos"
    n=$(wc -l <"$tmp/$name.protos")
    adv=$(grep -c ':btcommon:pbadv' "$tmp/$name.protos")
    [ "$n" -gt 0 ] && [ "$n" = "$adv" ] || { echo "FAIL $name: $adv of $n packets PB-ADV"; fail=1; }
    tshark -2 -r "$pcap" -V 2>/dev/null >"$tmp/$name.txt"
    if grep -q -i 'malformed\|CRC: .*incorrect' "$tmp/$name.txt"; then
        echo "FAIL $name: malformed or bad CRC"; fail=1
    fi
    types=$(grep -o 'Provisioning PDU Type: Provisioning [A-Za-z ]* PDU' "$tmp/$name.txt" |
        sed 's/.*Provisioning PDU Type: Provisioning //; s/ PDU$//' | tr '\n' ',')
    keys=$(for i in $(seq "$pk"); do printf 'Public Key,'; done)
    want="Invite,Capabilities,Start,${keys}${keys}Confirmation,Confirmation,Random,Random,Data,Complete,"
    [ "$types" = "$want" ] || { echo "FAIL $name: decoded $types, want $want"; fail=1; }
    unknown=$(grep -c 'Expert Info (Error/Protocol): Unknown Payload' "$tmp/$name.txt")
    experts=$(grep -c 'Expert Info' "$tmp/$name.txt")
    if [ "$name" = p256 ]; then
        [ "$experts" = 0 ] || { echo "FAIL $name: $experts expert items"; fail=1; }
    else
        [ "$unknown" = $((2 * pk)) ] && [ "$experts" = "$unknown" ] ||
            { echo "FAIL $name: $experts expert items, $unknown Unknown Payload (want $((2 * pk)))"; fail=1; }
    fi
    echo "ok $name: $n PDUs, decoded $types"
}

check mlkem512 1 --kem ML-KEM-512
check mlkem768 1 --kem ML-KEM-768
check mlkem1024 2 --kem ML-KEM-1024
check hybrid768 1 --kem ML-KEM-768 --hybrid p256
check p256 1 --kem P-256
exit $fail
