#!/bin/sh
# pqpan reproduce's two readings against what they claim to be.
# - defaults: every row equals `pqpan estimate --protocol study` of the same configuration (one
#   model; reproduce runs the study's protocol).
# - study: same PDUs and TX/RX times as defaults; T_IFS = one per PDU sent (pdus_tx x
#   150 us, Core v5.4 Vol 6 Part B §4.1.1); and the bits energy recomputed by hand from
#   the nRF52840 PS radio-only currents (TX 0 dBm 4.8 mA, RX 1M 4.6 mA, T_IFS at RX),
#   3.0 V and gamma_comm 1.15: E = 1.15 x 3.0 x (t_tx x 4.8 + t_rx x 4.6 + t_ifs x 4.6).
# $1 = pqpan binary, $2 = source dir, $3 = build dir.
set -u
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cli" reproduce --format csv > "$tmp/r.csv" || { echo "reproduce failed"; exit 1; }
status=0
for kem in ML-KEM-512 ML-KEM-768 ML-KEM-1024 LESC-P256; do
    for ll in 27 251; do
        "$cli" estimate --protocol study --kem "$kem" --ll-octets "$ll" --format csv | tail -n +2 > "$tmp/e" ||
            { echo "estimate $kem LL $ll failed"; exit 1; }
        awk -F, -v kem="$kem" -v ll="$ll" '
            NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            $c["reading"] == "defaults" && $c["kem"] == kem && $c["ll_octets"] == ll' "$tmp/r.csv" |
            cut -d, -f2- > "$tmp/d"
        # reproduce's rows carry LE SC's named-part columns (GROUP_LESC), empty for a PQKE;
        # estimate prints them for LE SC only
        [ "$kem" = LESC-P256 ] || sed -i 's/,,,,,,$//' "$tmp/d"
        cmp -s "$tmp/e" "$tmp/d" || { echo "defaults $kem LL $ll differs from estimate:"; diff "$tmp/e" "$tmp/d"; status=1; }
    done
done
awk -F, '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{ key = $c["kem"] "," $c["ll_octets"] "," $c["side"] }
$c["reading"] == "defaults" { tx[key] = $c["t_tx_ms"]; rx[key] = $c["t_rx_ms"]; n[key] = $c["pdus_tx"] }
$c["reading"] == "study" && $c["side"] != "total" {
    rows++
    if ($c["t_tx_ms"] != tx[key] || $c["t_rx_ms"] != rx[key] || $c["pdus_tx"] != n[key]) {
        print "study " key ": PDUs or TX/RX time differ from defaults"; bad = 1
    }
    ifs = $c["pdus_tx"] * 0.150
    if (ifs - $c["t_ifs_ms"] > 0.0005 || $c["t_ifs_ms"] - ifs > 0.0005) {
        print "study " key ": t_ifs_ms " $c["t_ifs_ms"] ", want pdus_tx x 0.150 = " ifs; bad = 1
    }
    e = 1.15 * 3.0 * ($c["t_tx_ms"] * 4.8 + $c["t_rx_ms"] * 4.6 + $c["t_ifs_ms"] * 4.6)
    if (e - $c["e_comm_uj"] > 0.01 || $c["e_comm_uj"] - e > 0.01) {
        print "study " key ": e_comm_uj " $c["e_comm_uj"] ", by hand " e; bad = 1
    }
}
END { if (rows != 16) { print "study rows: " rows ", want 16"; bad = 1 } exit bad }
' "$tmp/r.csv" || status=1
[ "$status" -eq 0 ] && echo "reproduce readings ok"
exit "$status"
