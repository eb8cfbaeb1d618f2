#!/bin/sh
# tshark checks the simulator's captures: `pqpan simulate --pcap` over several transfer
# methods, PHYs and transports must give no malformed packet, no expert warning or
# error, no incorrect CRC, and reassembled ATT values / L2CAP SDUs whose sizes add up to
# the messages (in every --auth mode): PQKE v2 INIT (6-octet header, 2-octet offer,
# 32-octet nonce, ek), RESP (header, 2-octet accepted sets, ct, nonce, 32-octet tag) and
# FIN (header, tag) of docs/PROTOCOL.md §2, with the ek and ct sizes of FIPS 203 Table 3.
# The set-up before them must dissect as what it is (docs/MODEL.md "Set-up"): ADV_INDs
# carrying the service's 128-bit UUID, then the CONNECT_IND; the LL control PDUs of the
# feature, version and connection parameters exchanges (and of the PHY and data length
# updates when asked for) in order; the GATT discovery's ATT PDUs in order, its requests
# from the GATT client, and a CCCD write enabling what the server sends (notifications or
# indications). Every message goes by its sender's GATT role (Core v5.4 Vol 3 Part G §2.2):
# from the client only writes (Write Request 0x12, Write Command 0x52, Prepare Write
# Request 0x16 and Execute Write Request 0x18, §4.9), from the server only notifications
# 0x1b (§4.10) or indications 0x1d (§4.11), each side with the method --transfer gives it.
# Usage: ble_tshark.sh CLI SRCDIR BUILDDIR. Exit 77 (skip) only without tshark.
set -u
cli=$1
command -v tshark >/dev/null 2>&1 || { echo "tshark not installed (scripts/deps.sh)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# LE Secure Connections (`--kem LESC-P256`): the SMP PDUs of phase 2, Just Works, and the
# LL encryption start, per direction and in order, dissected cleanly; the public keys on
# the air (least significant octet first, Vol 3 Part H §3.5.6) are points on P-256 once
# turned around (`pqpan ecdh` validates them); the two LL_START_ENC_RSP recorded decrypted.
check_lesc() { # name extra-args...
    name=$1
    shift
    pcap=$tmp/$name.pcap
    if ! "$cli" simulate --kem LESC-P256 "$@" --pcap "$pcap" > "$tmp/$name.out" 2> "$tmp/$name.err"; then
        echo "$name: simulate failed"; cat "$tmp/$name.err"; fail=1; return
    fi
    tshark -r "$pcap" -T fields -E separator=/t -E occurrence=l \
        -e frame.number -e _ws.malformed -e btle.crc.incorrect -e btle_rf.flags.crc_valid \
        -e btle_rf.pdu_type -e btsmp.opcode -e btle.control_opcode -e btle_rf.flags.decrypted \
        -e btsmp.public_key_x -e btsmp.public_key_y -e btsmp.sc_flag -e btsmp.io_capability \
        2>/dev/null > "$tmp/fields"
    bad=$(awk -F'\t' '$2 != "" || $3 != "" || $4 == "0" || $4 == "False"' "$tmp/fields" | wc -l)
    [ "$bad" -eq 0 ] || { echo "$name: $bad malformed or bad-CRC packets"; fail=1; }
    if tshark -r "$pcap" -q -z expert,note 2>/dev/null | grep -qE '^(Errors|Warns|Notes) \('; then
        echo "$name: expert notes:"; tshark -r "$pcap" -q -z expert,note 2>/dev/null; fail=1
    fi
    # Vol 3 Part H Figure 2.3 with Vol 6 Part B §5.1.3.1, from the first SMP PDU (the set-up
    # procedures before it are checked above): c = central (PDU type 2), p = peripheral;
    # SMP codes 01 02 0c 0c 03 04 04 0d 0d, LL control 03 04 05 06 06 (e: decrypted).
    got=$(awk -F'\t' '$6 != "" { smp = 1 } smp && ($6 != "" || $7 != "") && ($5 == 2 || $5 == 3) {
              printf "%s%s%s", sep, ($5 == 2 ? "c" : "p"), ($6 != "" ? $6 : "ll" $7 ($8 == 1 ? "e" : ""))
              sep = " " }' "$tmp/fields")
    want="c0x01 p0x02 c0x0c p0x0c p0x03 c0x04 p0x04 c0x0d p0x0d cll0x03 pll0x04 pll0x05 cll0x06e pll0x06e"
    [ "$got" = "$want" ] || { echo "$name: PDUs '$got', want '$want'"; fail=1; return; }
    [ "$(awk -F'\t' '$11 == "1" && $12 == "0x03"' "$tmp/fields" | wc -l)" -eq 2 ] ||
        { echo "$name: the pairing PDUs do not both ask for SC, NoInputNoOutput"; fail=1; }
    keys=0
    for xy in $(awk -F'\t' '$9 != "" { print $9 ":" $10 }' "$tmp/fields"); do
        x=$(echo "${xy%:*}" | sed 's/../& /g' | awk '{ for (i = NF; i > 0; i--) printf "%s", $i }')
        y=$(echo "${xy#*:}" | sed 's/../& /g' | awk '{ for (i = NF; i > 0; i--) printf "%s", $i }')
        if "$cli" ecdh shared --sk "$(printf '%064d' 1)" --pk "04$x$y" >/dev/null 2>&1; then
            keys=$((keys + 1))
        else
            echo "$name: public key $x, $y is not a P-256 point"; fail=1
        fi
    done
    [ "$keys" -eq 2 ] || { echo "$name: $keys valid public keys, want 2"; fail=1; }
    echo "$name: ok ($got)"
}

# FIPS 203 Table 3: encapsulation key and ciphertext octets.
sizes() {
    case $1 in
    ML-KEM-512) echo "800 768" ;;
    ML-KEM-768) echo "1184 1088" ;;
    ML-KEM-1024) echo "1568 1568" ;;
    esac
}

