#!/bin/sh
# pqpan advise against brute force: for three constraint sets the harness rebuilds the
# search space from the rules docs/CLI.md states ("pqpan advise", search space), runs
# `pqpan sweep` over it (estimate on every configuration), adds to each configuration the
# cost of switching the idle link to its LL size and interval and back, taken from
# `pqpan estimate`'s own set-up phases (its connection update from --idle-ci-ms to
# --ci-ms, and its data length update, on LE 1M: the sets keep the PHY at 1M, as
# estimate's set-up runs there), keeps the configurations that meet the constraints and
# takes the one with the least battery-side e_exchange_events_uj + switch (ties: latency).
# advise's first recommendation must have that energy and latency, and both must count
# the same configurations as meeting the constraints. Also: advise's idle-link currents
# are those of `pqpan idle`. Usage: advise_bruteforce.sh CLI SRCDIR BUILDDIR.
set -u
cli=$1
status=0
fail() { echo "FAIL: $*"; status=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

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

# LL grid: 27, 59, ..., 251 up to the peer's maximum ($1), that maximum and the idle size ($2).
ll_grid() {
    { l=27; while [ $l -le "$1" ]; do echo $l; l=$((l + 32)); done; echo "$1"; echo "$2"; } |
        sort -n -u | tr '\n' ' '
}

# Interval grid: 7.5, 15, 30, 50, 100, 200, 500 ms and the idle interval ($1).
ci_grid() {
    printf '7.5\n15\n30\n50\n100\n200\n500\n%s\n' "$1" | sort -g -u | tr '\n' ' '
}

# Levels at NIST category >= $1.
levels() {
    [ "$1" -le 1 ] && printf 'ML-KEM-512 '
    [ "$1" -le 3 ] && printf 'ML-KEM-768 '
    printf 'ML-KEM-1024'
}

commas() { printf '%s' "$1" | sed 's/ *$//; s/ /,/g'; }

# estimate's set-up phase $4 (conn_update, length_update) per side, LE 1M, LL $1, interval
# $3 after a connection opened at $2: "peripheral central".
setup_uj() {
    "$cli" estimate --phy 1M --ll-octets "$1" --idle-ci-ms "$2" --ci-ms "$3" --format csv |
        awk -F, -v f="e_$4_uj" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
            $1 == "peripheral" { p = $col[f] } $1 == "central" { c = $col[f] }
            END { print p, c }'
}

# The switch from the idle link (1M, $idle_ll, $idle_ci) to each (ll, ci) of the grids and
# back, per side, into $tmp/switch: "ll ci peripheral_uj central_uj". The connection
# update each way at the interval it starts from; the data length update (the same pair
# of 9-octet PDUs whichever way, Vol 6 Part B §5.1.9) twice at the exchange's interval.
switch_table() {
    : > "$tmp/switch"
    for ci in $(ci_grid "$idle_ci"); do
        cu="0 0" llu="0 0"
        if [ "$(awk -v a="$ci" -v b="$idle_ci" 'BEGIN { print (a == b) }')" = 0 ]; then
            cu="$(setup_uj 27 "$idle_ci" "$ci" conn_update) $(setup_uj 27 "$ci" "$idle_ci" conn_update)"
        else
            cu="$cu 0 0"
        fi
        llu=$(setup_uj 251 "$ci" "$ci" length_update)
        for ll in $(ll_grid "$peer_ll" "$idle_ll"); do
            echo "$ll $ci $cu $llu" | awk -v idle_ll="$idle_ll" '{
                d = ($1 != idle_ll) ? 2 : 0
                printf "%d %.2f %.6f %.6f\n", $1, $2, $3 + $5 + d * $7, $4 + $6 + d * $8 }' \
                >> "$tmp/switch"
        done
    done
}

# The rows of `pqpan sweep` over the space of the current set (every level at NIST
# category >= $min, so that the count of feasible configurations compares).
sweep_rows() {
    "$cli" sweep --protocol "$protocol" --kem "$(commas "$(levels "$min")")" --phy 1M \
        --ll-octets "$(commas "$(ll_grid "$peer_ll" "$idle_ll")")" \
        --ci-ms "$(commas "$(ci_grid "$idle_ci")")" \
        --att-mtu "$(commas "$(mtu_grid "$peer_mtu")")" --transfer all --keygen-side all \
        --format csv > "$tmp/rows"
}

