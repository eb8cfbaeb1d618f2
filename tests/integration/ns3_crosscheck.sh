#!/bin/sh
# pqpan's 802.15.4 simulator against an independent one: ns-3 (3.37, Debian's libns3-dev)
# runs the PQKE datagrams of ML-KEM-512/768/1024 (mode none: pqpan's INIT, RESP and FIN
# sizes from `pqpan estimate --link 802154`) over a two-node 6LoWPAN link of its own
# (tests/integration/ns3/pqke_lowpan.cc: LrWpanNetDevice, 2.4 GHz O-QPSK, short addresses,
# unslotted CSMA-CA, acknowledged frames, SixLowPanNetDevice with IPHC, no other traffic).
# Against `pqpan simulate --link 802154 --addr short` at zero load:
#  1. frames, fragments and octets on the air are equal, per message and in total: tshark
#     reads both captures (each the first run's) and counts, per message, the data frames,
#     the Imm-Acks, the RFC 4944 fragments, the PSDU octets and the UDP datagrams' lengths;
#     every FCS and UDP checksum of both must be good, no frame malformed or with expert
#     info;
#  2. the mean latency (KeyGen start to the end of the exchange, pqpan's definition) over
#     1000 seeded runs of each is within 2 %, and within 4 standard errors of the
#     difference (the runs differ only by their CSMA-CA backoffs: sd 3-4.5 ms, so the
#     standard error of the difference is about 0.17 ms, and 2 % alone would let a
#     systematic 1-2 ms through: a receiver taking a datagram after the Imm-Ack and IFS
#     rather than at the end of its last frame costs 2 x 1.184 ms per exchange). pqpan
#     prints no spread: the standard error of both means comes from the ns-3 runs';
#  3. every ns-3 run puts on the air the exchange's frames alone, each once (the program
#     checks it) and the same number each run.
# The settings that had to be aligned, and why, are in the program's header comment and
# docs/MODEL.md ("Cross-check against ns-3"). The computations between the messages are
# delays in ns-3, taken from pqpan's estimate: the initiator's CPU time split between
# KeyGen and Decaps + KDF in proportion to their energies (one gamma_comp for all three,
# checked), the responder's (Encaps + KDF) whole.
# usage: ns3_crosscheck.sh CLI SRCDIR BUILDDIR
# ns-3 and tshark come with scripts/deps.sh: without them the test fails, it does not skip.
set -eu
cli=$1
build=$3
prog=$build/tests/ns3_pqke_lowpan
runs=1000
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
failed=0
bad() { echo "FAIL: $*"; failed=1; } # a comparison failed: the next ones still run

[ -x "$prog" ] || fail "$prog not built: ns-3 (libns3-dev) was not found when CMake ran (scripts/deps.sh installs it)"
command -v tshark >/dev/null 2>&1 || fail "tshark not installed (scripts/deps.sh installs it)"

json_num() { # FILE KEY: the number after "KEY": (first match)
    sed -n "s/.*\"$2\": *{\"mean\": *\([0-9.]*\).*/\1/p; s/^ *\"$2\": *\([0-9.]*\),*\$/\1/p" "$1" | head -n 1
}
csv_col() { # FILE SIDE COLUMN: a side's value in `estimate --format csv`
    awk -F, -v side="$2" -v col="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i }
        NR > 1 && $1 == side { print $c }' "$1"
}

# One line per message (INIT, RESP, FIN) and a total: data frames, Imm-Acks, fragments
# (FRAG1/FRAGN dispatch), PSDU octets (data and Imm-Ack frames, FCS included) and the UDP
# length of each datagram. A data frame from 0x0001 before any from 0x0002 is INIT's,
# from 0x0002 RESP's, from 0x0001 after RESP FIN's; an Imm-Ack belongs to the frame
# before it. zbee_nwk is off: its heuristic takes some FRAG1s for ZigBee.
on_air() { # PCAP OUT
    tshark -r "$1" --disable-protocol zbee_nwk -o "wpan.fcs_format:ITU-T CRC-16" \
        -o udp.check_checksum:TRUE -T fields -E 'separator=;' -e frame.len -e wpan.frame_type \
        -e wpan.src16 -e 6lowpan.pattern -e udp.length -e wpan.fcs_ok -e udp.checksum.status \
        -e _ws.expert -e _ws.malformed 2>/dev/null > "$2.fields" || fail "tshark could not read $1"
    awk -F';' '
        BEGIN { m = 1; name[1] = "INIT"; name[2] = "RESP"; name[3] = "FIN" }
        $6 != 1 { print "frame " NR ": bad FCS"; exit 1 }
        $7 != "" && $7 != 1 { print "frame " NR ": bad UDP checksum"; exit 1 }
        $8 != "" || $9 != "" { print "frame " NR ": malformed or expert info: " $8 $9; exit 1 }
        $2 == "0x0001" {
            if ($3 == "0x0002" && m == 1) m = 2
            if ($3 == "0x0001" && m == 2) m = 3
            data[m]++
            if ($4 ~ /0x18|0x1c/) frags[m]++
            if ($5 != "") udp[m] = udp[m] " " $5
        }
        $2 == "0x0002" { acks[m]++ }
        { octets[m] += $1 }
        END {
            for (i = 1; i <= 3; i++) {
                printf "%s data %d acks %d fragments %d octets %d udp%s\n", name[i], data[i],
                       acks[i], frags[i], octets[i], udp[i]
                t[1] += data[i]; t[2] += acks[i]; t[3] += frags[i]; t[4] += octets[i]
            }
            printf "total data %d acks %d fragments %d octets %d\n", t[1], t[2], t[3], t[4]
        }' "$2.fields" > "$2" || fail "$1: $(cat "$2")"
}

