#!/bin/sh
# Wireshark checks the 802.15.4 / 6LoWPAN framing: the test program ieee802154_exchange
# writes a pcap (LINKTYPE_IEEE802_15_4_WITHFCS) of the PQKE's UDP datagrams, fragmented
# and acknowledged; tshark must find every FCS correct, every datagram reassembled by the
# 6lowpan dissector with the right size, every UDP checksum good, and no malformed packet
# or expert info. A corrupted copy must be caught (the check can fail). Then the same
# checks on the air of seeded runs of the 802.15.4 packet simulator carrying the real
# PQKE (ML-KEM-512/768/1024) among background 6LoWPAN broadcasts: the reassembled UDP
# payloads must have the sizes of docs/PROTOCOL.md §2.5, in every --auth mode, in segments
# and with --ipv6-frag in IPv6 fragments.
# usage: ieee802154_tshark.sh CLI SRCDIR BUILDDIR    (exit 77: tshark not installed)
set -eu
cli=$1
build=$3
prog=$build/tests/ieee802154_exchange
if ! command -v tshark >/dev/null 2>&1; then
    echo "tshark not installed (scripts/deps.sh installs it): skipped"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Wireshark 3.6/4.0: the 802.15.4 FCS is selected with wpan.fcs_format.
tsr() { f=$1; shift; tshark -r "$f" -o "wpan.fcs_format:ITU-T CRC-16" -o udp.check_checksum:TRUE "$@" 2>/dev/null; }

"$prog" "$work/x.pcap" > "$work/expected.txt" || fail "ieee802154_exchange failed"
"$prog" "$work/ns.pcap" ns > /dev/null || fail "ieee802154_exchange (ns) failed"

datagrams=$(wc -l < "$work/expected.txt")
frames=$(awk '{ n += 2 * $2 } END { print n }' "$work/expected.txt")
echo "expected: $datagrams datagrams, $frames frames (data + Imm-Ack)"

got=$(tsr "$work/x.pcap" -T fields -e frame.number | wc -l)
[ "$got" -eq "$frames" ] || fail "tshark sees $got frames, expected $frames"

fcs_ok=$(tsr "$work/x.pcap" -T fields -e wpan.fcs_ok | grep -c '^1$' || true)
[ "$fcs_ok" -eq "$frames" ] || fail "$fcs_ok of $frames frames have a correct FCS"
echo "FCS correct: $fcs_ok/$frames"

bad=$(tsr "$work/x.pcap" -Y "_ws.expert || _ws.malformed || wpan.fcs.bad" | wc -l)
[ "$bad" -eq 0 ] || fail "$bad frames with expert info or malformed"
echo "malformed or expert-info frames: 0"

# One line per datagram: UDP length, checksum status (1 = good), reassembled size.
tsr "$work/x.pcap" -Y udp -T fields -e udp.length -e udp.checksum.status \
    -e 6lowpan.reassembled.length > "$work/udp.txt"
n=$(wc -l < "$work/udp.txt")
[ "$n" -eq "$datagrams" ] || fail "$n UDP datagrams dissected, expected $datagrams"
paste "$work/expected.txt" "$work/udp.txt" | while read -r payload nframes udp_len status reasm; do
    [ "$udp_len" -eq $((payload + 8)) ] || fail "UDP length $udp_len, expected $((payload + 8))"
    [ "$status" = 1 ] || fail "UDP checksum status $status for payload $payload"
    if [ "$nframes" -gt 1 ]; then
        [ "${reasm:-0}" -eq $((payload + 48)) ] ||
            fail "6LoWPAN reassembled ${reasm:-nothing}, expected $((payload + 48))"
    fi
    echo "datagram: UDP payload $payload, $nframes frames, checksum good, reassembled ${reasm:-unfragmented}"
done

# Nanosecond-magic file: the same datagrams.
tsr "$work/ns.pcap" -Y udp -T fields -e udp.length -e udp.checksum.status \
    -e 6lowpan.reassembled.length > "$work/udp_ns.txt"
cmp -s "$work/udp.txt" "$work/udp_ns.txt" || fail "nanosecond pcap dissects differently"
echo "nanosecond pcap: same dissection"

# Negative control: one flipped octet in the first data frame must show a bad FCS.
cp "$work/x.pcap" "$work/bad.pcap"
printf '\125' | dd of="$work/bad.pcap" bs=1 seek=60 conv=notrunc 2>/dev/null
badfcs=$(tsr "$work/bad.pcap" -T fields -e wpan.fcs_ok | grep -c '^0$' || true)
[ "$badfcs" -ge 1 ] || fail "a corrupted frame was not caught"
echo "corrupted copy: $badfcs bad FCS detected"

