#!/bin/sh
# Usage errors name what is allowed (issue 15): an unknown --link, a bad word or number of
# the BLE and 802.15.4 options, an 802.15.4 option without --link 802154; and
# --NAME=VALUE is the same as --NAME VALUE for every command.
# $1 = pqpan binary, $2 = source dir, $3 = build dir.
set -u
cli=$1
out=$(mktemp)
err=$(mktemp)
alt=$(mktemp)
trap 'rm -f "$out" "$err" "$alt"' EXIT
status=0
# usage WANT_TEXT ARGS...: exit 2 and the message holds WANT_TEXT.
usage() {
    want=$1
    shift
    "$cli" "$@" > "$out" 2> "$err" < /dev/null
    rc=$?
    if [ "$rc" -ne 2 ] || ! grep -qF -- "$want" "$err"; then
        echo "FAIL: pqpan $*: exit $rc, want 2 with '$want'"; cat "$err"; status=1
    fi
}
usage "bad value for --link: 'foo' (want ble or 802154)" estimate --link foo
usage "(want 1M, 2M, S2, S8)" estimate --phy X
usage "(want ML-KEM-512, ML-KEM-768, ML-KEM-1024, LESC-P256)" simulate --kem X
usage "(want an integer in 23..517 octets)" estimate --att-mtu 9
usage "(want 7.5..4000 ms in steps of 1.25)" estimate --ci-ms 5
usage "(want a probability in 0..0.99)" estimate --link 802154 --busy 2
usage "(want ieee, contiki)" estimate --link 802154 --csma x
usage "(want an integer in 2..200)" simulate --link 802154 --nodes 999
usage "--nodes is an option of the IEEE 802.15.4 link: add --link 802154" simulate --nodes 3
usage "--busy is an option of the IEEE 802.15.4 link: add --link 802154" estimate --busy 0.3
# same ARGS...: the output with every "--NAME VALUE" written "--NAME=VALUE" is the same.
same() {
    "$cli" "$@" > "$out" 2>&1 < /dev/null
    rc1=$?
    set -- $(printf '%s\n' "$*" | sed 's/\(--[a-z0-9-]*\) \([^-][^ ]*\)/\1=\2/g')
    "$cli" "$@" > "$alt" 2>&1 < /dev/null
    rc2=$?
    if [ "$rc1" -ne "$rc2" ] || ! cmp -s "$out" "$alt"; then
        echo "FAIL: pqpan $*: not the same as with separate values (exit $rc1 / $rc2)"; status=1
    fi
}
same estimate --ci-ms 30 --format csv
same estimate --link 802154 --busy 0.2 --format json
same simulate --per 0.1 --seed 2 --format csv
same kem keygen --param ML-KEM-512 --d 0000000000000000000000000000000000000000000000000000000000000000 --z 0000000000000000000000000000000000000000000000000000000000000000
same idle --idle-ci-ms 100
# points WANT_EXIT HELP ARGS...: a refused run exits WANT_EXIT, its last stderr line the
# pointer to `pqpan help` (HELP 1) exactly when it is a usage error (cli_run_status), for
# every command on the run layer, whether or not the error names an option.
points() {
    want=$1
    help=$2
    shift 2
    "$cli" "$@" > "$out" 2> "$err" < /dev/null
    rc=$?
    last=$(tail -n 1 "$err")
    case $last in "Try 'pqpan help "*) got=1 ;; *) got=0 ;; esac
    if [ "$rc" -ne "$want" ] || [ "$got" -ne "$help" ]; then
        echo "FAIL: pqpan $*: exit $rc, help pointer $got; want $want, $help"; cat "$err"; status=1
    fi
}
points 2 1 estimate --link 802154 --profile cc2340r5
points 2 1 advise --link 802154 --profile cc2340r5
points 2 1 estimate --att-mtu 600
points 1 0 advise --link 802154 --max-latency-ms 0.001
[ "$status" -eq 0 ] && echo "usage errors name what is allowed; --NAME=VALUE works"
exit $status
