#!/bin/sh
# Options and inputs that change nothing are said on stderr (issue 15), the run goes on
# (exit 0): --load with 2 nodes, --baseline-percentile without --baseline-ua auto,
# --segments without --phases, a trace with a header only, an 802.15.4 --busy under which
# the exchange practically never gets the channel. The usual runs say nothing.
# $1 = pqpan binary, $2 = source dir, $3 = build dir.
set -u
cli=$1
src=$2
err=$(mktemp)
hdr=$(mktemp)
trap 'rm -f "$err" "$hdr"' EXIT
printf 'Timestamp(ms),Current(uA),D0-D7\n' > "$hdr"
trace="$src/tests/fixtures/calibrate/peripheral_1.csv"
status=0
# warns WANT_TEXT ARGS...: exit 0, a warning holding WANT_TEXT; quiet ARGS...: no warning.
warns() {
    want=$1
    shift
    "$cli" "$@" > /dev/null 2> "$err" < /dev/null
    rc=$?
    if [ "$rc" -ne 0 ] || ! grep -q "warning: " "$err" || ! grep -qF -- "$want" "$err"; then
        echo "FAIL: pqpan $*: exit $rc, want 0 and 'warning: $want'"; cat "$err"; status=1
    fi
}
quiet() {
    "$cli" "$@" > /dev/null 2> "$err" < /dev/null
    if [ $? -ne 0 ] || grep -q warning "$err"; then
        echo "FAIL: pqpan $*: a warning or a failure"; cat "$err"; status=1
    fi
}
warns "--load has no effect with --nodes 2" simulate --link 802154 --load 5 --runs 1
quiet simulate --link 802154 --nodes 3 --load 5 --runs 1
warns "--baseline-percentile has no effect" trace "$trace" --baseline-percentile 20
quiet trace "$trace" --baseline-ua auto --baseline-percentile 20
warns "without --phases there are none" trace "$trace" --segments
quiet trace "$trace" --segments --phases d0=crypto
warns "has no samples" trace "$hdr"
warns "every frame gets the channel with probability" estimate --link 802154 --busy 0.99
quiet estimate --link 802154 --busy 0.2
[ "$status" -eq 0 ] && echo "no-op options and empty inputs warn; usual runs are quiet"
exit $status
