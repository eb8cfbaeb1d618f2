#!/bin/sh
# The connection-event count is one number under one name (issue 15; docs/MODEL.md
# "Connection events: the count"): for the same configuration on a perfect channel,
# estimate's conn_events (every side, table CSV and JSON), simulate's conn_events (every
# side and its simulation object) and simulate's table line agree.
# $1 = pqpan binary, $2 = source dir, $3 = build dir.
set -u
cli=$1
status=0
py=/usr/bin/python3
[ -x "$py" ] || py=python3
# counts CMD ARGS...: every conn_events figure the command prints, one per line.
counts() {
    cmd=$1
    shift
    "$cli" "$cmd" "$@" --format json | "$py" -c '
import json, sys
d = json.load(sys.stdin)
for s in d["sides"]:
    print(s["conn_events"])
if "simulation" in d:
    print(d["simulation"]["conn_events"])'
    "$cli" "$cmd" "$@" --format csv | "$py" -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
assert rows and list(rows[0]).count("conn_events") == 1, "one conn_events column"
for r in rows:
    print(r["conn_events"])'
    "$cli" "$cmd" "$@" | sed -n 's/^connection events, first to last *\([0-9]*\) *\([0-9]*\) *\([0-9]*\)$/\1\n\2\n\3/p'
    "$cli" "$cmd" "$@" | sed -n 's/^  connection events \([0-9]*\),.*/\1/p'
}
check() {
    est=$(counts estimate --protocol pqpan "$@" | sort -u)
    sim=$(counts simulate "$@" | sort -u)
    n=$(printf '%s\n%s\n' "$est" "$sim" | sort -u | wc -l)
    if [ -z "$est" ] || [ "$n" -ne 1 ]; then
        echo "FAIL: $*: estimate conn_events '$est', simulate '$sim'"
        status=1
    else
        echo "ok: $*: conn_events $est"
    fi
}
check
check --kem ML-KEM-1024 --ci-ms 7.5
check --ll-octets 251 --phy 2M
check --keygen-side central --gatt-server central --auth sig-mutual --hybrid p256
exit $status
