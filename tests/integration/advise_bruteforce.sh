#!/bin/sh
# pqpan advise against brute force: for three constraint sets the harness rebuilds the
# search space from the rules docs/CLI.md states ("pqpan advise", search space), runs
# `pqpan estimate` on every configuration, keeps those that meet the constraints and
# takes the one with the least battery-side e_exchange_events_uj (ties: latency). advise's
# first recommendation must have that energy and latency, and both must count the same
# configurations as meeting the constraints. Also: advise's idle-link currents are those of
# `pqpan idle`. Usage: advise_bruteforce.sh CLI SRCDIR BUILDDIR.
set -u
cli=$1
status=0
fail() { echo "FAIL: $*"; status=1; }

# ATT_MTU grid: 23, 55, ..., 503 and 517, those <= the peer's maximum, and that maximum.
mtu_grid() {
    m=23 last=0
    while [ $m -le 503 ]; do
        [ $m -le "$1" ] && { printf '%s ' $m; last=$m; }
        m=$((m + 32))
    done
    [ 517 -le "$1" ] && { printf '517 '; last=517; }
    [ $last -ne "$1" ] && printf '%s ' "$1"
}

# Levels at NIST category >= $1.
levels() {
    [ "$1" -le 1 ] && printf 'ML-KEM-512 '
    [ "$1" -le 3 ] && printf 'ML-KEM-768 '
    printf 'ML-KEM-1024'
}

# check NAME: reads protocol, min, battery, max_lat (0 = none), idle_phy, idle_ci,
# idle_ll, peer_mtu.
check() {
    name=$1
    best="" feasible=0 runs=0
    for kem in $(levels "$min"); do
        for mtu in $(mtu_grid "$peer_mtu"); do
            for tr in notify indicate write-req write-cmd long-write study; do
                for kg in peripheral central; do
                    runs=$((runs + 1))
                    row=$("$cli" estimate --protocol "$protocol" --kem "$kem" --phy "$idle_phy" \
                        --ll-octets "$idle_ll" --ci-ms "$idle_ci" --att-mtu "$mtu" --transfer "$tr" \
                        --keygen-side "$kg" --format csv 2>/dev/null) || continue
                    # objective and latency of this configuration, or nothing if it misses
                    # the latency limit
                    got=$(printf '%s\n' "$row" | awk -F, -v side="$battery" -v max="$max_lat" '
                        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
                        $col["side"] == "total" { next }
                        side == "both" || $col["side"] == side { e += $col["e_exchange_events_uj"] }
                        { lat = $col["latency_ms"] }
                        END { if (max == 0 || lat <= max) printf "%.6f %.3f\n", e, lat }')
                    [ -n "$got" ] || continue
                    feasible=$((feasible + 1))
                    best=$(printf '%s\n%s\n' "$best" "$got" | awk 'NF == 2' |
                        sort -k1,1g -k2,2g | head -n 1)
                done
            done
        done
    done
    set -- --protocol "$protocol" --min-level "$min" --battery-side "$battery" \
        --idle-phy "$idle_phy" --idle-ci-ms "$idle_ci" --idle-ll-octets "$idle_ll" \
        --peer-max-mtu "$peer_mtu" --top 1 --format json
    [ "$max_lat" != 0 ] && set -- "$@" --max-latency-ms "$max_lat"
    json=$("$cli" advise "$@") || { fail "$name: advise exited $?"; return; }
    adv_e=$(printf '%s\n' "$json" | sed -n 's/.*"objective_uj": \([0-9.]*\), "latency_ms": \([0-9.]*\),$/\1/p' | head -n 1)
    adv_l=$(printf '%s\n' "$json" | sed -n 's/.*"objective_uj": \([0-9.]*\), "latency_ms": \([0-9.]*\),$/\2/p' | head -n 1)
    adv_f=$(printf '%s\n' "$json" | sed -n 's/^  "feasible": \([0-9]*\),$/\1/p')
    [ -n "$best" ] || { fail "$name: brute force found no configuration"; return; }
    ok=$(printf '%s %s %s\n' "$best" "$adv_e" "$adv_l" | awk '{
        de = $1 - $3; dl = $2 - $4; if (de < 0) de = -de; if (dl < 0) dl = -dl
        print (de <= 0.0015 && dl <= 0.0005) ? "yes" : "no" }')
    [ "$ok" = yes ] || fail "$name: advise chose $adv_e uJ / $adv_l ms, brute force $best"
    [ "$adv_f" = "$feasible" ] || fail "$name: advise counts $adv_f feasible, brute force $feasible"
    echo "$name: $runs configurations run, $feasible feasible; optimum $best (uJ, ms) = advise's"
}

protocol=pqpan min=5 battery=peripheral max_lat=0 idle_phy=2M idle_ci=100 idle_ll=27 peer_mtu=120
check "A (pqpan, category 5, peripheral)"
protocol=study min=3 battery=central max_lat=1000 idle_phy=1M idle_ci=400 idle_ll=251 peer_mtu=100
check "B (study, category 3, central, <= 1000 ms)"
protocol=pqpan min=3 battery=both max_lat=600 idle_phy=1M idle_ci=50 idle_ll=100 peer_mtu=60
check "C (pqpan, category 3, both sides, <= 600 ms)"

# The idle link's average current, peripheral and central, equals `pqpan idle`'s.
json=$("$cli" advise --idle-ci-ms 250 --idle-latency 2 --idle-phy 2M --format json --top 1)
for role in peripheral central; do
    idle=$("$cli" idle --ci-ms 250 --latency 2 --phy 2M --role $role --format json |
        sed -n 's/^  "avg_current_ua": \([0-9.]*\),$/\1/p')
    adv=$(printf '%s\n' "$json" | sed -n "s/.*\"${role}_ua\": \([0-9.]*\).*/\1/p" | head -n 1)
    [ -n "$idle" ] && [ "$idle" = "$adv" ] || fail "idle current, $role: advise $adv, pqpan idle $idle"
done
exit $status
