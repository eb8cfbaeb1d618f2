#!/bin/sh
# tshark checks `pqpan simulate --link ble-mesh --bearer pb-adv --pcap`: every advertising
# PDU dissects as "BT Mesh PB-ADV" (Wireshark's btmesh PB-ADV and provisioning
# dissectors), no malformed packet, no incorrect CRC; with two passes (-2, so the
# Generic Provisioning transactions reassemble) the provisioning PDUs decode in order:
# Invite, Capabilities, Start, Public Key (one per part), Confirmation x2, Random x2, Data,
# Complete (MshPRT v1.1 §5.4.2). The P-256 run with CMAC is clean of every expert error;
# tshark knows only the 64-octet P-256 Public Key, so in the ML-KEM variants it shows the
# first 64 octets (pqpan's Part octet and the key's start) as "Public Key X / Y" and the
# rest as "Unknown Payload" (Expert Error/Protocol), once per Public Key PDU. Wireshark's
# dissector (4.0) knows only MshPRT v1.0's algorithm: with --prov-alg hmac the
# Capabilities' Algorithms bit 1 is "RFU value not equal to 0" and the Start's Algorithm 1
# "Value in RFU range" (two warnings), and each 32-octet Confirmation and Random shows 16
# octets and an "Unknown Payload" (four more). At zero loss each run's rows equal
# `pqpan estimate`'s. A lossy run (--per 0.1) has segments resent after the timer, more
# packets than the lossless run, and still dissects clean and decodes each PDU once.
# Usage: mesh_tshark.sh CLI SRCDIR BUILDDIR. Exit 77 only without tshark.
set -u
cli=$1
command -v tshark >/dev/null 2>&1 || { echo "tshark not installed (scripts/deps.sh)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

check() { # name public-key-pdus alg per extra-args...
    name=$1
    pk=$2
    alg=$3
    per=$4
    shift 4
    pcap=$tmp/$name.pcap
    if ! "$cli" simulate --link ble-mesh --bearer pb-adv --prov-alg "$alg" --per "$per" \
        --format csv --pcap "$pcap" "$@" >"$tmp/$name.csv"; then
        echo "FAIL $name: simulate exited non-zero"; fail=1; return
    fi
    if [ "$per" = 0 ]; then
        grep -q ',yes$' "$tmp/$name.csv" || { echo "FAIL $name: keys not equal"; fail=1; }
        # estimate = simulate at zero loss: the same rows but the keys_equal column.
        "$cli" estimate --link ble-mesh --bearer pb-adv --prov-alg "$alg" --format csv "$@" \
            >"$tmp/$name.est"
        sed 's/,keys_equal$//; s/,yes$//' "$tmp/$name.csv" | cmp -s - "$tmp/$name.est" ||
            { echo "FAIL $name: simulate's rows differ from estimate's"; fail=1; }
    else
        # keys equal, segments resent (the resent_segments column of the total row > 0)
        col=$(head -1 "$tmp/$name.csv" | tr ',' '\n' | grep -n '^resent_segments$' | cut -d: -f1)
        keys=$(head -1 "$tmp/$name.csv" | tr ',' '\n' | grep -n '^keys_equal$' | cut -d: -f1)
        resent=$(tail -1 "$tmp/$name.csv" | cut -d, -f"$col")
        [ "$(tail -1 "$tmp/$name.csv" | cut -d, -f"$keys")" = yes ] ||
            { echo "FAIL $name: keys not equal"; fail=1; }
        awk -v r="$resent" 'BEGIN { exit !(r > 0) }' ||
            { echo "FAIL $name: no segment resent at --per $per"; fail=1; }
    fi
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
    rfu=$(grep -c 'Expert Info (Warning/Protocol): \(RFU value not equal to 0\|Value in RFU range\)' "$tmp/$name.txt")
    experts=$(grep -c 'Expert Info' "$tmp/$name.txt")
    want_unknown=$((2 * pk)); want_rfu=0
    case $name in p256*) want_unknown=0 ;; esac
    if [ "$alg" = hmac ]; then want_unknown=$((want_unknown + 4)); want_rfu=2; fi
    [ "$unknown" = "$want_unknown" ] && [ "$rfu" = "$want_rfu" ] &&
        [ "$experts" = $((unknown + rfu)) ] ||
        { echo "FAIL $name: $experts expert items, $unknown Unknown Payload (want $want_unknown), $rfu RFU (want $want_rfu)"; fail=1; }
    echo "ok $name: $n PDUs, decoded $types"
}

check mlkem512 1 cmac 0 --kem ML-KEM-512
check mlkem768 1 cmac 0 --kem ML-KEM-768
check mlkem1024 2 cmac 0 --kem ML-KEM-1024
check hybrid768 1 cmac 0 --kem ML-KEM-768 --hybrid p256
check p256 1 cmac 0 --kem P-256
check mlkem768_hmac 1 hmac 0 --kem ML-KEM-768
check p256_hmac 1 hmac 0 --kem P-256
check mlkem768_lossy 1 cmac 0.1 --kem ML-KEM-768
# the lossy capture holds the resent segments: more PDUs than the lossless run's
[ "$(wc -l <"$tmp/mlkem768_lossy.protos")" -gt "$(wc -l <"$tmp/mlkem768.protos")" ] ||
    { echo "FAIL mlkem768_lossy: no more packets than without loss"; fail=1; }
exit $fail
