#!/bin/sh
# pqpan calibrate on traces synthesized here from the model's own prediction with known γ:
# each crypto operation a D0 segment whose energy is γ_comp(op) × the model's E_comp(op)
# at γ = 1, the radio five D1 segments whose energies add up to γ_comm × the bits
# accounting at γ = 1 (tests/fixtures/calibrate/synth_trace.sh). The fit must give those
# γ back (0.1 %), and the overlay it writes must be accepted by estimate, reproduce and simulate, and
# give the same numbers as the γ passed by hand. Then the same for pqpan's protocol
# (--protocol pqpan): a third D0 segment, the key schedule (kdf), on the KeyGen side and a
# second on the other side, with KeyGen on the peripheral and on the central (each the GATT
# server, as the study's preset wants: it indicates, the other side writes).
# Args: CLI SRCDIR BUILDDIR.
set -eu
cli=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

g_keygen=1.40
g_encaps=1.30
g_decaps=1.55
g_comm=1.13
volts=3.0   # the nrf52840 profile's supply voltage

"$cli" estimate --protocol study --kem ML-KEM-512 --gamma-comm 1 --gamma-comp kem_keygen=1 --gamma-comp kem_encaps=1 \
    --gamma-comp kem_decaps=1 --format csv > "$tmp/model.csv"

# column VALUE of the row of SIDE in the estimate CSV
col() {
    awk -F, -v side="$1" -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $1 == side { print $(c[name]) }' "$tmp/model.csv"
}

synth() { "$src/tests/fixtures/calibrate/synth_trace.sh" "$1" $volts "$2" "$3" "$4" 1 "${5:-0}"; }

p_keygen=$(col peripheral e_comp_kem_keygen_uj)
p_decaps=$(col peripheral e_comp_kem_decaps_uj)
p_encaps=$(col central e_comp_kem_encaps_uj)
p_comm_p=$(col peripheral e_comm_uj)
p_comm_c=$(col central e_comm_uj)
echo "model at gamma 1: keygen $p_keygen decaps $p_decaps encaps $p_encaps comm $p_comm_p / $p_comm_c uJ"

mul() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", a * b }'; }
synth "$tmp/p1.csv" "$(mul "$p_keygen" $g_keygen)" "$(mul "$p_decaps" $g_decaps)" "$(mul "$p_comm_p" $g_comm)"
synth "$tmp/p2.csv" "$(mul "$p_keygen" $g_keygen)" "$(mul "$p_decaps" $g_decaps)" "$(mul "$p_comm_p" $g_comm)"
synth "$tmp/c1.csv" "$(mul "$p_encaps" $g_encaps)" 0 "$(mul "$p_comm_c" $g_comm)"

"$cli" calibrate --protocol study --kem ML-KEM-512 --trace "$tmp/p1.csv" --trace "$tmp/p2.csv" \
    --trace "central:$tmp/c1.csv" --out "$tmp/calib.json" --format csv > "$tmp/fit.csv"
cat "$tmp/fit.csv"

# every fitted γ within 0.1 % of the one the trace was built with
awk -F, -v k=$g_keygen -v e=$g_encaps -v d=$g_decaps -v c=$g_comm '
    NR == 1 { next }
    { want = $4 == "kem_keygen" ? k : $4 == "kem_encaps" ? e : $4 == "kem_decaps" ? d : c
      err = ($7 - want) / want; if (err < 0) err = -err
      if (err > 0.001) { printf "FAIL: %s gamma %s, want %s\n", $4, $7, want; bad = 1 }
      seen[$4] = 1 }
    END { if (!seen["kem_keygen"] || !seen["kem_encaps"] || !seen["kem_decaps"] || !seen["comm"]) {
              print "FAIL: a parameter is missing"; bad = 1 }
          exit bad }' "$tmp/fit.csv"

# the overlay drives estimate and reproduce like the same γ given by hand
"$cli" estimate --protocol study --kem ML-KEM-512 --calibration "$tmp/calib.json" --format csv > "$tmp/with_file.csv"
"$cli" estimate --protocol study --kem ML-KEM-512 --gamma-comm $g_comm --gamma-comp kem_keygen=$g_keygen \
    --gamma-comp kem_encaps=$g_encaps --gamma-comp kem_decaps=$g_decaps --format csv > "$tmp/by_hand.csv"
awk -F, 'NR == FNR { a[FNR] = $10 " " $11; next }
    { split(a[FNR], x, " ")
      if (FNR > 1 && ((x[1] - $10) ^ 2 > (0.002 * $10) ^ 2 || (x[2] - $11) ^ 2 > (0.002 * $11) ^ 2)) {
          printf "FAIL: estimate with the overlay: %s vs %s\n", a[FNR], $10 " " $11; bad = 1 } }
    END { exit bad }' "$tmp/with_file.csv" "$tmp/by_hand.csv"