# A message over 1232 octets (the 1280-octet IPv6 MTU less IPv6 and UDP headers: INIT and
# RESP of ML-KEM-1024, kem-auth INIT and kem-auth-mutual RESP at ML-KEM-768, signed
# messages) goes in segments, one datagram each, of a 2-octet header + <= 1230 octets
# (ieee802154.h "PQKE messages in UDP datagrams"): UDP lengths 1240 for full segments.
# udp_lens LEN prints the UDP length of each datagram of a message of LEN octets.
udp_lens() {
    len=$1
    if [ "$len" -le 1232 ]; then echo $((len + 8)); return; fi
    while [ "$len" -gt 1230 ]; do echo 1240; len=$((len - 1230)); done
    echo $((len + 10))
}

# Simulator runs (10 nodes, seed 1): the real exchange (mode none); sizes from
# docs/PROTOCOL.md §2.5.
for spec in "512 840 840 38" "768 1224 1160 38" "1024 1608 1640 38"; do
    set -- $spec
    level=$1 init=$2 resp=$3 fin=$4
    pc=$work/sim$level.pcap
    set -- $("$prog" "$pc" sim 1 "$level") || fail "simulator run ($level) failed"
    [ "$1" -eq 0 ] || fail "ML-KEM-$level: exchange status $1"
    [ "$2" -eq 0 ] || fail "ML-KEM-$level: $2 datagrams lost (choose a seed without loss)"
    got=$(tsr "$pc" -T fields -e wpan.fcs_ok | grep -c '^1$' || true)
    [ "$got" -eq "$3" ] || fail "ML-KEM-$level: $got of $3 frames with a correct FCS"
    bad=$(tsr "$pc" -Y "_ws.expert || _ws.malformed || wpan.fcs.bad" | wc -l)
    [ "$bad" -eq 0 ] || fail "ML-KEM-$level: $bad frames with expert info or malformed"
    badsum=$(tsr "$pc" -Y "udp && udp.checksum.status != 1" | wc -l)
    [ "$badsum" -eq 0 ] || fail "ML-KEM-$level: $badsum UDP checksums not good"
    # The pair's datagrams (background broadcasts use port 0xF0BA = 61626): UDP length and
    # 6LoWPAN reassembled length of each, once per distinct datagram size (FIN fits one
    # frame: not reassembled).
    pair=$(tsr "$pc" -Y "udp && udp.port != 61626" -T fields -e udp.length \
        -e 6lowpan.reassembled.length | sort -u | tr '\t\n' ': ')
    want="$((fin + 8)): $( (udp_lens "$init"; udp_lens "$resp") | while read -r u; do
        printf '%s:%s ' "$u" $((u + 40)); done)"
    want=$(printf '%s' "$want" | tr ' ' '\n' | sed '/^$/d' | sort -u | tr '\n' ' ')
    pair=$(printf '%s' "$pair" | tr ' ' '\n' | sed '/^$/d' | sort -u | tr '\n' ' ')
    [ "$pair" = "$want" ] || fail "ML-KEM-$level: UDP/reassembled lengths '$pair', expected '$want'"
    echo "simulator ML-KEM-$level: $3 frames, FCS and UDP checksums good, INIT $init / RESP $resp / FIN $fin reassembled"
done
# The CLI's capture (first run of `simulate --link 802154 --pcap`): the same checks.
"$cli" simulate --link 802154 --kem ML-KEM-512 --nodes 6 --load 10 --runs 1 --seed 3 \
    --pcap "$work/cli.pcap" > /dev/null || fail "pqpan simulate --pcap failed"
n=$(tsr "$work/cli.pcap" -T fields -e frame.number | wc -l)
ok=$(tsr "$work/cli.pcap" -T fields -e wpan.fcs_ok | grep -c '^1$' || true)
[ "$n" -gt 0 ] && [ "$ok" -eq "$n" ] || fail "CLI capture: $ok of $n frames with a correct FCS"
bad=$(tsr "$work/cli.pcap" -Y "_ws.expert || _ws.malformed || (udp && udp.checksum.status != 1)" | wc -l)
[ "$bad" -eq 0 ] || fail "CLI capture: $bad bad frames"
sizes=$(tsr "$work/cli.pcap" -Y "udp && udp.port != 61626" -T fields -e udp.length | sort -un | tr '\n' ' ')
[ "$sizes" = "46 848 " ] || fail "CLI capture: UDP lengths '$sizes', expected '46 848 ' (ML-KEM-512)"
echo "CLI capture: $n frames, FCS and UDP checksums good, ML-KEM-512 INIT/RESP 840 and FIN 38"

