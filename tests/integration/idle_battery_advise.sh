#!/bin/sh
# pqpan idle --exchange-uj gives advise's battery figures: for advise's recommendation
# (BLE, the default idle link; 802.15.4, the sleepy device's polls), idle with the same
# battery options, the recommendation's energy of the battery side (energy_device_uj) and
# the time advise charges it (the exchange and, over BLE, the link switch there and back)
# prints the same idle, drain, rekeying and total currents and the same battery life
# (advise: life_days; idle: life_years, days / 365.25), to the printed precision.
# Usage: idle_battery_advise.sh CLI SRCDIR BUILDDIR.
set -u
cli=$1
status=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
battery="--battery-mah 225 --rekey-every 1h --app-ua 1.5 --self-discharge-pct-year 1 --battery-derate 0.9"

# compare NAME ADVISE_JSON IDLE_JSON
compare() {
    python3 - "$@" <<'PY' || status=1
import json, sys
name, adv, idle = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
want, got = adv["recommendations"][0]["battery"][0], idle["battery"]
bad = []
currents = ("idle_current_ua", "drain_ua", "rekey_current_ua", "avg_current_ua", "usable_uc")
lives = (("life_days", "life_years"), ("life_idle_days", "life_idle_years"))
for field in currents:
    if abs(want[field] - got[field]) > 1e-6 * max(1.0, abs(want[field])):
        bad.append("%s: advise %s, idle %s" % (field, want[field], got[field]))
for days, years in lives:
    if abs(want[days] / 365.25 - got[years]) > 1e-4:
        bad.append("%s: advise %s days, idle %s years" % (years, want[days], got[years]))
for b in bad:
    print("FAIL %s: %s" % (name, b))
print("%s: life %.4f years, %d figures compared with advise's" % (name, got["life_years"],
                                                               len(currents) + len(lives)))
sys.exit(1 if bad else 0)
PY
}

# shellcheck disable=SC2086
"$cli" advise $battery --format json --top 1 > "$tmp/ble.json" || { echo "FAIL: advise exited $?"; exit 1; }
set -- $(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["recommendations"][0]
s = r["switching"]
print(r["energy_device_uj"], "%.3f" % (r["exchange_latency_ms"] + s["time_there_ms"] + s["time_back_ms"]))' "$tmp/ble.json")
# shellcheck disable=SC2086
"$cli" idle $battery --exchange-uj "$1" --exchange-ms "$2" --format json > "$tmp/idle.json" ||
    { echo "FAIL: idle exited $?"; exit 1; }
compare ble "$tmp/ble.json" "$tmp/idle.json"

# shellcheck disable=SC2086
"$cli" advise --link 802154 $battery --format json --top 1 > "$tmp/lp.json" ||
    { echo "FAIL: advise --link 802154 exited $?"; exit 1; }
set -- $(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["recommendations"][0]
print(r["energy_device_uj"], "%.3f" % r["exchange_latency_ms"], r["addressing"], "%.3f" % r["poll_ms"])' "$tmp/lp.json")
# shellcheck disable=SC2086
"$cli" idle --link 802154 $battery --exchange-uj "$1" --exchange-ms "$2" --addr "$3" --poll-ms "$4" \
    --format json > "$tmp/lpidle.json" || { echo "FAIL: idle --link 802154 exited $?"; exit 1; }
compare 802154 "$tmp/lp.json" "$tmp/lpidle.json"
exit $status
