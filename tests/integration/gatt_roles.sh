#!/bin/sh
# GATT roles (issue 27 item 3). Core v5.4 Vol 3 Part G §2.2: the client sends requests and
# commands to the server, the server sends responses, notifications and indications to the
# client; so a message goes by a write (§4.9: Write Request, Write Command, Prepare/Execute
# Write) from the GATT client and by a notification (§4.10) or an indication (§4.11) from
# the GATT server. Which side is the server is the --gatt-server option (default: the
# peripheral, as in the study). Checked here, on what a new user meets first:
#  - advise's recommendations for the CR2032 question of the issue (--max-latency-ms 4000:
#    2000 is infeasible since the time to key includes the link switch, the fastest
#    configuration at category 3 takes some 3000 ms) hold only configurations
#    GATT can build: a --transfer of a server method / a client method, or the study's
#    preset with KeyGen on the server (every other single method sends one of the two
#    messages from the wrong side);
#  - estimate and simulate refuse a configuration GATT cannot build (exit 2, stdout empty,
#    the message names the side and what it would send), and price it when asked to
#    (--allow-unbuildable);
#  - sweep keeps such a row and says so in its status.
# $1 = pqpan binary, $2 = source dir, $3 = build dir.
set -u
cli=$1
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

# Whether --transfer $1 with KeyGen on $2 can be built with the peripheral as the server.
buildable() {
    case $1 in
    study) [ "$2" = peripheral ] ;;
    notify/write-req | notify/write-cmd | notify/long-write) true ;;
    indicate/write-req | indicate/write-cmd | indicate/long-write) true ;;
    *) false ;;
    esac
}

# advise: every recommendation of the issue's question, JSON members transfer and
# keygen_side.
"$cli" advise --battery-mah 225 --min-level 3 --max-latency-ms 4000 --format json > "$out" 2> "$err" ||
    fail "advise exited $?: $(cat "$err")"
n=0
for tk in $(sed -n 's/.*"link": "ble",.*"transfer": "\([^"]*\)",.*"keygen_side": "\([a-z]*\)".*/\1:\2/p' "$out"); do
    n=$((n + 1))
    buildable "${tk%:*}" "${tk#*:}" ||
        fail "advise recommends --transfer ${tk%:*} with KeyGen on the ${tk#*:}, which GATT cannot build"
done
[ "$n" -gt 0 ] || fail "advise printed no BLE recommendation"
# The table says who sends each message how: never the central notifying or indicating,
# never the peripheral writing (the peripheral is the server).
"$cli" advise --battery-mah 225 --min-level 3 --max-latency-ms 4000 > "$out" 2> "$err" ||
    fail "advise (table) exited $?"
grep -q 'central writes' "$out" || fail "advise's table does not say which side writes"
if grep -qE 'central (notifies|indicates)|peripheral writes' "$out"; then
    fail "advise's table has a side sending what its GATT role cannot:"
    grep -E 'central (notifies|indicates)|peripheral writes' "$out"
fi

# refuse WANT_TEXT ARGS...: estimate and simulate exit 2, print nothing on stdout, and their
# message holds WANT_TEXT (with the study's messages, ek and ct, which the text names); with
# --allow-unbuildable both run.
refuse() {
    want=$1
    shift
    for cmd in estimate simulate; do
        "$cli" "$cmd" --protocol study "$@" > "$out" 2> "$err" < /dev/null
        rc=$?
        if [ "$rc" -ne 2 ] || [ -s "$out" ] || ! grep -q -- "$want" "$err"; then
            fail "pqpan $cmd $*: exit $rc, want 2 with '$want'"; cat "$err"
        fi
        "$cli" "$cmd" --protocol study "$@" --allow-unbuildable > "$out" 2> "$err" < /dev/null ||
            fail "pqpan $cmd $* --allow-unbuildable: exit $?: $(cat "$err")"
    done
}
accept() {
    for cmd in estimate simulate; do
        "$cli" "$cmd" "$@" > "$out" 2> "$err" < /dev/null || fail "pqpan $cmd $*: exit $?: $(cat "$err")"
    done
}
refuse "the central, the GATT client, would send ek by notifications" --transfer notify --keygen-side central
refuse "the central, the GATT client, would send ct by notifications" --transfer notify
refuse "the peripheral, the GATT server, would send ek by Write Requests" --transfer write-req
refuse "the central, the GATT client, would send ek by indications" --transfer study --keygen-side central
refuse "the peripheral, the GATT client, would send ek by notifications" --transfer notify --gatt-server central
accept
accept --transfer notify/write-cmd --keygen-side central
accept --transfer indicate/long-write --att-mtu 247
accept --transfer study --keygen-side central --gatt-server central
accept --protocol study --transfer notify/write-req --keygen-side central --kem ML-KEM-512
# pqpan's protocol (the default) names its messages
for cmd in estimate simulate; do
    "$cli" "$cmd" --transfer notify --keygen-side central > "$out" 2> "$err" < /dev/null
    grep -q "the central, the GATT client, would send INIT and FIN by notifications" "$err" ||
        fail "$cmd --transfer notify --keygen-side central: $(cat "$err")"
done

# sweep: every row kept, the unbuildable ones with their reason and no figures (a quoted
# CSV field, its commas kept: the reason is reduced to its first word before splitting).
"$cli" sweep --transfer notify,study,notify/write-cmd --keygen-side peripheral,central \
    --format csv > "$out" 2> "$err" || fail "sweep exited $?: $(cat "$err")"
got=$(sed 's/"\(unbuildable\): [^"]*"/\1/' "$out" |
    awk -F, 'NR > 1 { s = ($3 == "ok" || $3 == "unbuildable") ? $3 : "other: " $3
                        printf "%s%s:%s:%s", sep, $4, $5, s; sep = " " }')
want="notify:peripheral:unbuildable notify:central:unbuildable study:peripheral:ok study:central:unbuildable notify/write-cmd:peripheral:ok notify/write-cmd:central:ok"
[ "$got" = "$want" ] || fail "sweep rows '$got', want '$want'"
exit $status