# Every --auth mode through the CLI's capture, in datagrams as udp_lens says. Message sizes
# from docs/PROTOCOL.md §2.5; the exchange must succeed (keys equal) and every frame
# dissect clean. The sig modes (ML-DSA set of the level's category, FIPS 204 Table 2
# signature sizes: the set octet in every message, the signature in RESP and, sig-mutual,
# in FIN) and the P-256 hybrid (a 64-octet public key in INIT and RESP) likewise; numeric has
# a fourth message, REVEAL (the spec's seventh field).
for spec in "768 psk none 1224 1160 38" "768 kem-auth none 2312 1160 38" \
    "768 kem-auth-mutual none 2312 2248 38" "768 numeric none 1224 1192 70 38" \
    "1024 kem-auth none 3176 1640 38" "1024 kem-auth-mutual none 3176 3208 38" \
    "768 sig none 1225 4470 39" "768 sig-mutual none 1225 4470 3348" \
    "512 none p256 904 904 38" "1024 sig-mutual p256 1673 6332 4666"; do
    set -- $spec
    level=$1 auth=$2 hybrid=$3
    pc=$work/auth_${auth}_${hybrid}_$level.pcap
    "$cli" simulate --link 802154 --kem "ML-KEM-$level" --auth "$auth" --hybrid "$hybrid" \
        --nodes 6 --load 10 --runs 1 --seed 3 --pcap "$pc" > "$work/auth.out" ||
        fail "simulate --auth $auth --hybrid $hybrid failed"
    grep -q "failed exchanges: 0 of 1" "$work/auth.out" || fail "--auth $auth ML-KEM-$level: exchange failed"
    n=$(tsr "$pc" -T fields -e frame.number | wc -l)
    bad=$(tsr "$pc" -Y "_ws.expert || _ws.malformed || wpan.fcs.bad || (udp && udp.checksum.status != 1)" | wc -l)
    [ "$bad" -eq 0 ] || fail "--auth $auth ML-KEM-$level: $bad of $n frames bad"
    want=$( (udp_lens "$4"; udp_lens "$5"; udp_lens "$6"; [ $# -lt 7 ] || udp_lens "$7") |
        sort -n | tr '\n' ' ')
    got=$(tsr "$pc" -Y "udp && udp.port != 61626" -T fields -e udp.length | sort -n | tr '\n' ' ')
    [ "$got" = "$want" ] || fail "--auth $auth ML-KEM-$level: UDP lengths '$got', expected '$want'"
    echo "--auth $auth --hybrid $hybrid ML-KEM-$level: $n frames clean, UDP lengths $got"
done

# --ipv6-frag: a message over 1232 octets goes as one UDP datagram in IPv6 fragments (RFC
# 8200 §4.5): fragment packets of 40 + 8 + 1232 octets, the last 40 + 8 + the rest of the
# 8 + LEN octets after the IPv6 header; each is one 6LoWPAN datagram (IPHC with Next Header
# 44 inline). Wireshark must reassemble every fragment packet (6LoWPAN, when it needs more
# than one frame) and then every UDP datagram (IPv6), whole messages of docs/PROTOCOL.md
# §2.5 with good checksums, every frame clean. frag_lens LEN prints the length of each
# fragment packet of a message of LEN octets.
frag_lens() {
    rest=$(($1 + 8))
    [ "$rest" -le 1240 ] && return
    while [ "$rest" -gt 1232 ]; do echo 1280; rest=$((rest - 1232)); done
    echo $((rest + 48))
}
for spec in "1024 none none 1608 1640 38" "1024 kem-auth-mutual none 3176 3208 38" \
    "768 sig-mutual p256 1289 4534 3348"; do
    set -- $spec
    level=$1 auth=$2 hybrid=$3
    pc=$work/frag_${auth}_${hybrid}_$level.pcap
    "$cli" simulate --link 802154 --kem "ML-KEM-$level" --auth "$auth" --hybrid "$hybrid" \
        --ipv6-frag --nodes 6 --load 10 --runs 1 --seed 3 --pcap "$pc" > "$work/frag.out" ||
        fail "simulate --ipv6-frag --auth $auth failed"
    grep -q "failed exchanges: 0 of 1" "$work/frag.out" || fail "--ipv6-frag --auth $auth ML-KEM-$level: exchange failed"
    n=$(tsr "$pc" -T fields -e frame.number | wc -l)
    bad=$(tsr "$pc" -Y "_ws.expert || _ws.malformed || wpan.fcs.bad || (udp && udp.checksum.status != 1)" | wc -l)
    [ "$bad" -eq 0 ] || fail "--ipv6-frag --auth $auth ML-KEM-$level: $bad of $n frames bad"
    want=$(printf '%s\n' $(($4 + 8)) $(($5 + 8)) $(($6 + 8)) | sort -n | tr '\n' ' ')
    got=$(tsr "$pc" -Y "udp && udp.port != 61626" -T fields -e udp.length | sort -n | tr '\n' ' ')
    [ "$got" = "$want" ] || fail "--ipv6-frag --auth $auth ML-KEM-$level: UDP lengths '$got', expected '$want'"
    want=$( (frag_lens "$4"; frag_lens "$5"; frag_lens "$6") | sort -n | tr '\n' ' ')
    got=$(tsr "$pc" -Y "ipv6.nxt == 44" -T fields -e ipv6.plen | while read -r l; do
        echo $((l + 40)); done | sort -n | tr '\n' ' ')
    [ "$got" = "$want" ] || fail "--ipv6-frag --auth $auth ML-KEM-$level: fragment packets '$got', expected '$want'"
    echo "--ipv6-frag --auth $auth --hybrid $hybrid ML-KEM-$level: $n frames clean, UDP lengths reassembled from IPv6 fragments of $got octets"
done

# Secured frames (IEEE 802.15.4-2015 §9): the pair's data frames carry the auxiliary
# security header and MIC of --mac-security / --key-id-mode, secured with the simulator's
# published key (sim154.h: octets 0x70..0x7f). Given the key, Wireshark's own CCM* must
# verify every MIC and decrypt every frame (a bad MIC leaves the frame undissected, with
# expert info), and the reassembled UDP datagrams must be the ML-KEM-512 ones. Without the
# key every secured frame must show expert info (they are really secured).
key=707172737475767778797a7b7c7d7e7f
for spec in "enc-mic32 1 5" "mic64 2 2" "enc-mic128 0 7" "mic32 3 1"; do
    set -- $spec
    sec=$1 kim=$2 level=$3
    idx=1
    [ "$kim" -eq 0 ] && idx=0
    pc=$work/sec_$sec.pcap
    "$cli" simulate --link 802154 --kem ML-KEM-512 --nodes 6 --load 10 --runs 1 --seed 3 \
        --mac-security "$sec" --key-id-mode "$kim" --pcap "$pc" > /dev/null ||
        fail "pqpan simulate --mac-security $sec failed"
    # One pass with the key: per frame Security Enabled, level, key id mode, frame type,
    # extended source (the pair's frames have one), FCS, expert info, malformed, UDP length
    # and checksum status; one pass without it: the expert info of secured frames.
    tsr "$pc" -o "uat:ieee802154_keys:\"$key\",\"$idx\",\"No hash\"" -T fields -E 'separator=|' \
        -E 'aggregator=;' -e wpan.security -e wpan.aux_sec.sec_level -e wpan.aux_sec.key_id_mode \
        -e wpan.frame_type -e wpan.src64 -e wpan.fcs_ok -e _ws.expert -e _ws.malformed \
        -e udp.port -e udp.length -e udp.checksum.status > "$work/sec.txt"
    n=$(wc -l < "$work/sec.txt")
    nsec=$(awk -F'|' '$1 == 1' "$work/sec.txt" | wc -l)
    data=$(awk -F'|' '$4 == "0x0001" && $5 != ""' "$work/sec.txt" | wc -l)
    [ "$nsec" -gt 0 ] && [ "$nsec" -eq "$data" ] || fail "$sec: $nsec secured frames of $data pair data frames"
    aux=$(awk -F'|' '$1 == 1 { print $2, $3 }' "$work/sec.txt" | sort -u)
    [ "$aux" = "$(printf '0x%02x 0x%02x' "$level" "$kim")" ] ||
        fail "$sec: auxiliary headers '$aux', expected level $level, key id mode $kim"
    ok=$(awk -F'|' '$6 == 1' "$work/sec.txt" | wc -l)
    [ "$ok" -eq "$n" ] || fail "$sec: $ok of $n frames with a correct FCS"
    bad=$(awk -F'|' '$7 != "" || $8 != "" || ($11 != "" && $11 != 1)' "$work/sec.txt" | wc -l)
    [ "$bad" -eq 0 ] || fail "$sec: $bad frames not verified and decrypted, or bad"
    sizes=$(awk -F'|' '$10 != "" && $9 != "61626;61626" { print $10 }' "$work/sec.txt" | sort -un | tr '\n' ' ')
    [ "$sizes" = "46 848 " ] || fail "$sec: UDP lengths '$sizes', expected '46 848 '"
    nokey=$(tsr "$pc" -Y "wpan.security == 1 && _ws.expert" | wc -l)
    [ "$nokey" -eq "$nsec" ] || fail "$sec: $nokey of $nsec secured frames undecodable without the key"
    echo "secured $sec (level $level, key id mode $kim): $nsec frames, every MIC verified and payload decrypted by Wireshark, UDP 46/848"
done
echo "PASS"