# The set-up in the capture: advertising PDUs, all ADV_IND (PDU type 0) with the service's
# UUID, then a CONNECT_IND (0x05) (the CONNECT_IND first with --adv-interval-ms 0); LL
# control opcodes LL_FEATURE_REQ 08, LL_FEATURE_RSP 09, LL_VERSION_IND 0c twice,
# LL_CONNECTION_PARAM_REQ 0f / RSP 10, LL_CONNECTION_UPDATE_IND 00, then LL_PHY_REQ 16 /
# RSP 17 / LL_PHY_UPDATE_IND 18 off LE 1M and LL_LENGTH_REQ 14 / RSP 15 with DLE; over
# GATT, before the first message the discovery's ATT opcodes: Find By Type Value 06 / 07,
# again 06 answered by Error 01, Read By Type 08 / 09, again 08 / 01, Find Information
# 04 / 05, Write Request 12 / Response 13 to the CCCD enabling the server's method; the
# requests from the client (PDU type 2: from the central, 3: from the peripheral).
setup_checks() { # name transfer|coc extra-args...
    name=$1 how=$2
    shift 2
    adv=$(awk -F'\t' '$5 != "" { printf "%s%s", sep, $5; sep = " " }' "$tmp/fields")
    case " $* " in
    *" --adv-interval-ms 0 "*) want_adv="0x05" ;;
    *) want_adv=$(awk -F'\t' '$5 == "0x00" { n++ } END { for (i = 0; i < n; i++) printf "0x00 "; print "0x05" }' "$tmp/fields") ;;
    esac
    [ "$adv" = "$want_adv" ] || { echo "$name: advertising PDUs '$adv', want '$want_adv'"; fail=1; }
    uuids=$(awk -F'\t' '$5 == "0x00" && $13 != "4253459de84a4ac4af14a78d75a86b61" { n++ } END { print n + 0 }' "$tmp/fields")
    [ "$uuids" = 0 ] || { echo "$name: $uuids ADV_INDs without the service's UUID"; fail=1; }
    want_ll="0x08 0x09 0x0c 0x0c 0x0f 0x10 0x00"
    case " $* " in *" --phy 2M "*|*" --phy S2 "*|*" --phy S8 "*) want_ll="$want_ll 0x16 0x17 0x18" ;; esac
    case " $* " in *" --ll-octets "*) want_ll="$want_ll 0x14 0x15" ;; esac
    ll=$(awk -F'\t' '$12 != "" { printf "%s%s", sep, $12; sep = " " }' "$tmp/fields")
    [ "$ll" = "$want_ll" ] || { echo "$name: LL control PDUs '$ll', want '$want_ll'"; fail=1; }
    [ "$how" = coc ] && return
    disc=$(awk -F'\t' '$7 != "" && $7 != "0x02" && $7 != "0x03" && n < 12 { printf "%s%s", sep, $7; sep = " "; n++ }' "$tmp/fields")
    want_disc="0x06 0x07 0x06 0x01 0x08 0x09 0x08 0x01 0x04 0x05 0x12 0x13"
    [ "$disc" = "$want_disc" ] || { echo "$name: discovery ATT PDUs '$disc', want '$want_disc'"; fail=1; }
    reqs=$(awk -F'\t' '($7 == "0x06" || $7 == "0x08" || $7 == "0x04" || ($7 == "0x12" && $11 == "0x0013")) &&
                        $6 != client_dir { n++ } END { print n + 0 }' client_dir="$(client_dir)" "$tmp/fields")
    [ "$reqs" = 0 ] || { echo "$name: $reqs discovery requests not from the GATT client"; fail=1; }
    case $how in notify/*) bit=15 what=notifications ;; *) bit=14 what=indications ;; esac
    cccd=$(awk -F'\t' -v b="$bit" '$7 == "0x12" && $11 == "0x0013" { print $b }' "$tmp/fields")
    [ "$cccd" = "1" ] || [ "$cccd" = "True" ] || { echo "$name: the CCCD write does not enable $what ('$cccd')"; fail=1; }
}

# The btle_rf.pdu_type of the GATT client's and the server's packets: 2 from the central, 3
# from the peripheral (the server unless --gatt-server central).
client_dir() { [ "$gatt_server" = central ] && echo 3 || echo 2; }
server_dir() { [ "$gatt_server" = central ] && echo 2 || echo 3; }

# The ATT opcodes of each side's messages (the CCCD write of the discovery is none): the
# server's only notifications or indications, the client's only writes, each side's those
# of its method in --transfer SERVER/CLIENT (study: the server indicates ek, the client
# writes ct with Write Requests).
opcode_sides() { # name transfer
    name=$1 how=$2
    case $how in
    study) server=indicate client=write-req ;;
    */*) server=${how%/*} client=${how#*/} ;;
    *) return ;;
    esac
    case $server in notify) want_s=0x1b ;; *) want_s=0x1d ;; esac
    case $client in write-req) want_c=0x12 ;; write-cmd) want_c=0x52 ;; *) want_c="0x16 0x18" ;; esac
    for side in s c; do
        dir=$(if [ $side = s ]; then server_dir; else client_dir; fi)
        got_o=$(awk -F'\t' -v d="$dir" '($7 == "0x1b" || $7 == "0x1d" || $7 == "0x12" || $7 == "0x52" ||
                                        $7 == "0x16" || $7 == "0x18") && $11 != "0x0013" && $6 == d { seen[$7] = 1 }
                                      END { for (o in seen) print o }' "$tmp/fields" | sort | tr '\n' ' ')
        want_o=$(if [ $side = s ]; then echo "$want_s"; else echo "$want_c"; fi)
        [ "$got_o" = "$want_o " ] || { echo "$name: the GATT $( [ $side = s ] && echo server || echo client)'s message opcodes '$got_o', want '$want_o'"; fail=1; }
    done
}

