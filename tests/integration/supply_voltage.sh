#!/bin/sh
# --supply-v and --ram-retained-kb (issue 32 item 4; docs/MODEL.md "Supply voltage and sleep
# retention"), checked against hand computations from the 3.0 V run. The nrf52840 profile's
# currents are its PS figures at 3 V; the active ones are behind the DC/DC (I x 3.0/V), the
# sleep current behind the LDO (the same at any V). So at V:
#   idle:     charge per event = charge(3.0) x 3.0/V; the sleep charge is the same
#   estimate: every energy but sleep is the same (charge x V, charge x 3.0/V);
#             the sleep energy is sleep(3.0) x V/3.0
#   advise:   the idle current is idle's average current at the same V
#   retention: sleep at K kB = 1.50 + (3.16 - 1.50) x K/256 uA (ION_RAMOFF_RTC, ION_RAMON_RTC)
# and a voltage outside 1.7..3.6 V is refused, exit 2, naming the range.
# $1 = pqpan binary, $2 = source dir, $3 = build dir.
set -u
cli=$1
py=/usr/bin/python3
[ -x "$py" ] || py=python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

for v in 2.7 3.0 3.3; do
    "$cli" idle --supply-v "$v" --format json > "$work/idle_$v.json" || { echo "FAIL: idle $v"; exit 1; }
    "$cli" estimate --supply-v "$v" --format json > "$work/est_$v.json" || { echo "FAIL: estimate $v"; exit 1; }
    "$cli" advise --supply-v "$v" --top 1 --format json > "$work/adv_$v.json" || { echo "FAIL: advise $v"; exit 1; }
done
for k in 0 128 256; do
    "$cli" idle --ram-retained-kb "$k" --format json > "$work/ram_$k.json" || { echo "FAIL: ram $k"; exit 1; }
done

"$py" - "$work" <<'EOF' || status=1
import json, os, sys
w = sys.argv[1]
def load(name):
    return json.load(open(os.path.join(w, name)))
bad = 0
def close(what, got, want, tol):
    global bad
    if abs(got - want) > tol:
        bad = 1
        print("FAIL: %s: %.6f, by hand %.6f" % (what, got, want))
def sleep_uc(d):
    return next(p["charge_uc"] for p in d["phases"] if p["phase"] == "sleep")
base_idle, base_est = load("idle_3.0.json"), load("est_3.0.json")
for v in (2.7, 3.3):
    i = load("idle_%s.json" % v)
    if abs(i["supply_v"] - v) > 1e-9:
        bad = 1
        print("FAIL: idle %s says supply_v %s" % (v, i["supply_v"]))
    # printed to 4 decimals: a rounding of 5e-5 on each side
    close("idle %s V charge per event" % v, i["charge_per_event_uc"],
          base_idle["charge_per_event_uc"] * 3.0 / v, 2e-4)
    close("idle %s V sleep charge" % v, sleep_uc(i), sleep_uc(base_idle), 1e-4)
    e = load("est_%s.json" % v)
    for s, b in zip(e["sides"], base_est["sides"]):
        close("estimate %s V %s sleep energy" % (v, s["side"]), s["e_ev_sleep_uj"],
              b["e_ev_sleep_uj"] * v / 3.0, 2e-3)
        close("estimate %s V %s events energy without sleep" % (v, s["side"]),
              s["e_total_events_uj"] - s["e_ev_sleep_uj"],
              b["e_total_events_uj"] - b["e_ev_sleep_uj"], 5e-3)
        close("estimate %s V %s bits energy" % (v, s["side"]), s["e_total_uj"], b["e_total_uj"],
              5e-3)
    a = load("adv_%s.json" % v)
    close("advise %s V idle current" % v, a["idle"]["peripheral_ua"], i["avg_current_ua"], 2e-4)
for k in (0, 128, 256):
    r = load("ram_%d.json" % k)
    close("sleep current at %d kB retained" % k, r["sleep_ua"], 1.50 + (3.16 - 1.50) * k / 256.0,
          1e-4)
sys.exit(bad)
EOF

# Outside the device's range: exit 2 and a message naming the range, nothing on stdout.
for cmd in idle estimate advise; do
    "$cli" $cmd --supply-v 6.0 > "$work/out" 2> "$work/err"
    rc=$?
    if [ $rc -ne 2 ] || [ -s "$work/out" ] || ! grep -q "outside nrf52840's supply range 1.70..3.60 V" "$work/err"; then
        echo "FAIL: $cmd --supply-v 6.0: exit $rc, stderr: $(cat "$work/err")"; status=1
    fi
done
# A profile with no supply section prices its own voltage only.
"$cli" idle --profile cc2340r5 --supply-v 3.3 > /dev/null 2> "$work/err"
rc=$?
if [ $rc -ne 2 ] || ! grep -q "gives no supply range" "$work/err"; then
    echo "FAIL: cc2340r5 --supply-v 3.3: exit $rc, stderr: $(cat "$work/err")"; status=1
fi
"$cli" idle --ram-retained-kb 300 > /dev/null 2> "$work/err"
rc=$?
if [ $rc -ne 2 ] || ! grep -q "outside nrf52840's retention table, 0..256 kB" "$work/err"; then
    echo "FAIL: --ram-retained-kb 300: exit $rc, stderr: $(cat "$work/err")"; status=1
fi
exit $status