for level in 512 768 1024; do
    kem=ML-KEM-$level
    link="--link 802154 --addr short --csma ieee --idle listen --backoff listen --kem $kem"
    # shellcheck disable=SC2086
    "$cli" estimate $link --format json > "$work/est.json" || fail "estimate $kem"
    # shellcheck disable=SC2086
    "$cli" estimate $link --format csv > "$work/est.csv" || fail "estimate $kem (csv)"
    init=$(json_num "$work/est.json" octets_init)
    resp=$(json_num "$work/est.json" octets_resp)
    fin=$(json_num "$work/est.json" octets_fin)
    for op in kem_encaps kem_decaps kdf; do
        [ "$(json_num "$work/est.json" gamma_comp_$op)" = "$(json_num "$work/est.json" gamma_comp_kem_keygen)" ] ||
            fail "gamma_comp_$op differs from gamma_comp_kem_keygen: the CPU time split below assumes one"
    done
    set -- $(awk -v t="$(csv_col "$work/est.csv" initiator t_crypto_ms)" \
                 -v e="$(csv_col "$work/est.csv" initiator e_comp_uj)" \
                 -v k="$(csv_col "$work/est.csv" initiator e_comp_kem_keygen_uj)" \
                 -v r="$(csv_col "$work/est.csv" responder t_crypto_ms)" \
                 'BEGIN { kg = t * k / e; printf "%.0f %.0f %.0f\n", kg * 1e6, r * 1e6, (t - kg) * 1e6 }')
    keygen_ns=$1 resp_ns=$2 fin_ns=$3

    # shellcheck disable=SC2086
    "$cli" simulate $link --runs "$runs" --seed 1 --pcap "$work/pqpan.pcap" --format json \
        > "$work/sim.json" || fail "simulate $kem"
    [ "$(json_num "$work/sim.json" failed)" = 0 ] || fail "$kem: pqpan runs failed"
    "$prog" "$init" "$resp" "$fin" "$keygen_ns" "$resp_ns" "$fin_ns" "$runs" "$work/ns3.pcap" \
        > "$work/ns3.txt" || fail "$kem: the ns-3 program failed"
    [ "$(wc -l < "$work/ns3.txt")" -eq "$runs" ] || fail "$kem: ns-3 gave $(wc -l < "$work/ns3.txt") runs of $runs"
    [ "$(awk '{ print $3 }' "$work/ns3.txt" | sort -u | wc -l)" -eq 1 ] ||
        fail "$kem: ns-3 runs put different numbers of frames on the air"

    echo "$kem: INIT $init, RESP $resp, FIN $fin octets; CPU before them $keygen_ns, $resp_ns, $fin_ns ns"
    on_air "$work/pqpan.pcap" "$work/pqpan.air"
    on_air "$work/ns3.pcap" "$work/ns3.air"
    paste -d '\n' "$work/pqpan.air" "$work/ns3.air" | sed 'n; s/^/  ns-3  /' | sed '/^  ns-3/!s/^/  pqpan /'
    cmp -s "$work/pqpan.air" "$work/ns3.air" || bad "$kem: frames, fragments or octets on the air differ"
    [ "$(awk '$1 == "total" { print 2 * $3 }' "$work/ns3.air")" -eq "$(head -n 1 "$work/ns3.txt" | awk '{ print $3 }')" ] ||
        fail "$kem: the ns-3 capture and the program's frame count differ"

    pq=$(json_num "$work/sim.json" latency_ms)
    awk -v pq="$pq" -v kem="$kem" '
        { x = $2 / 1e6; s += x; ss += x * x; n++ }
        END {
            mean = s / n; sd = sqrt((ss - s * s / n) / (n - 1)); se = sd * sqrt(2 / n)
            d = mean - pq; rel = d / pq
            printf "  latency: pqpan %.3f ms, ns-3 %.3f ms (sd %.3f, %d runs each): %+.3f ms (%+.2f %%, %.1f standard errors)\n",
                   pq, mean, sd, n, d, 100 * rel, d / se
            if (rel < -0.02 || rel > 0.02) { printf "FAIL: %s: mean latencies differ by 2 %% or more\n", kem; exit 1 }
            if (d < -4 * se || d > 4 * se) { printf "FAIL: %s: mean latencies differ by more than 4 standard errors\n", kem; exit 1 }
        }' "$work/ns3.txt" || failed=1
done
exit $failed
