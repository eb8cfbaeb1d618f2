#!/bin/sh
# One set of defaults (issue 27 item 8): an option that has the same name and takes the
# same values (kind, unit, range, words, what it is said to allow) has one default in every
# command (`pqpan help --json`); the defaults stated there are rows of the library's table
# (`help --json`'s "defaults"), each with its why and each some option's default;
# estimate, simulate and sweep run the same protocol when none is given; `pqpan idle`
# prices the idle link advise assumes (the same options, the same defaults).
# $1 = pqpan binary, $2 = source dir, $3 = build dir.
set -u
cli=$1
py=/usr/bin/python3
[ -x "$py" ] || py=python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
"$cli" help --json > "$work/help.json" || { echo "FAIL: help --json"; exit 1; }
"$py" - "$work/help.json" <<'EOF' || status=1
import json, sys
d = json.load(open(sys.argv[1]))
seen = {}
bad = 0
for c in d["commands"]:
    for g in c["groups"]:
        for o in g["table"]["options"]:
            words = tuple(o["words"]) if o["words"] is not None else None
            key = (o["name"], o["kind"], o["unit"], o["min"], o["max"], o["open"], words,
                   o["allowed"])
            where = "%s (%s)" % (c["name"], g["table"]["id"])
            seen.setdefault(key, {}).setdefault((o["default"], o["default_note"]), []).append(where)
for key, defaults in sorted(seen.items(), key=lambda kv: str(kv[0])):
    if len(defaults) > 1:
        bad = 1
        print("FAIL: %s has %d defaults:" % (key[0], len(defaults)))
        for (value, note), where in defaults.items():
            print("   %r / %r in %s" % (value, note, ", ".join(where)))
table = d.get("defaults")
if table is None:
    print("FAIL: help --json has no \"defaults\" (the library's table)")
    sys.exit(1)
rows = {(r["option"], r["value"], r["note"]) for r in table}
for key, defaults in seen.items():
    for (value, note), where in defaults.items():
        if (value, note) != (None, None) and (key[0], value, note) not in rows:
            bad = 1
            print("FAIL: %s default %r / %r (%s) is not a row of the library's table"
                  % (key[0], value, note, where[0]))
used = {(key[0], value, note) for key, defaults in seen.items() for (value, note) in defaults}
for r in table:
    if not r["why"]:
        bad = 1
        print("FAIL: the default of %s says no why" % r["option"])
    if (r["option"], r["value"], r["note"]) not in used:
        bad = 1
        print("FAIL: the library's default of %s (%r / %r) is no option's"
              % (r["option"], r["value"], r["note"]))
sys.exit(bad)
EOF

# The protocol each command runs when none is given.
protocol() {
    "$cli" "$@" --format json | "$py" -c '
import json, sys
print(json.load(sys.stdin)["sides"][0]["protocol"])'
}
est=$(protocol estimate)
sim=$(protocol simulate)
swp=$("$cli" sweep --kem ML-KEM-768 --format jsonl | "$py" -c '
import json, sys
print(json.loads(sys.stdin.readline())["protocol"])')
if [ "$est" != "$sim" ] || [ "$est" != "$swp" ]; then
    echo "FAIL: default protocol: estimate $est, simulate $sim, sweep $swp"; status=1
fi

# The idle link: idle and advise take it under the same names with the same defaults, and
# idle prices the interval its help states.
"$py" - "$work/help.json" <<'EOF' || status=1
import json, sys
d = json.load(open(sys.argv[1]))
def options(cmd):
    c = next(c for c in d["commands"] if c["name"] == cmd)
    return {o["name"]: o for g in c["groups"] for o in g["table"]["options"]}
idle, advise = options("idle"), options("advise")
bad = 0
for name in ("--idle-phy", "--idle-ci-ms", "--idle-latency"):
    if name not in idle or name not in advise:
        print("FAIL: %s is not an option of both idle and advise" % name)
        bad = 1
    elif idle[name]["default"] != advise[name]["default"]:
        print("FAIL: %s: idle %s, advise %s" % (name, idle[name]["default"],
                                               advise[name]["default"]))
        bad = 1
sys.exit(bad)
EOF
want=$("$py" -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = next(c for c in d["commands"] if c["name"] == "idle")
print(next(o["default"] for g in c["groups"] for o in g["table"]["options"]
           if o["name"] == "--idle-ci-ms"))' "$work/help.json" 2> /dev/null)
got=$("$cli" idle --format json | "$py" -c '
import json, sys
print("%g" % json.load(sys.stdin)["ci_ms"])')
if [ "$got" != "$want" ]; then
    echo "FAIL: pqpan idle prices a $got ms interval, its --idle-ci-ms default is '$want'"
    status=1
fi
exit $status
