#!/bin/sh
# tshark checks `pqpan simulate --link ble-mesh --bearer pb-gatt --pcap`: the capture is the
# connection a sniffer follows (LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR), the set-up as priced
# (--setup full, the default; docs/MODEL.md "PB-GATT set-up"): the device's two ADV_INDs,
# each with Flags, the 16-bit UUID list holding the Mesh Provisioning Service 0x1827 and its
# Service Data (Device UUID + OOB Information, 18 octets); one CONNECT_IND; the LL control
# PDUs in order (feature exchange, version exchange, the PHY update with --phy 2M, the data
# length update above 27 LL octets); the ATT set-up PDUs in order (ATT_MTU exchange above
# 23; Find By Type Value for 0x1827 and the request after it answered by an Error Response,
# Read By Type for the characteristics, whose response tells Wireshark the handles of Mesh
# Provisioning Data In 0x2ADB / Data Out 0x2ADC, and its Error Response, Find Information,
# the CCCD Write Request / Response); then the run's LL data PDUs, the last in the event
# before the priced latency's end (within one connection interval of estimate's
# latency_ms, on the capture's clock from the provisioner's scan start). No malformed
# packet, no incorrect CRC; every Proxy PDU dissects as "BT Mesh
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
    setup_checks "$name" "$pcap" "$tmp/$name.est" "$@"
    echo "ok $name: $(wc -l <"$tmp/$name.protos") packets, $proxy Proxy PDUs, decoded $types"
}

# The set-up's packets and the capture's clock (see the head); args: name pcap est-csv
# simulate's extra arguments.
setup_checks() {
    name=$1 pcap=$2 est=$3
    shift 3
    advs=$(tshark -r "$pcap" -Y 'btle.advertising_header.pdu_type == 0x0' \
        -T fields -e btcommon.eir_ad.entry.type -e btcommon.eir_ad.entry.uuid_16 \
        -e btcommon.eir_ad.entry.service_data 2>/dev/null)
    good=$(printf '%s\n' "$advs" | grep -c '^0x01,0x03,0x16	0x1827,0x1827	[0-9a-f]\{36\}$')
    [ "$good" = 2 ] || { echo "FAIL $name: ADV_INDs with 0x1827 and its Service Data: $advs"; fail=1; }
    conns=$(tshark -r "$pcap" -Y 'btle.advertising_header.pdu_type == 0x5' -T fields \
        -e frame.number 2>/dev/null | wc -l)
    [ "$conns" = 1 ] || { echo "FAIL $name: $conns CONNECT_INDs"; fail=1; }
    want_ll="0x08,0x09,0x0c,0x0c,"
    want_att="0x06,0x07,0x06,0x01,0x08,0x09,0x08,0x01,0x04,0x05,0x12,0x13,"
    case " $* " in *" --phy 2M "*) want_ll="${want_ll}0x16,0x17,0x18," ;; esac
    case " $* " in *" --ll-octets 251 "*) want_ll="${want_ll}0x14,0x15," ;; esac
    case " $* " in *" --att-mtu 23 "*) ;; *) want_att="0x02,0x03,$want_att" ;; esac
    ll=$(tshark -r "$pcap" -T fields -e btle.control_opcode 2>/dev/null | grep . | tr '\n' ,)
    [ "$ll" = "$want_ll" ] || { echo "FAIL $name: LL control PDUs $ll, want $want_ll"; fail=1; }
    att=$(tshark -r "$pcap" -Y 'btatt.opcode != 0x52 && btatt.opcode != 0x1b' -T fields \
        -e btatt.opcode 2>/dev/null | tr '\n' ,)
    [ "$att" = "$want_att" ] || { echo "FAIL $name: ATT set-up PDUs $att, want $want_att"; fail=1; }
    last=$(tshark -r "$pcap" -T fields -e frame.time_epoch 2>/dev/null | tail -1)
    awk -F, -v last="$last" -v args=" $* " '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == "latency_ms") col = i }
        $1 == "total" { lat = $col }
        END {
            ci = 50; if (match(args, / --ci-ms [0-9.]+ /)) ci = substr(args, RSTART + 9, RLENGTH - 10)
            ms = last * 1000
            exit !(ms < lat && ms > lat - ci)
        }' "$est" ||
        { echo "FAIL $name: last packet at $last s, not in the last interval of the priced latency"; fail=1; }
}

check mlkem512 --kem ML-KEM-512
check mlkem768 --kem ML-KEM-768
check mlkem1024 --kem ML-KEM-1024
check hybrid768_mtu23 --kem ML-KEM-768 --hybrid p256 --att-mtu 23
check hybrid1024_2m --kem ML-KEM-1024 --hybrid p256 --phy 2M --ll-octets 251 --att-mtu 247 --reply same-event
check p256 --kem P-256
check p256_mtu517 --kem P-256 --att-mtu 517 --ll-octets 251
check mlkem768_ci30 --kem ML-KEM-768 --ci-ms 30
exit $fail
