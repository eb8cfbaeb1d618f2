#!/bin/sh
# Round trip: `pqpan simulate --trace` writes the current of each side with known γ (a
# crypto operation draws γ_comp(op) × its current, the radio states γ_comm × theirs), and
# `pqpan calibrate --comm-model radio --overlap concurrent` (the simulator, like the model,
# runs an operation through the connection events that fall in it) must give every γ back
# within 2 %, for both protocols it calibrates:
#   study: simulate --messages estimate (raw ek, then ct), calibrate --protocol study
#          (the default): kem_keygen, kem_encaps, kem_decaps, comm;
#   pqpan: simulate's default --messages pqke (INIT / RESP / FIN with the key schedule),
#          calibrate --protocol pqpan: the same plus kdf, each key schedule its own D0
#          segment (simulate writes D0 low for one sample between two operations back to
#          back).
# Each with three γ sets (inside, at the edges of and outside the study's ranges), KeyGen
# on either side, in the study's set-up and with ML-KEM-1024 / DLE / notify. The simulator
# and the estimator agree on the events accounting at zero loss (docs/MODEL.md "Simulator
# versus estimator"; the advertising phase in the estimator's expected case,
# `simulate --adv-case mean`), so the γ come back up to the trace's sampling. Prints the error of
# every γ and the worst per parameter. Args: CLI SRCDIR BUILDDIR.
set -eu
cli=$1
if ! "$cli" help simulate > /dev/null 2>&1; then
    echo "skip: 'pqpan simulate' does not exist yet (needed for its --trace)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tol=2
overlap=concurrent

# γ sets: kem_keygen kem_encaps kem_decaps kdf comm
set_a="1.45 1.33 1.25 1.37 1.18"
set_b="1.12 1.62 1.40 1.20 1.10"
set_c="0.90 2.10 1.05 1.80 1.50"

# roundtrip NAME PROTOCOL "GAMMA SET" LINK-OPTIONS...
roundtrip() {
    name=$1
    protocol=$2
    gs=$3
    shift 3
    gammas=$(echo "$gs" | awk '{ printf "--gamma-comp kem_keygen=%s --gamma-comp kem_encaps=%s --gamma-comp kem_decaps=%s --gamma-comp kdf=%s --gamma-comm %s", $1, $2, $3, $4, $5 }')
    messages=pqke
    [ "$protocol" = study ] && messages=estimate
    for side in peripheral central; do
        # shellcheck disable=SC2086
        "$cli" simulate "$@" $gammas --messages $messages --adv-case mean \
            --trace "$tmp/$name.$side.csv" --trace-side $side > /dev/null
    done
    "$cli" calibrate "$@" --protocol "$protocol" --comm-model radio --overlap "$overlap" \
        --trace "$tmp/$name.peripheral.csv" --trace "central:$tmp/$name.central.csv" \
        --format csv > "$tmp/$name.fit.csv" 2> /dev/null
    want_n=4
    [ "$protocol" = pqpan ] && want_n=5
    echo "$gs" | awk -F, -v name="$name" -v tol=$tol -v want_n=$want_n '
        NR == FNR { split($0, g, " "); want["kem_keygen"] = g[1]; want["kem_encaps"] = g[2]
                    want["kem_decaps"] = g[3]; want["kdf"] = g[4]; want["comm"] = g[5]; next }
        FNR == 1 { next }
        seen[$4]++ { next }
        { err = 100 * ($7 - want[$4]) / want[$4]
          printf "%-26s %-10s simulated with %.2f, calibrated %.4f (%+.3f %%)\n", name, $4, want[$4], $7, err
          printf "%s %s\n", $4, err > "/dev/stderr"
          if (err > tol || err < -tol) { printf "FAIL: more than %s %% off\n", tol; bad = 1 } }
        END { n = 0; for (q in seen) n++
              if (n != want_n) { printf "FAIL: %s: %d parameters, want %d\n", name, n, want_n; bad = 1 }
              exit bad }' - "$tmp/$name.fit.csv" 2>> "$tmp/errors"
}

for protocol in study pqpan; do
    for kg in peripheral central; do
        roundtrip "$protocol.768.$kg.a" "$protocol" "$set_a" --kem ML-KEM-768 --keygen-side $kg --gatt-server $kg
        roundtrip "$protocol.768.$kg.b" "$protocol" "$set_b" --kem ML-KEM-768 --keygen-side $kg --gatt-server $kg
        roundtrip "$protocol.768.$kg.c" "$protocol" "$set_c" --kem ML-KEM-768 --keygen-side $kg --gatt-server $kg
        roundtrip "$protocol.1024dle.$kg.a" "$protocol" "$set_a" --kem ML-KEM-1024 --ll-octets 251 \
            --att-mtu 247 --transfer notify/write-cmd --keygen-side $kg --gatt-server $kg
        roundtrip "$protocol.512.$kg.b" "$protocol" "$set_b" --kem ML-KEM-512 --keygen-side $kg --gatt-server $kg
    done
done
awk '{ e = $2 < 0 ? -$2 : $2; if (e > worst[$1]) worst[$1] = e; n[$1]++ }
     END { for (q in worst) printf "worst |error| %-10s %.3f %% over %d fits\n", q, worst[q], n[q] }' \
    "$tmp/errors" | sort
echo "ok: every gamma recovered within $tol %"