# check NAME: reads protocol, min, battery, max_lat (0 = none), idle_ci, idle_ll, peer_ll,
# peer_mtu; the idle PHY and the peer's PHYs are 1M.
check() {
    name=$1
    switch_table
    sweep_rows || { fail "$name: sweep exited $?"; return; }
    # per valid row within the latency limit: objective (battery sides' exchange energy and
    # switch) and latency; then the count and the least by objective, then latency
    brute=$(awk -F, -v side="$battery" -v max="$max_lat" '
        FNR == NR { split($0, w, " "); sp[w[1] " " w[2]] = w[3]; sc[w[1] " " w[2]] = w[4]; next }
        FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { n++ }
        $col["status"] != "ok" { next }
        {
            k = $col["ll_octets"] " " $col["ci_ms"]
            if (!(k in sp)) { print "no switch for " k > "/dev/stderr"; exit 1 }
            e = 0
            if (side != "central") e += $col["peripheral_e_exchange_events_uj"] + sp[k]
            if (side != "peripheral") e += $col["central_e_exchange_events_uj"] + sc[k]
            lat = $col["peripheral_latency_ms"]
            if (max != 0 && lat > max) next
            f++
            if (f == 1 || e < be || (e == be && lat < bl)) { be = e; bl = lat }
        }
        END { printf "%d %d %.3f %.3f\n", n, f, be, bl }' "$tmp/switch" "$tmp/rows")
    set -- $brute
    runs=$1 feasible=$2 best_e=$3 best_l=$4
    set -- --protocol "$protocol" --min-level "$min" --battery-side "$battery" \
        --idle-phy 1M --peer-phys 1M --idle-ci-ms "$idle_ci" --idle-ll-octets "$idle_ll" \
        --peer-max-ll-octets "$peer_ll" --peer-max-mtu "$peer_mtu" --top 1 --format json
    [ "$max_lat" != 0 ] && set -- "$@" --max-latency-ms "$max_lat"
    json=$("$cli" advise "$@") || { fail "$name: advise exited $?"; return; }
    adv_e=$(printf '%s\n' "$json" | sed -n 's/.*"objective_uj": \([0-9.]*\), "latency_ms": \([0-9.]*\),$/\1/p' | head -n 1)
    adv_l=$(printf '%s\n' "$json" | sed -n 's/.*"objective_uj": \([0-9.]*\), "latency_ms": \([0-9.]*\),$/\2/p' | head -n 1)
    adv_f=$(printf '%s\n' "$json" | sed -n 's/^  "feasible": \([0-9]*\),$/\1/p')
    adv_n=$(printf '%s\n' "$json" | sed -n 's/^  "configurations": \([0-9]*\),$/\1/p')
    [ "$feasible" -gt 0 ] || { fail "$name: brute force found no configuration"; return; }
    # estimate's set-up starts after its feature exchange, advise's switch after an empty
    # event: the sleep before differs by some 100 us, well under 0.01 uJ
    ok=$(printf '%s %s %s %s\n' "$best_e" "$best_l" "$adv_e" "$adv_l" | awk '{
        de = $1 - $3; dl = $2 - $4; if (de < 0) de = -de; if (dl < 0) dl = -dl
        print (de <= 0.01 && dl <= 0.0005) ? "yes" : "no" }')
    [ "$ok" = yes ] || fail "$name: advise chose $adv_e uJ / $adv_l ms, brute force $best_e / $best_l"
    [ "$adv_f" = "$feasible" ] || fail "$name: advise counts $adv_f feasible, brute force $feasible"
    # advise also runs the levels below --min-level (for its security-level table)
    nlev=$(levels "$min" | wc -w)
    [ "$adv_n" = $((runs * 3 / nlev)) ] ||
        fail "$name: advise runs $adv_n configurations, brute force $runs at $nlev of 3 levels"
    echo "$name: sweep of $runs configurations, $feasible feasible; optimum $best_e uJ, $best_l ms; advise $adv_e uJ, $adv_l ms"
}

protocol=pqpan min=5 battery=peripheral max_lat=0 idle_ci=100 idle_ll=27 peer_ll=251 peer_mtu=517
check "A (pqpan, category 5, peripheral, idle 100 ms / LL 27)"
protocol=study min=3 battery=central max_lat=1000 idle_ci=400 idle_ll=251 peer_ll=251 peer_mtu=300
check "B (study, category 3, central, <= 1000 ms, idle 400 ms / LL 251)"
protocol=pqpan min=1 battery=both max_lat=600 idle_ci=50 idle_ll=100 peer_ll=200 peer_mtu=185
check "C (pqpan, category 1, both sides, <= 600 ms, idle 50 ms / LL 100, peer LL <= 200)"

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
