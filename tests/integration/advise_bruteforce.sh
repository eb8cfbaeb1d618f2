#!/bin/sh
# pqpan advise against brute force: for three constraint sets the harness rebuilds the
# search space from the rules docs/CLI.md states ("pqpan advise", search space), runs
# `pqpan sweep` over it (estimate on every configuration), keeps those that meet the
# constraints and takes the one with the least battery-side e_exchange_events_uj (ties:
# latency). advise's
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

# The rows of `pqpan sweep` over the space of the current set (every level at NIST
# category >= $min, so that the count of feasible configurations compares).
sweep_rows() {
    "$cli" sweep --protocol "$protocol" --kem "$(levels "$min" | tr ' ' ',')" --phy "$idle_phy" \
        --ll-octets "$idle_ll" --ci-ms "$idle_ci" --att-mtu "$(mtu_grid "$peer_mtu" | tr ' ' ',' |
        sed 's/,$//')" --transfer all --keygen-side all --format csv
}

# check NAME: reads protocol, min, battery, max_lat (0 = none), idle_phy, idle_ci,
# idle_ll, peer_mtu.
check() {
    name=$1
    rows=$(sweep_rows) || { fail "$name: sweep exited $?"; return; }
    # per valid row within the latency limit: objective (battery sides' exchange energy) and
    # latency; then the count and the least by objective, then latency
    brute=$(printf '%s\n' "$rows" | awk -F, -v side="$battery" -v max="$max_lat" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { n++ }
        $col["status"] != "ok" { next }
        {
            e = 0
            if (side != "central") e += $col["peripheral_e_exchange_events_uj"]
            if (side != "peripheral") e += $col["central_e_exchange_events_uj"]
            lat = $col["peripheral_latency_ms"]
            if (max != 0 && lat > max) next
            f++
            if (f == 1 || e < be || (e == be && lat < bl)) { be = e; bl = lat }
        }
        END { printf "%d %d %.3f %.3f\n", n, f, be, bl }')
    set -- $brute
    runs=$1 feasible=$2 best_e=$3 best_l=$4
    set -- --protocol "$protocol" --min-level "$min" --battery-side "$battery" \
        --idle-phy "$idle_phy" --idle-ci-ms "$idle_ci" --idle-ll-octets "$idle_ll" \
        --peer-max-mtu "$peer_mtu" --top 1 --format json
    [ "$max_lat" != 0 ] && set -- "$@" --max-latency-ms "$max_lat"
    json=$("$cli" advise "$@") || { fail "$name: advise exited $?"; return; }
    adv_e=$(printf '%s\n' "$json" | sed -n 's/.*"objective_uj": \([0-9.]*\), "latency_ms": \([0-9.]*\),$/\1/p' | head -n 1)
    adv_l=$(printf '%s\n' "$json" | sed -n 's/.*"objective_uj": \([0-9.]*\), "latency_ms": \([0-9.]*\),$/\2/p' | head -n 1)
    adv_f=$(printf '%s\n' "$json" | sed -n 's/^  "feasible": \([0-9]*\),$/\1/p')
    [ "$feasible" -gt 0 ] || { fail "$name: brute force found no configuration"; return; }
    ok=$(printf '%s %s %s %s\n' "$best_e" "$best_l" "$adv_e" "$adv_l" | awk '{
        de = $1 - $3; dl = $2 - $4; if (de < 0) de = -de; if (dl < 0) dl = -dl
        print (de <= 0.0015 && dl <= 0.0005) ? "yes" : "no" }')
    [ "$ok" = yes ] || fail "$name: advise chose $adv_e uJ / $adv_l ms, brute force $best_e / $best_l"
    [ "$adv_f" = "$feasible" ] || fail "$name: advise counts $adv_f feasible, brute force $feasible"
    echo "$name: sweep of $runs configurations, $feasible feasible; optimum $best_e uJ, $best_l ms = advise's"
}

protocol=pqpan min=5 battery=peripheral max_lat=0 idle_phy=2M idle_ci=100 idle_ll=27 peer_mtu=517
check "A (pqpan, category 5, peripheral)"
protocol=study min=3 battery=central max_lat=1000 idle_phy=1M idle_ci=400 idle_ll=251 peer_mtu=300
check "B (study, category 3, central, <= 1000 ms)"
protocol=pqpan min=1 battery=both max_lat=600 idle_phy=1M idle_ci=50 idle_ll=100 peer_mtu=185
check "C (pqpan, category 1, both sides, <= 600 ms)"

# 802.15.4 (set D): the device is either node of every row of a sweep over levels and
# addressing (KeyGen on the device: it is the initiator; on its parent: the responder).
min=3 max_lat=300
rows=$("$cli" sweep --link 802154 --kem "$(levels $min | tr ' ' ',')" --addr all --idle sleep \
    --busy 0.1 --format csv) || fail "D: sweep exited $?"
brute=$(printf '%s\n' "$rows" | awk -F, -v max="$max_lat" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["status"] != "ok" { next }
    {
        lat = $col["initiator_latency_ms"]
        if (max != 0 && lat > max) next
        for (k = 0; k < 2; k++) {
            e = $col[(k ? "responder" : "initiator") "_e_total_events_uj"]
            f++
            if (f == 1 || e < be || (e == be && lat < bl)) { be = e; bl = lat }
        }
    }
    END { printf "%d %.3f %.3f\n", f, be, bl }')
set -- $brute
json=$("$cli" advise --link 802154 --min-level $min --max-latency-ms $max_lat --busy 0.1 --top 1 \
    --format json) || fail "D: advise exited $?"
adv_e=$(printf '%s\n' "$json" | sed -n 's/.*"objective_uj": \([0-9.]*\), "latency_ms": \([0-9.]*\),$/\1/p' | head -n 1)
adv_l=$(printf '%s\n' "$json" | sed -n 's/.*"objective_uj": \([0-9.]*\), "latency_ms": \([0-9.]*\),$/\2/p' | head -n 1)
adv_f=$(printf '%s\n' "$json" | sed -n 's/^  "feasible": \([0-9]*\),$/\1/p')
[ "$adv_e $adv_l" = "$2 $3" ] || fail "D: advise chose $adv_e uJ / $adv_l ms, brute force $2 / $3"
[ "$adv_f" = "$1" ] || fail "D: advise counts $adv_f feasible, brute force $1"
echo "D (802.15.4, category 3, <= $max_lat ms, channel busy 10 %): $1 feasible; optimum $2 uJ, $3 ms = advise's"

# The 802.15.4 device's current between exchanges equals `pqpan idle --link 802154`'s.
json=$("$cli" advise --link 802154 --poll-ms 250 --busy 0.1 --format json --top 1)
for addr in extended short; do
    idle=$("$cli" idle --link 802154 --poll-ms 250 --busy 0.1 --addr $addr --format json |
        sed -n 's/^  "avg_current_ua": \([0-9.]*\),*$/\1/p')
    adv=$(printf '%s\n' "$json" | sed -n "s/.*\"${addr}_ua\": \([0-9.]*\).*/\1/p" | head -n 1)
    # advise prints 4 decimals, idle 6
    same=$(awk -v a="${adv:-x}" -v b="${idle:-y}" 'BEGIN { print (a + 0 > 0 && sprintf("%.4f", b) == a) ? 1 : 0 }')
    [ "$same" = 1 ] || fail "poll current, $addr: advise $adv, pqpan idle $idle"
done

# The idle link's average current, peripheral and central, equals `pqpan idle`'s.
json=$("$cli" advise --idle-ci-ms 250 --idle-latency 2 --idle-phy 2M --format json --top 1)
for role in peripheral central; do
    idle=$("$cli" idle --ci-ms 250 --latency 2 --phy 2M --role $role --format json |
        sed -n 's/^  "avg_current_ua": \([0-9.]*\),$/\1/p')
    adv=$(printf '%s\n' "$json" | sed -n "s/.*\"${role}_ua\": \([0-9.]*\).*/\1/p" | head -n 1)
    [ -n "$idle" ] && [ "$idle" = "$adv" ] || fail "idle current, $role: advise $adv, pqpan idle $idle"
done
exit $status
