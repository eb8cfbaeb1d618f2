#!/bin/sh
# pqpan advise's temporary link optimisation against `pqpan estimate`: for a recommendation
# where switching pays and one where it does not, the net saving advise prints must equal
# estimate(idle settings) - (estimate(optimised) + the switch there and back), the
# peripheral's (battery side) e_exchange_events_uj of each configuration run through the
# CLI, and the switch from estimate's own set-up phases on LE 1M: its connection update
# from --initial-ci-ms to --ci-ms, once each way, and its data length update (the same
# LL_LENGTH_REQ/RSP pair of 9 octets whichever way, Core v5.4 Vol 6 Part B §5.1.9) twice,
# at the exchange's interval. Agreement within 0.01 uJ (estimate's set-up starts after its
# feature exchange, advise's switch after an empty event: the sleep before differs by some
# 100 us). The verdict must follow the sign. Usage: advise_net_saving.sh CLI SRCDIR BUILDDIR.
set -u
cli=$1
status=0
fail() { echo "FAIL: $*"; status=1; }

# Member $2 of recommendation $1 in the JSON on stdin (numbers, true/false, strings); the
# members of its "switching" object from there on.
member() {
    awk -v rank="$1" -v key="$2" '
        index($0, "{\"rank\": " rank ",") { on = 1 }
        on { buf = buf $0 }
        on && /"battery": \[/ { exit }
        END {
            if (key ~ /^switching\./) {
                buf = substr(buf, index(buf, "\"switching\": {")); key = substr(key, 11)
            }
            if (!match(buf, "\"" key "\": (\"[^\"]*\"|[^,}]*)")) exit 1
            v = substr(buf, RSTART + length(key) + 4, RLENGTH - length(key) - 4)
            gsub(/"/, "", v); print v
        }'
}

# The peripheral's field $1 of `pqpan estimate` with the remaining arguments, CSV.
est() {
    f=$1; shift
    "$cli" estimate --format csv "$@" | awk -F, -v f="$f" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $1 == "peripheral" { print $col[f] }'
}

close_to() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; print (d <= t) ? 1 : 0 }'; }

# The peripheral's switch from the idle link (1M, $idle_ci ms, LL $idle_ll) to LL $1 and
# interval $2 ms and back, from estimate's set-up phases on LE 1M.
switch_uj() {
    sw=0
    if [ "$(close_to "$2" "$idle_ci" 0)" = 0 ]; then
        there=$(est e_conn_update_uj --phy 1M --ll-octets 27 --initial-ci-ms "$idle_ci" --ci-ms "$2")
        back=$(est e_conn_update_uj --phy 1M --ll-octets 27 --initial-ci-ms "$2" --ci-ms "$idle_ci")
        sw=$(awk -v a="$sw" -v b="$there" -v c="$back" 'BEGIN { printf "%.6f", a + b + c }')
    fi
    if [ "$1" != "$idle_ll" ]; then
        llu=$(est e_length_update_uj --phy 1M --ll-octets 251 --initial-ci-ms "$2" --ci-ms "$2")
        sw=$(awk -v a="$sw" -v b="$llu" 'BEGIN { printf "%.6f", a + 2 * b }')
    fi
    echo "$sw"
}

# case NAME RANK WANT_PAYS ADVISE_ARGS...: idle link 1M, $idle_ci ms, LL $idle_ll.
check() {
    name=$1 rank=$2 want=$3
    shift 3
    json=$("$cli" advise --min-level 3 --peer-phys 1M --idle-ci-ms "$idle_ci" \
        --idle-ll-octets "$idle_ll" --format json "$@") || { fail "$name: advise exited $?"; return; }
    table=$("$cli" advise --min-level 3 --peer-phys 1M --idle-ci-ms "$idle_ci" \
        --idle-ll-octets "$idle_ll" "$@") || { fail "$name: advise table exited $?"; return; }
    for k in kem auth ll_octets att_mtu transfer ci_ms keygen_side net_saving_uj pays \
        switching.energy_device_uj idle_settings_objective_uj exchange_objective_uj; do
        v=$(printf '%s\n' "$json" | member "$rank" $k) || { fail "$name: no $k"; return; }
        eval "j_$(echo $k | tr . _)=\$v"
    done
    cfg="--kem $j_kem --auth $j_auth --protocol pqpan --phy 1M --att-mtu $j_att_mtu --transfer $j_transfer --keygen-side $j_keygen_side"
    # shellcheck disable=SC2086
    e_opt=$(est e_exchange_events_uj $cfg --ll-octets "$j_ll_octets" --ci-ms "$j_ci_ms")
    # shellcheck disable=SC2086
    e_idle=$(est e_exchange_events_uj $cfg --ll-octets "$idle_ll" --ci-ms "$idle_ci")
    sw=$(switch_uj "$j_ll_octets" "$j_ci_ms")
    net=$(awk -v i="$e_idle" -v o="$e_opt" -v s="$sw" 'BEGIN { printf "%.3f", i - (o + s) }')
    [ "$(close_to "$j_net_saving_uj" "$net" 0.01)" = 1 ] ||
        fail "$name: advise's net saving $j_net_saving_uj uJ, estimate $e_idle - ($e_opt + $sw) = $net"
    [ "$(close_to "$j_idle_settings_objective_uj" "$e_idle" 0.0005)" = 1 ] ||
        fail "$name: on the idle settings advise $j_idle_settings_objective_uj, estimate $e_idle"
    [ "$(close_to "$j_exchange_objective_uj" "$e_opt" 0.0005)" = 1 ] ||
        fail "$name: the exchange advise $j_exchange_objective_uj, estimate $e_opt"
    [ "$(close_to "$j_switching_energy_device_uj" "$sw" 0.01)" = 1 ] ||
        fail "$name: the switch advise $j_switching_energy_device_uj, estimate's set-up phases $sw"
    pays=$(awk -v n="$net" 'BEGIN { print (n > 0) ? "true" : "false" }')
    [ "$j_pays" = "$pays" ] && [ "$pays" = "$want" ] ||
        fail "$name: pays $j_pays, net $net, this case wants $want"
    verdict=$(printf '%s\n' "$table" | awk -v r="$rank" '/^rank procedures/ { on = 1; next }
        on && $1 == r { sub(/.*  /, ""); print; exit }')
    case "$want:$verdict" in
    true:"switching pays" | false:"does not pay: stay on the idle settings") ;;
    *) fail "$name: table verdict '$verdict' for pays $want" ;;
    esac
    echo "$name: ML-KEM $j_kem LL $j_ll_octets CI $j_ci_ms ms: estimate $e_idle - ($e_opt + switch $sw) = $net uJ = advise's $j_net_saving_uj ($verdict)"
}