"$cli" reproduce --calibration "$tmp/calib.json" --format csv > /dev/null
"$cli" simulate --kem ML-KEM-512 --calibration "$tmp/calib.json" --format csv > /dev/null
echo "ok: study protocol: gamma recovered, overlay accepted by estimate, reproduce and simulate"

# ---- pqpan's protocol: KeyGen, Decaps, KDF on one side; Encaps, KDF on the other ----
g_kdf_k=1.37   # the KeyGen side's key schedule
g_kdf_o=1.45   # the other side's
g_kdf=1.41     # their fit: the same prediction on both sides, so the mean
# pqpan_round KEYGEN-SIDE OTHER-SIDE
pqpan_round() {
    kg=$1
    other=$2
    "$cli" estimate --protocol pqpan --keygen-side "$kg" --gatt-server "$kg" --gamma-comm 1 --gamma-comp kem_keygen=1 \
        --gamma-comp kem_encaps=1 --gamma-comp kem_decaps=1 --gamma-comp kdf=1 --format csv > "$tmp/model.csv"
    q_keygen=$(col "$kg" e_comp_kem_keygen_uj)
    q_decaps=$(col "$kg" e_comp_kem_decaps_uj)
    q_kdf_k=$(col "$kg" e_comp_kdf_uj)
    q_encaps=$(col "$other" e_comp_kem_encaps_uj)
    q_kdf_o=$(col "$other" e_comp_kdf_uj)
    q_comm_k=$(col "$kg" e_comm_uj)
    q_comm_o=$(col "$other" e_comm_uj)
    echo "pqpan, KeyGen on the $kg, model at gamma 1: keygen $q_keygen decaps $q_decaps kdf $q_kdf_k / $q_kdf_o encaps $q_encaps comm $q_comm_k / $q_comm_o uJ"
    synth "$tmp/k.csv" "$(mul "$q_keygen" $g_keygen)" "$(mul "$q_decaps" $g_decaps)" "$(mul "$q_comm_k" $g_comm)" \
        "$(mul "$q_kdf_k" $g_kdf_k)"
    synth "$tmp/o.csv" "$(mul "$q_encaps" $g_encaps)" "$(mul "$q_kdf_o" $g_kdf_o)" "$(mul "$q_comm_o" $g_comm)"
    "$cli" calibrate --protocol pqpan --keygen-side "$kg" --gatt-server "$kg" --trace "$kg:$tmp/k.csv" \
        --trace "$other:$tmp/o.csv" --out "$tmp/calib_pqpan.json" --format csv > "$tmp/fit.csv"
    cat "$tmp/fit.csv"
    awk -F, -v k=$g_keygen -v e=$g_encaps -v d=$g_decaps -v f=$g_kdf -v c=$g_comm '
        NR == 1 { next }
        { want = $4 == "kem_keygen" ? k : $4 == "kem_encaps" ? e : $4 == "kem_decaps" ? d : $4 == "kdf" ? f : c
          err = ($7 - want) / want; if (err < 0) err = -err
          if (err > 0.001) { printf "FAIL: %s gamma %s, want %s\n", $4, $7, want; bad = 1 }
          seen[$4]++ }
        END { if (seen["kem_keygen"] != 1 || seen["kem_encaps"] != 1 || seen["kem_decaps"] != 1 ||
                  seen["kdf"] != 2 || seen["comm"] != 2) {
                  print "FAIL: want one point per KEM operation and two for kdf and comm"; bad = 1 }
              exit bad }' "$tmp/fit.csv"
    # the overlay carries gamma_comp.kdf, and estimate --protocol pqpan uses it
    "$cli" estimate --protocol pqpan --keygen-side "$kg" --gatt-server "$kg" --calibration "$tmp/calib_pqpan.json" \
        --format csv > "$tmp/with_file.csv"
    "$cli" estimate --protocol pqpan --keygen-side "$kg" --gatt-server "$kg" --gamma-comm $g_comm \
        --gamma-comp kem_keygen=$g_keygen --gamma-comp kem_encaps=$g_encaps \
        --gamma-comp kem_decaps=$g_decaps --gamma-comp kdf=$g_kdf --format csv > "$tmp/by_hand.csv"
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
        NR == FNR { a[FNR] = $0; next }
        FNR > 1 { split(a[FNR], x, ",")
          for (f in want) { i = c[f]; if ((x[i] - $i) ^ 2 > (0.002 * $i) ^ 2) {
              printf "FAIL: estimate with the overlay: %s %s vs %s\n", f, x[i], $i; bad = 1 } } }
        BEGIN { want["e_comp_kdf_uj"]; want["e_comp_uj"]; want["e_comm_uj"] }
        END { exit bad }' "$tmp/with_file.csv" "$tmp/by_hand.csv"
}
pqpan_round peripheral central
pqpan_round central peripheral
echo "ok: pqpan protocol: gamma recovered (kdf included) with KeyGen on either side, overlay accepted"
