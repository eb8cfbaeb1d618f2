#!/bin/sh
# Output that cannot be written is exit 4 with a message, never a success: every command's
# standard output sent to /dev/full (a device whose writes fail with ENOSPC).
# $1 = pqpan binary, $2 = source dir, $3 = build dir.
set -u
cli=$1
src=$2
[ -w /dev/full ] || { echo "no /dev/full"; exit 77; }
err=$(mktemp)
trap 'rm -f "$err"' EXIT
status=0
check() {
    "$cli" "$@" > /dev/full 2> "$err" < /dev/null
    rc=$?
    if [ "$rc" -ne 4 ]; then
        echo "FAIL: pqpan $* > /dev/full: exit $rc, want 4"; status=1
    elif ! grep -q 'cannot write' "$err"; then
        echo "FAIL: pqpan $* > /dev/full: no message"; status=1
    fi
}
check --help
check --version
check estimate
check estimate --format json
check estimate --link 802154
check kem keygen --param ML-KEM-768
check reproduce
check idle --format csv
check profiles show nrf52840
check trace "$src/tests/fixtures/calibrate/peripheral_1.csv"
check simulate --seed 1
check help estimate
check advise --top 1
# advise checks its standard output before any work: its --out directory is not even made
rc=0
"$cli" advise --top 1 --out "$err.figures" > /dev/full 2> /dev/null || rc=$?
if [ "$rc" -ne 4 ] || [ -e "$err.figures" ]; then
    echo "FAIL: pqpan advise --out DIR > /dev/full: exit $rc (want 4), DIR made: $([ -e "$err.figures" ] && echo yes || echo no)"
    status=1
fi
rm -rf "$err.figures"
[ "$status" -eq 0 ] && echo "every command: exit 4 when its output cannot be written"
exit $status