# decision NAME WANT_PAYS: the overall verdict (JSON "switching_decision", the table's
# "switching decision" line): its net saving = estimate(the cheapest configuration on the
# idle settings) - (estimate(the cheapest with a switch) + its switch there and back), and
# the verdict follows the sign. Idle link 1M, $idle_ci ms, LL $idle_ll.
decision() {
    name=$1 want=$2
    set -- --min-level 3 --peer-phys 1M --idle-ci-ms "$idle_ci" --idle-ll-octets "$idle_ll" --top 1
    json=$("$cli" advise "$@" --format json) || { fail "$name: advise exited $?"; return; }
    table=$("$cli" advise "$@") || { fail "$name: advise table exited $?"; return; }
    for side in on_idle switched; do
        # kem auth ll mtu transfer ci keygen exchange_objective_uj switch_objective_uj
        f=$(printf '%s\n' "$json" | sed -n "/^    \"$side\": {/{N;p;}" | tr -d '\n' | sed -n \
            's/.*"kem": "\([^"]*\)", "configuration": "\([a-z-]*\); LE 1M, LL \([0-9]*\), ATT_MTU \([0-9]*\), \([a-z/-]*\), CI \([0-9.]*\) ms, KeyGen on the \([a-z]*\)[^"]*", "exchange_objective_uj": \([0-9.]*\), *"switch_objective_uj": \([0-9.]*\),.*/\1 \2 \3 \4 \5 \6 \7 \8 \9/p')
        [ -n "$f" ] || { fail "$name: no $side configuration in the JSON"; return; }
        # shellcheck disable=SC2086
        set -- $f
        e=$(est e_exchange_events_uj --kem "$1" --auth "$2" --protocol pqpan --phy 1M \
            --ll-octets "$3" --att-mtu "$4" --transfer "$5" --ci-ms "$6" --keygen-side "$7")
        sw=$(switch_uj "$3" "$6")
        [ "$(close_to "$8" "$e" 0.0005)" = 1 ] || fail "$name: $side exchange advise $8, estimate $e"
        [ "$(close_to "$9" "$sw" 0.01)" = 1 ] || fail "$name: $side switch advise $9, estimate's set-up phases $sw"
        eval "e_$side=\$e sw_$side=\$sw"
    done
    [ "$sw_on_idle" = 0 ] || fail "$name: the configuration on the idle settings has a switch ($sw_on_idle)"
    net=$(awk -v i="$e_on_idle" -v o="$e_switched" -v s="$sw_switched" 'BEGIN { printf "%.3f", i - (o + s) }')
    j_net=$(printf '%s\n' "$json" | sed -n 's/^    "pays": [a-z]*, "net_saving_uj": \([-0-9.]*\),$/\1/p')
    j_pays=$(printf '%s\n' "$json" | sed -n 's/^    "pays": \([a-z]*\), .*/\1/p')
    [ "$(close_to "${j_net:-x}" "$net" 0.01)" = 1 ] ||
        fail "$name: decision's net saving $j_net uJ, estimate $e_on_idle - ($e_switched + $sw_switched) = $net"
    pays=$(awk -v n="$net" 'BEGIN { print (n > 0) ? "true" : "false" }')
    [ "$j_pays" = "$pays" ] && [ "$pays" = "$want" ] || fail "$name: pays $j_pays, net $net, want $want"
    verdict=$(printf '%s\n' "$table" | sed -n 's/^switching decision ([^)]*): //p')
    case "$want:$verdict" in
    "true:switching pays" | "false:switching does not pay") ;;
    *) fail "$name: table verdict '$verdict' for pays $want" ;;
    esac
    echo "$name: estimate $e_on_idle (idle settings) - ($e_switched + switch $sw_switched) = $net uJ = advise's $j_net ($verdict)"
}

idle_ci=1000 idle_ll=27
decision "decision, idle 1000 ms / LL 27" true
idle_ci=100 idle_ll=251
decision "decision, idle 100 ms / LL 251" false

# Idle 1000 ms / LL 27, the key within 8 s of the decision (the switch there included): the
# connection update and the data length update.
idle_ci=1000 idle_ll=27
check "pays" 1 true --max-latency-ms 8000 --top 1
# Idle 50 ms / LL 251: among the near ties, configurations at a smaller LL size that only
# pay for the data length update there and back.
idle_ci=50 idle_ll=251
json=$("$cli" advise --min-level 3 --peer-phys 1M --idle-ci-ms 50 --idle-ll-octets 251 \
    --top 50 --format json)
rank=$(printf '%s\n' "$json" | awk '/^    \{"rank": / { r = $2; sub(/,/, "", r) }
    /"pays": false, "stay_on_idle": true/ { print r; exit }')
if [ -z "$rank" ]; then
    fail "no recommendation of the idle-50-ms set where switching does not pay"
else
    check "does not pay" "$rank" false --top 50
fi
exit $status