# The PQKE mode and suite of the next checks (--auth, --hybrid); sizes per mode from
# docs/PROTOCOL.md §2: the sig modes add the ML-DSA set octet to each message and a
# signature (the set of the level's category) to RESP (sig-mutual: also to FIN); the P-256
# hybrid a 64-octet public key to INIT and RESP.
auth=none
hybrid=none
sig_octets() { # ML-DSA signature of the default set of an ML-KEM level (FIPS 204 Table 2)
    case $1 in ML-KEM-512) echo 2420 ;; ML-KEM-768) echo 3309 ;; *) echo 4627 ;; esac
}

check() { # name kem transfer|coc extra-args...
    name=$1 kem=$2 how=$3
    shift 3
    keygen=peripheral gatt_server=peripheral
    case " $* " in *" --keygen-side central "*) keygen=central ;; esac
    case " $* " in *" --gatt-server central "*) gatt_server=central ;; esac
    pcap=$tmp/$name.pcap
    if ! "$cli" simulate --kem "$kem" --auth "$auth" --hybrid "$hybrid" "$@" --pcap "$pcap" > "$tmp/$name.out" 2> "$tmp/$name.err"; then
        echo "$name: simulate failed"; cat "$tmp/$name.err"; fail=1; return
    fi
    # One dissection pass for the per-packet fields, one for the expert summary.
    tshark -r "$pcap" -T fields -E separator=/t -E occurrence=l \
        -e frame.number -e _ws.malformed -e btle.crc.incorrect -e btle_rf.flags.crc_valid \
        -e btle.advertising_header.pdu_type -e btle_rf.pdu_type -e btatt.opcode \
        -e btl2cap.length -e btl2cap.le_sdu_length -e btl2cap.le_sdu.reassembled.length \
        -e btatt.handle -e btle.control_opcode -e btcommon.eir_ad.entry.custom_uuid_128 \
        -e btatt.characteristic_configuration_client.indication \
        -e btatt.characteristic_configuration_client.notification \
        2>/dev/null > "$tmp/fields"
    bad=$(awk -F'\t' '$2 != "" || $3 != "" || $4 == "0" || $4 == "False"' "$tmp/fields" | wc -l)
    [ "$bad" -eq 0 ] || { echo "$name: $bad malformed or bad-CRC packets"; fail=1; }
    if tshark -r "$pcap" -q -z expert,warn 2>/dev/null | grep -qE '^(Errors|Warns) \('; then
        echo "$name: expert warnings:"; tshark -r "$pcap" -q -z expert,warn 2>/dev/null; fail=1
    fi
    setup_checks "$name" "$how" "$@"
    opcode_sides "$name" "$how"
    set -- $(sizes "$kem")
    init=$(( 6 + 2 + 32 + $1 )) resp=$(( 6 + 2 + $2 + 32 + 32 )) fin=$(( 6 + 32 )) reveal=0
    case $auth in
    kem-auth) init=$(( init + $2 )) ;;
    kem-auth-mutual) init=$(( init + $2 )) resp=$(( resp + $2 )) ;;
    numeric) resp=$(( resp + 32 )) fin=$(( fin + 32 )) reveal=$(( 6 + 32 )) ;;
    sig) init=$(( init + 1 )) resp=$(( resp + 1 + $(sig_octets "$kem") )) fin=$(( fin + 1 )) ;;
    sig-mutual) s=$(sig_octets "$kem"); init=$(( init + 1 )) resp=$(( resp + 1 + s )) fin=$(( fin + 1 + s )) ;;
    esac
    if [ "$hybrid" = p256 ]; then init=$(( init + 64 )) resp=$(( resp + 64 )); fi
    # keygen (initiator) on the peripheral: INIT and FIN from it, RESP (and numeric's
    # REVEAL) from the central (the other way round with --keygen-side central)
    want="$(( init + fin )) $(( resp + reveal ))"
    [ "$keygen" = central ] && want="$(( resp + reveal )) $(( init + fin ))"
    if [ "$how" = coc ]; then
        want="$init $resp $fin"
        if [ "$reveal" -ne 0 ]; then want="$want $reveal"; fi
        # The SDU length of each SDU's first K-frame, and the reassembled length of every
        # SDU that spans more than one K-frame, must both be the message sizes.
        got=$(awk -F'\t' '$9 != "" { printf "%s%s", sep, $9; sep = " " }' "$tmp/fields")
        for n in $(awk -F'\t' '$10 != "" { print $10 }' "$tmp/fields"); do
            case " $want " in *" $n "*) ;; *) echo "$name: reassembled SDU of $n octets"; fail=1 ;; esac
        done
    else
        # Per direction (PDU type 3 = peripheral to central), the values of the message
        # PDUs: notifications 0x1b, indications 0x1d, write requests 0x12 / commands 0x52
        # (handle + value), prepare write requests 0x16 (handle + offset + value); the
        # study's writes carry one frame-number octet each. The CCCD (handle 0x0013)
        # write of the discovery is no message.
        got=$(awk -F'\t' -v study="$how" '
                ($7 == "0x1b" || $7 == "0x1d" || $7 == "0x12" || $7 == "0x52" || $7 == "0x16") &&
                $11 != "0x0013" {
                  hdr = ($7 == "0x16") ? 5 : 3; v = $8 - hdr;
                  if (study == "study" && $7 == "0x12") v -= 1;
                  sum[$6] += v }
                END { printf "%d %d", sum[3], sum[2] }' "$tmp/fields")
    fi
    if [ "$got" != "$want" ]; then
        echo "$name: message sizes in the capture '$got', want '$want'"; fail=1
    else
        echo "$name: ok ($got octets, $(wc -l < "$tmp/fields") packets)"
    fi
}

