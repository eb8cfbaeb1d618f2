#!/bin/sh
# estimate and simulate refuse a link that cannot hold, with the same reason, before any
# work (pqpan_ble_config_fault; issue 15): an interval off the 1.25 ms grid, an event
# longer than the interval, and a PDU that no event holds (ML-KEM-1024 over S8 at 7.5 ms
# with 251-octet PDUs: estimate used to print figures and simulate to end in a
# supervision timeout). A connMaxTxTime limit that makes the PDU fit is accepted by both.
# $1 = pqpan binary, $2 = source dir, $3 = build dir.
set -u
cli=$1
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
status=0
# refuse WANT_TEXT ARGS...: both commands exit 2, print nothing on stdout, name the rule.
refuse() {
    want=$1
    shift
    for cmd in estimate simulate; do
        "$cli" "$cmd" "$@" > "$out" 2> "$err" < /dev/null
        rc=$?
        if [ "$rc" -ne 2 ] || [ -s "$out" ] || ! grep -q -- "$want" "$err"; then
            echo "FAIL: pqpan $cmd $*: exit $rc, want 2 with '$want'"; cat "$err"; status=1
        fi
    done
}
accept() {
    for cmd in estimate simulate; do
        if ! "$cli" "$cmd" "$@" > "$out" 2> "$err" < /dev/null; then
            echo "FAIL: pqpan $cmd $*: refused"; cat "$err"; status=1
        fi
    done
}
refuse "multiple of 1.25 ms" --ci-ms 8
refuse "multiple of 1.25 ms" --initial-ci-ms 31
refuse "longer than the connection interval" --ci-ms 10 --event-len-ms 12
refuse "17.654 ms, longer than a connection event (7.35 ms" --kem ML-KEM-1024 --phy S8 \
    --ci-ms 7.5 --ll-octets 251 --att-mtu 517 --transfer notify/write-cmd
refuse "longer than a connection event (1 ms: --event-len-ms)" --ll-octets 251 --event-len-ms 1
accept --ci-ms 10 --event-len-ms 10
accept --initial-ci-ms 31 --conn-update off
accept --kem ML-KEM-1024 --phy S8 --ci-ms 7.5 --ll-octets 251 --att-mtu 517 --transfer notify/write-cmd \
    --max-tx-time-us 3000
[ "$status" -eq 0 ] && echo "estimate and simulate refuse the same links, with the reason"
exit $status
