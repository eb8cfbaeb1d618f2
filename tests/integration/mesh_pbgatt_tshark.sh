#!/bin/sh
# tshark checks `pqpan simulate --link ble-mesh --bearer pb-gatt --pcap`: the capture is the
# connection a sniffer follows (LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR): the CONNECT_IND, the
# ATT_MTU exchange, Find Information (which tells Wireshark the handles of Mesh
# Provisioning Data In 0x2ADB / Data Out 0x2ADC) and the CCCD write, then the run's LL
# data PDUs. No malformed packet, no incorrect CRC; every Proxy PDU dissects as "BT Mesh
# proxy" (btmproxy) and, with two passes (-2: L2CAP and Proxy SAR reassembled), the
# Provisioning PDUs decode in order: Invite, Capabilities, Start, Public Key x2,
# Confirmation x2, Random x2, Data, Complete (MshPRT v1.1 §5.4.2). The P-256 run has no
# expert item at all; tshark knows only the 64-octet P-256 Public Key, so in the ML-KEM
# variants each Public Key PDU has one "Unknown Payload" (Expert Error/Protocol), the only
# expert item such a run may have. Each run's rows equal `pqpan estimate`'s (zero loss) and
# its keys are equal. Usage: mesh_pbgatt_tshark.sh CLI SRCDIR BUILDDIR. Exit 77 only without
# tshark.
set -u
cli=$1
command -v tshark >/dev/null 2>&1 || { echo "tshark not installed (scripts/deps.sh)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

check() { # name extra-args...
    name=$1
    shift
    pcap=$tmp/$name.pcap
    if ! "$cli" simulate --link ble-mesh --bearer pb-gatt --prov-alg cmac --format csv \
        --pcap "$pcap" "$@" >"$tmp/$name.csv"; then
        echo "FAIL $name: simulate exited non-zero"; fail=1; return
    fi
    grep -q ',yes$' "$tmp/$name.csv" || { echo "FAIL $name: keys not equal"; fail=1; }
    "$cli" estimate --link ble-mesh --bearer pb-gatt --prov-alg cmac --format csv "$@" >"$tmp/$name.est"
    sed 's/,keys_equal$//; s/,yes$//' "$tmp/$name.csv" | cmp -s - "$tmp/$name.est" ||
        { echo "FAIL $name: simulate's rows differ from estimate's"; fail=1; }
    tshark -r "$pcap" -T fields -e frame.protocols 2>/dev/null >"$tmp/$name.protos"
    writes=$(tshark -r "$pcap" -Y 'btatt.opcode == 0x52 || btatt.opcode == 0x1b' \
        -T fields -e frame.number 2>/dev/null | wc -l)
    proxy=$(grep -c ':btatt:btmproxy' "$tmp/$name.protos")
    [ "$writes" -gt 0 ] && [ "$writes" = "$proxy" ] ||
        { echo "FAIL $name: $proxy of $writes Write Commands / Notifications dissect as Proxy PDUs"; fail=1; }
    tshark -2 -r "$pcap" -V 2>/dev/null >"$tmp/$name.txt"
    if grep -q -i 'malformed\|CRC: .*incorrect' "$tmp/$name.txt"; then
        echo "FAIL $name: malformed or bad CRC"; fail=1
    fi
    types=$(grep -o 'Provisioning PDU Type: Provisioning [A-Za-z ]* PDU' "$tmp/$name.txt" |
        sed 's/.*Provisioning PDU Type: Provisioning //; s/ PDU$//' | tr '\n' ',')
    want="Invite,Capabilities,Start,Public Key,Public Key,Confirmation,Confirmation,Random,Random,Data,Complete,"
    [ "$types" = "$want" ] || { echo "FAIL $name: decoded $types, want $want"; fail=1; }
    unknown=$(grep -c 'Expert Info (Error/Protocol): Unknown Payload' "$tmp/$name.txt")
    experts=$(grep -c 'Expert Info' "$tmp/$name.txt")
    case $name in
    p256*) [ "$experts" = 0 ] || { echo "FAIL $name: $experts expert items"; fail=1; } ;;
    *) [ "$unknown" = 2 ] && [ "$experts" = 2 ] ||
        { echo "FAIL $name: $experts expert items, $unknown Unknown Payload (want 2)"; fail=1; } ;;
    esac
    echo "ok $name: $(wc -l <"$tmp/$name.protos") packets, $proxy Proxy PDUs, decoded $types"
}

check mlkem512 --kem ML-KEM-512
check mlkem768 --kem ML-KEM-768
check mlkem1024 --kem ML-KEM-1024
check hybrid768_mtu23 --kem ML-KEM-768 --hybrid p256 --att-mtu 23
check hybrid1024_2m --kem ML-KEM-1024 --hybrid p256 --phy 2M --ll-octets 251 --att-mtu 247 --reply same-event
check p256 --kem P-256
check p256_mtu517 --kem P-256 --att-mtu 517 --ll-octets 251
exit $fail