check study ML-KEM-768 study
check notify-2m ML-KEM-512 notify/write-cmd --phy 2M --ll-octets 251 --att-mtu 247 --transfer notify/write-cmd --currents radio-only
check indicate ML-KEM-1024 indicate/write-req --transfer indicate/write-req --att-mtu 185 --ll-octets 100
check write-req-central ML-KEM-768 indicate/write-req --transfer indicate/write-req --att-mtu 247 --ll-octets 251 --keygen-side central
check write-cmd ML-KEM-512 notify/write-cmd --transfer notify/write-cmd --att-mtu 23 --adv-interval-ms 0 --keygen-side central
check long-write ML-KEM-1024 indicate/long-write --transfer indicate/long-write --att-mtu 247 --ll-octets 251
check notify-long-write ML-KEM-768 notify/long-write --transfer notify/long-write --att-mtu 185 --keygen-side central
# The central as the GATT server: the discovery from the peripheral, which writes.
check study-server-central ML-KEM-768 study --gatt-server central --keygen-side central
check server-central ML-KEM-512 notify/write-cmd --transfer notify/write-cmd --gatt-server central --ll-octets 251
check coc ML-KEM-768 coc --transport l2cap-coc --ll-octets 251
check coc-27 ML-KEM-1024 coc --transport l2cap-coc
# Every authentication mode, over GATT (indications and write requests) and the L2CAP
# credit-based channel.
for auth in psk kem-auth kem-auth-mutual sig sig-mutual numeric; do
    check "$auth-write-req" ML-KEM-768 indicate/write-req --transfer indicate/write-req --att-mtu 247 --ll-octets 251
    check "$auth-coc" ML-KEM-1024 coc --transport l2cap-coc --ll-octets 251
done
# The P-256 hybrid suites, unauthenticated and with both signatures.
hybrid=p256
for auth in none sig-mutual; do
    check "p256-$auth-write-req" ML-KEM-512 indicate/write-req --transfer indicate/write-req --att-mtu 247 --ll-octets 251
    check "p256-$auth-coc" ML-KEM-768 coc --transport l2cap-coc --ll-octets 251
done
hybrid=none
check_lesc lesc
check_lesc lesc-2m-251 --phy 2M --ll-octets 251 --att-mtu 23
check_lesc lesc-coded --phy S8 --ci-ms 7.5
exit $fail
