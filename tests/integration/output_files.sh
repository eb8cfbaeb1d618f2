#!/bin/bash
# Files written with --out / --pcap / --trace never end truncated under their real name,
# and an output that cannot be written fails before any work (issue 15).
#  - a run killed mid-write (SIGXFSZ from a 1 KiB file-size limit) leaves the previous
#    file intact: the data goes to a temporary name, renamed only when complete;
#  - `compare --out /nonexistent/x`, `simulate --trace /nonexistent/x`, `calibrate --out`
#    into a missing directory: exit 4 and nothing on stdout (before: the whole table, then
#    the failure);
#  - calibrate refuses to write a γ <= 0 (exit 1, reason on stderr, no file), and a
#    calibration file holding a γ the command line refuses (1e300) is refused too.
# $1 = pqpan binary, $2 = source dir.
set -u
cli=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

# A run killed while writing FILE leaves FILE as it was.
killed_mid_write() {
    local file=$1
    shift
    echo "previous contents" > "$file"
    { (ulimit -f 1; exec "$cli" "$@" > /dev/null 2>&1); } 2> /dev/null
    rc=$?
    [ "$rc" -gt 128 ] || fail "pqpan $*: not killed by the file-size limit (exit $rc)"
    echo "previous contents" | cmp -s - "$file" || fail "pqpan $*: $file truncated by a killed run"
    rm -f "$file".tmp.*
}
killed_mid_write "$work/ble.pcap" simulate --seed 1 --pcap "$work/ble.pcap"
killed_mid_write "$work/ble.csv" simulate --seed 1 --trace "$work/ble.csv"
killed_mid_write "$work/lowpan.pcap" simulate --link 802154 --seed 1 --pcap "$work/lowpan.pcap"

# Complete runs rename into place and leave no temporary file.
"$cli" simulate --seed 1 --pcap "$work/ok.pcap" --trace "$work/ok.csv" > /dev/null 2>&1 ||
    fail "simulate --pcap --trace: exit $?"
[ -s "$work/ok.pcap" ] && [ -s "$work/ok.csv" ] || fail "simulate: --pcap/--trace files missing"
! ls "$work"/*.tmp.* > /dev/null 2>&1 || fail "a temporary file is left after a complete run"

# Unwritable outputs: exit 4 before any work, nothing printed.
unwritable() {
    "$cli" "$@" > "$work/stdout" 2> "$work/stderr" < /dev/null
    rc=$?
    [ "$rc" -eq 4 ] || fail "pqpan $*: exit $rc, want 4"
    [ ! -s "$work/stdout" ] || fail "pqpan $*: printed its output before failing"
    grep -q 'cannot' "$work/stderr" || fail "pqpan $*: no message"
}
unwritable compare --runs 1 --out /nonexistent/x
unwritable reproduce --out /nonexistent/x
unwritable simulate --trace /nonexistent/x
unwritable simulate --pcap /nonexistent/x
unwritable simulate --link 802154 --pcap /nonexistent/x
unwritable calibrate --protocol study --trace "$src/tests/fixtures/calibrate/peripheral_1.csv" --out /nonexistent/x
unwritable calibrate --protocol study --trace "$src/tests/fixtures/calibrate/peripheral_1.csv" --out "$work"

# calibrate never writes a γ that estimate would refuse.
"$cli" calibrate --protocol study --trace "$src/tests/fixtures/calibrate/peripheral_1.csv" --baseline-ua 1e9 \
    --out "$work/cal.json" > /dev/null 2> "$work/stderr"
rc=$?
[ "$rc" -eq 1 ] || fail "calibrate --baseline-ua 1e9: exit $rc, want 1"
[ ! -e "$work/cal.json" ] || fail "calibrate --baseline-ua 1e9: wrote a calibration with γ <= 0"
grep -q 'not writing' "$work/stderr" || fail "calibrate --baseline-ua 1e9: no reason given"
"$cli" calibrate --protocol study --trace "$src/tests/fixtures/calibrate/peripheral_1.csv" --out "$work/cal.json" \
    > /dev/null 2>&1 || fail "calibrate --out: exit $?"
"$cli" estimate --calibration "$work/cal.json" > /dev/null 2>&1 ||
    fail "estimate rejects the calibration file calibrate wrote"

# The same bounds from a file as from the command line.
printf '{"format": "pqpan-calibration/1", "gamma_comm": 1e300, "provenance": {"source": "t"}}\n' \
    > "$work/huge.json"
"$cli" estimate --calibration "$work/huge.json" > /dev/null 2>&1
rc=$?
[ "$rc" -eq 3 ] || fail "estimate --calibration with gamma_comm 1e300: exit $rc, want 3"
"$cli" estimate --gamma-comm 1e300 > /dev/null 2>&1
[ $? -eq 2 ] || fail "estimate --gamma-comm 1e300 accepted"

[ "$status" -eq 0 ] && echo "outputs: renamed into place, checked before work; calibrate γ checked"
exit $status
