#!/bin/sh
# Every output of a key exchange names the protocol, the authentication mode and the idle
# assumption it used (issue 27 item 8.2): the table's header a line "protocol: P, auth: A;
# idle: ...", the CSV header the columns protocol, auth and idle (compare: idle_802154),
# the JSON the members "protocol", "auth" and "idle"; and the table's line says what the
# JSON says. For estimate, simulate (both links), sweep, reproduce, compare, calibrate and
# advise, with the defaults and with another protocol and mode.
# $1 = pqpan binary, $2 = source dir, $3 = build dir.
set -u
cli=$1
src=$2
py=/usr/bin/python3
[ -x "$py" ] || py=python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
trace=$src/tests/fixtures/calibrate/peripheral_1.csv

# check NAME FORMATS ARGS...: FORMATS a comma list of table, csv, json, jsonl.
check() {
    name=$1 formats=$2
    shift 2
    for f in $(echo "$formats" | tr ',' ' '); do
        if [ "$f" = table ]; then
            "$cli" "$@" > "$work/$f" 2> "$work/err"
        else
            "$cli" "$@" --format "$f" > "$work/$f" 2> "$work/err"
        fi
        rc=$?
        if [ "$rc" -ne 0 ]; then
            echo "FAIL: $name ($f): pqpan $* exited $rc"; cat "$work/err"; status=1
        fi
    done
    "$py" - "$name" "$formats" "$work" <<'EOF' || status=1
import csv, json, re, sys
name, formats, work = sys.argv[1], sys.argv[2].split(","), sys.argv[3]
bad = 0
def fail(msg):
    global bad
    bad = 1
    print("FAIL: %s: %s" % (name, msg))
def members(x, out):
    if isinstance(x, dict):
        for k, v in x.items():
            out.setdefault(k, v)
            members(v, out)
    elif isinstance(x, list):
        for v in x:
            members(v, out)
    return out
found = {}
if "json" in formats:
    found = members(json.load(open(work + "/json")), {})
    for key in ("protocol", "auth", "idle"):
        if key not in found:
            fail("JSON has no \"%s\"" % key)
if "jsonl" in formats:
    found = members([json.loads(l) for l in open(work + "/jsonl")], {})
    for key in ("protocol", "auth", "idle"):
        if key not in found:
            fail("JSON Lines have no \"%s\"" % key)
if "csv" in formats:
    header = next(csv.reader(open(work + "/csv")))
    for key in ("protocol", "auth"):
        if key not in header:
            fail("CSV header has no column %s" % key)
    if not any(h == "idle" or h.startswith("idle_") for h in header):
        fail("CSV header has no idle column")
if "table" in formats:
    lines = [m for m in (re.match(r"^\s*protocol: (\S+), auth: (\S+); idle: (.+)$", l)
                         for l in open(work + "/table")) if m]
    if not lines:
        fail("the table has no line \"protocol: P, auth: A; idle: ...\"")
    elif found:
        if lines[0].group(1) != found.get("protocol"):
            fail("table protocol %s, JSON %s" % (lines[0].group(1), found.get("protocol")))
        if lines[0].group(2) != found.get("auth"):
            fail("table auth %s, JSON %s" % (lines[0].group(2), found.get("auth")))
sys.exit(bad)
EOF
}

check estimate table,csv,json estimate
check "estimate psk" table,csv,json estimate --auth psk --kem ML-KEM-512
check "estimate study" table,csv,json estimate --protocol study
check "estimate 802154" table,csv,json estimate --link 802154
check "estimate 802154 sleep" table,csv,json estimate --link 802154 --idle sleep --auth psk
check simulate table,csv,json simulate
check "simulate study" table,csv,json simulate --protocol study
check "simulate 802154" table,csv,json simulate --link 802154 --runs 3
check sweep csv,jsonl sweep --kem ML-KEM-512,ML-KEM-768 --auth none,psk
check "sweep 802154" csv,jsonl sweep --link 802154 --kem ML-KEM-512 --idle listen,sleep
check reproduce table,csv,json reproduce
check compare table,csv,json compare --runs 2
check calibrate table,csv,json calibrate --protocol study --trace "$trace"
check advise table,json advise --top 1
exit $status
