#!/bin/sh
# tshark checks `pqpan simulate --link ble-mesh --bearer network --pcap`: with the sample
# NetKey, AppKey and IV Index the simulator uses (MshPRT sample data §8.2; Wireshark 4.0's
# btmesh UAT "btmesh_nw_keys": Network Key, Application Key, IVindex) tshark decrypts every
# Network PDU. Checked at 1 and 3 hops and with --per 0.1:
# - every packet dissects as btmesh, none malformed, no expert item (two passes, -2, so the
#   segmented access messages reassemble), records in time order;
# - the count of packets is the run's advertising events (the total row's adv_events);
# - per hop: SRC and DST the two endpoints (0x0001, 0x0002), the sender's AdvA
#   (C0:50:00:00:position:relay) at a position on the path, TTL = 7 - the hops from SRC
#   (each relay stage's re-obfuscated copy with TTL - 1, MshPRT v1.1 §3.4.6.3);
# - the lower transport: every segmented access message (SRC, SeqZero) has each SegO
#   0 .. SegN with one SegN, and reassembles and decrypts under the AppKey (vendor opcode
#   0xC1 of company 0xFFFF, pqpan's «PQKE Part»); each access message has a Segment
#   Acknowledgment from its destination (OBO 0, the same SeqZero, BlockAck the SegN + 1 low
#   bits); the distinct messages are the run's access_messages;
# - at zero loss simulate's rows are estimate's; at --per 0.1 more packets than without,
#   and segments sent in more than one SAR round (the simulator resends the copies it built:
#   the same SEQ, so tshark's reassembly takes them as duplicates).
# With --lpn responder (1 and 3 hops) the LPN's Friend Polls and its Friend's answers are
# under the friendship credentials (k2 with the LPN's and Friend's addresses and counters,
# MshPRT §3.9.6.3.1), which Wireshark's UAT cannot express (it takes NetKey, AppKey, IV
# Index only): tshark shows their NID and no more. Checked: they come only from the LPN's and
# the Friend's positions, two Polls per Friend answer (Zephyr's POLL_XMIT), and the rest
# decrypts as above; at one hop the Friend is the initiator and everything it sends the LPN
# goes through its Friend Queue, so only the responder's messages are visible (and their
# acknowledgments are not); at three the
# Friend's Segment Acknowledgments for the LPN carry OBO 1 (the simulator builds them as the
# LPN's, SRC 0x0002, relayed by the Friend with TTL 6).
# Usage: mesh_net_tshark.sh CLI [SRCDIR BUILDDIR]. Exit 77 only without tshark.
set -u
cli=$1
command -v tshark >/dev/null 2>&1 || { echo "tshark not installed (scripts/deps.sh)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
keys='uat:btmesh_nw_keys:"0x7dd7364cd842ad18c17c2b820c84c3d6","0x63964771734fbd76e3b40519d1d94a48","0x12345678"'

column() { # csv-file name [side]: the value of column name in side's row (default total)
    c=$(head -1 "$1" | tr ',' '\n' | grep -n "^$2\$" | cut -d: -f1)
    grep "^${3:-total}," "$1" | cut -d, -f"$c"
}

check() { # name hops per lpn
    was=$fail
    fail=0
    name=$1
    hops=$2
    per=$3
    lpn=$4
    pcap=$tmp/$name.pcap
    csv=$tmp/$name.csv
    if ! "$cli" simulate --link ble-mesh --bearer network --hops "$hops" --per "$per" \
        --lpn "$lpn" --format csv --pcap "$pcap" >"$csv"; then
        echo "FAIL $name: simulate exited non-zero"; fail=1; return
    fi
    [ "$(column "$csv" keys_equal)" = yes ] || { echo "FAIL $name: keys not equal"; fail=1; }
    if [ "$per" = 0 ]; then
        "$cli" estimate --link ble-mesh --bearer network --hops "$hops" --lpn "$lpn" \
            --format csv >"$tmp/$name.est"
        sed 's/,keys_equal,/,/; s/,yes,/,/' "$csv" | cmp -s - "$tmp/$name.est" ||
            { echo "FAIL $name: simulate's rows differ from estimate's"; fail=1; }
    fi
    tshark -2 -r "$pcap" -o "$keys" -V 2>/dev/null >"$tmp/$name.txt"
    if grep -q -i 'malformed\|Expert Info\|CRC: .*incorrect' "$tmp/$name.txt"; then
        echo "FAIL $name: malformed, an expert item or a bad CRC"; fail=1
    fi
    tshark -2 -r "$pcap" -o "$keys" -T fields -E occurrence=f -e frame.time_epoch -e btmesh.nid \
        -e frame.protocols -e btle.advertising_address -e btmesh.src -e btmesh.dst \
        -e btmesh.ttl -e btmesh.ctl -e btmesh.seqzero_data -e btmesh.sego -e btmesh.segn \
        -e btmesh.cntr.opcode -e btmesh.seqzero -e btmesh.obo -e btmesh.blockack \
        -e btmesh.model.vendor -e btmesh.model.vendor.opcode 2>/dev/null >"$tmp/$name.tsv"
    n=$(wc -l <"$tmp/$name.tsv")
    adv=$(column "$csv" adv_events)
    [ "$n" -gt 0 ] && [ "$n" = "$adv" ] ||
        { echo "FAIL $name: $n packets, the run's advertising events $adv"; fail=1; }
    out=$(awk -F'\t' -v hops="$hops" -v lpn="$lpn" '
        function bad(m) { print "FAIL " m; err = 1 }
        function hex(h,  i, v) {
            for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
            return v
        }
        {
            if ($1 + 0 < last) bad("frame " NR " earlier than the one before")
            last = $1 + 0
            nid = $2
            $0 = $1 FS substr($0, length($1 FS $2 FS) + 1)
            if ($2 !~ /:btmesh$/) bad("frame " NR " is " $2)
            split($3, a, ":"); pos = hex(a[5]); relay = hex(a[6])
            if (nid != 104) {
                # the friendship credentials: the LPN (the responder) or its Friend
                if (lpn != "responder" || $4 != "" || (pos != hops && pos != hops - 1))
                    bad("frame " NR " NID " nid " from position " pos " decoded " $4)
                if (pos == hops) polls++; else answers++
                next
            }
            src = $4 + 0; dst = $5 + 0
            from = src == 1 ? 0 : hops
            if (a[1] a[2] a[3] a[4] != "c0500000" || pos > hops || (relay > 0 && (pos == 0 || pos == hops)))
                bad("frame " NR " AdvA " $3)
            if (!((src == 1 && dst == 2) || (src == 2 && dst == 1))) bad("frame " NR " SRC " src " DST " dst)
            d = pos > from ? pos - from : from - pos
            if (d >= hops || $6 + 0 != 7 - d) bad("frame " NR " at position " pos " TTL " $6 " from SRC " src)
            if ($7 == 0) {
                m = src " " $8
                if (!(m in segn)) { segn[m] = $10; msgs++ }
                if (segn[m] != $10) bad("frame " NR " SegN " $10 " of message " m)
                seen[m " " $9] = 1
                if (pos == from) sends[m " " $9]++
                if ($15 != "" && ($15 != "0xffff" || $16 != 1)) bad("frame " NR " decrypted as " $15 " opcode " $16)
                if ($15 != "") dec[m] = 1
            } else {
                obo = lpn == "responder" && hops > 1 && src == 2
                if ($11 != 0 || $13 != obo) bad("frame " NR " control opcode " $11 " OBO " $13)
                acks[dst " " $12] = $14
            }
        }
        END {
            for (m in segn) {
                for (k = 0; k <= segn[m]; k++) if (!((m " " k) in seen)) bad("message " m " lacks SegO " k)
                if (!(m in dec)) bad("message " m " not decrypted")
                # at one hop the acknowledgments to the LPN come through the Friend Queue
                if (!(m in acks) && !(lpn == "responder" && hops == 1)) bad("message " m " not acknowledged")
                else if ((m in acks) && acks[m] != 2 ^ (segn[m] + 1) - 1) bad("message " m " BlockAck " acks[m])
            }
            for (s in sends) if (sends[s] > more) more = sends[s]
            if (lpn == "responder" && (answers == 0 || polls != 2 * answers))
                bad(polls " Friend Polls for " answers " Friend answers")
            print msgs, more
            exit err
        }' "$tmp/$name.tsv")
    [ $? = 0 ] || { echo "$out" | grep FAIL | head -20; fail=1; }
    msgs=$(echo "$out" | tail -1 | cut -d' ' -f1)
    most=$(echo "$out" | tail -1 | cut -d' ' -f2)
    want=$(column "$csv" access_messages)
    [ "$lpn" = responder ] && [ "$hops" = 1 ] && want=$(column "$csv" access_messages responder)
    [ "$msgs" = "$want" ] || { echo "FAIL $name: $msgs access messages, want $want"; fail=1; }
    # a segment's events at its source: Network Transmit Count + 1 = 3 per round (defaults)
    if [ "$per" != 0 ] && [ "$most" -le 3 ]; then
        echo "FAIL $name: no segment sent in a second SAR round at --per $per"; fail=1
    fi
    [ "$fail" = 0 ] && echo "ok $name: $n packets = adv_events, $msgs access messages decrypted (each acknowledgment tshark can read checked), at most $most events of a segment at its source"
    fail=$((fail | was))
}

check hop1 1 0 none
check hop3 3 0 none
check hop1_lossy 1 0.1 none
check hop3_lossy 3 0.1 none
check hop1_lpn 1 0 responder
check hop3_lpn 3 0 responder
[ "$(wc -l <"$tmp/hop1_lossy.tsv")" -gt "$(wc -l <"$tmp/hop1.tsv")" ] ||
    { echo "FAIL hop1_lossy: no more packets than without loss"; fail=1; }
exit $fail
