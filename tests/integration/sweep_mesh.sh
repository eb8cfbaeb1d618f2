#!/bin/sh
# pqpan sweep --link ble-mesh (BLE Mesh provisioning) through the CLI:
#  1. every row equals `pqpan estimate --link ble-mesh --format csv` for the options in its
#     in_ columns, field by field (the configuration's fields once, the others as
#     <side>_<field>); a field of the other bearer is empty; a refused configuration's
#     status is the message estimate exits 2 with. The grid is generated from `pqpan help
#     --json`: each option row sweep takes on --link ble-mesh (but --link and the options
#     without a fixed set of values), at two of its values (a word list's first two, a
#     number's ends), beside both bearers and every --kem;
#  2. --jobs 1 and --jobs 2 write the same bytes (CSV and JSON Lines), and shards merged
#     in any order give the whole sweep's file;
#  3. the JSON Lines rows hold the CSV's values;
#  4. no auth column: the PQKE's --auth is --bearer network's alone, which the sweep refuses
#     (the provisioning's authentication is No OOB in every configuration).
# usage: sweep_mesh.sh CLI SRCDIR
set -eu
cli=$1
command -v python3 > /dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$cli" help --json > "$work/help.json"

# 1. rows = estimate, over the generated grid
python3 - "$cli" "$work" << 'EOF' || fail "sweep --link ble-mesh differs from estimate"
import csv, io, json, subprocess, sys

cli, work = sys.argv[1], sys.argv[2]
help_json = json.load(open(work + "/help.json"))
sweep = next(c for c in help_json["commands"] if c["name"] == "sweep")
own = {o["name"] for g in sweep["groups"] if g["link"] is None
       for o in g["table"]["options"] if g["table"]["options"][0]["name"] == "--format"}

# The fields of the configuration: one column each, without a side's prefix.
CONFIG = ("bearer", "kem", "hybrid", "variant", "prov_alg")

def number(x):
    """A number of help --json as an option value: 20.0 as 20."""
    return ("%.6f" % x).rstrip("0").rstrip(".")

def values_of(o):
    """Two values of an option row: a word list's first two, a number's ends."""
    if o["kind"] in ("uint", "int", "number"):
        return [number(o["min"]), number(o["max"])]
    return (o["words"] or [])[:2]

rows_of = []
for g in sweep["groups"]:
    if g["link"] not in (None, "ble-mesh"):
        continue
    for o in g["table"]["options"]:
        name = o["name"]
        if name in own or name == "--link" or (o["kind"] != "flag" and len(values_of(o)) < 2):
            continue
        rows_of.append((name, values_of(o)))
if len(rows_of) < 15:
    sys.exit("only %d option rows of sweep --link ble-mesh found" % len(rows_of))

def estimate(args):
    p = subprocess.run([cli, "estimate"] + args + ["--format", "csv"], capture_output=True,
                       text=True)
    if p.returncode == 0:
        return "ok", list(csv.DictReader(io.StringIO(p.stdout)))
    if p.returncode != 2:
        sys.exit("estimate %s: exit %d" % (" ".join(args), p.returncode))
    return p.stderr.splitlines()[0].replace("pqpan estimate: ", "", 1), None

configs = compared = refused = whole = 0
for name, values in rows_of:
    grid = ["--link", "ble-mesh"]
    if name != "--bearer":
        grid += ["--bearer", "pb-adv,pb-gatt"]
    if name != "--kem":
        grid += ["--kem", "all"]
    grid += [name, ",".join(values)]
    p = subprocess.run([cli, "sweep"] + grid + ["--jobs", "2"], capture_output=True, text=True)
    if p.returncode == 2:  # a value refused before any row (an energy option): estimate too
        if all(estimate(["--link", "ble-mesh", name, v])[1] is not None for v in values):
            sys.exit("sweep %s refused, estimate takes every value" % " ".join(grid))
        whole += 1
        continue
    if p.returncode != 0:
        sys.exit("sweep %s: exit %d: %s" % (" ".join(grid), p.returncode, p.stderr))
    for row in csv.DictReader(io.StringIO(p.stdout)):
        args = []
        for column, value in row.items():
            if column.startswith("in_"):
                args += ["--" + column[3:].replace("_", "-"), value]
        status, sides = estimate(args)
        configs += 1
        if row["status"] != status:
            sys.exit("status: sweep %r, estimate %r for %s" % (row["status"], status, args))
        if sides is None:
            refused += 1
            if any(v for k, v in row.items() if not k.startswith("in_") and
                   k not in ("config", "configs", "status")):
                sys.exit("a refused row with results: %s" % args)
            continue
        seen = set()
        for side in sides:
            for field, value in side.items():
                if field == "side":
                    continue
                column = field if field in CONFIG else side["side"] + "_" + field
                if row.get(column) != value:
                    sys.exit("%s: sweep %r, estimate %r for %s" % (column, row.get(column),
                                                                    value, args))
                seen.add(column)
                compared += 1
        empty = [k for k, v in row.items() if k not in seen and not k.startswith("in_") and
                 k not in ("config", "configs", "status") and v != ""]
        if empty or len(seen) < 45:
            sys.exit("columns not from estimate %s (%d compared) for %s" % (empty, len(seen), args))
if refused == 0 or refused == configs:
    sys.exit("%d of %d configurations refused: the grid should hold both" % (refused, configs))
print("rows = estimate: %d configurations over %d option rows (%d refused), %d fields "
      "compared; %d lists refused whole, as estimate refuses a value" % (configs, len(rows_of),
                                                                         refused, compared, whole))
EOF

# 2. threads and shards
big="--link ble-mesh --bearer pb-adv,pb-gatt --kem all --hybrid all --prov-alg all --att-mtu 23,69,247"
for fmt in csv jsonl; do
    # shellcheck disable=SC2086
    "$cli" sweep $big --format $fmt --jobs 1 > "$work/j1.$fmt"
    # shellcheck disable=SC2086
    "$cli" sweep $big --format $fmt --jobs 2 > "$work/j2.$fmt"
    cmp -s "$work/j1.$fmt" "$work/j2.$fmt" || fail "--jobs 1 and --jobs 2 differ ($fmt)"
    for k in 1 2 3 4 5; do
        # shellcheck disable=SC2086
        "$cli" sweep $big --format $fmt --shard $k/5 --out "$work/part$k.$fmt"
    done
    "$cli" sweep merge --out "$work/merged.$fmt" "$work/part4.$fmt" "$work/part1.$fmt" \
        "$work/part5.$fmt" "$work/part3.$fmt" "$work/part2.$fmt"
    cmp -s "$work/merged.$fmt" "$work/j1.$fmt" || fail "merged shards differ from the whole sweep ($fmt)"
    # shellcheck disable=SC2086
    "$cli" sweep $big --format $fmt --valid-only > "$work/valid.$fmt"
    "$cli" sweep merge --valid-only "$work"/part*."$fmt" > "$work/mvalid.$fmt"
    cmp -s "$work/mvalid.$fmt" "$work/valid.$fmt" || fail "merge --valid-only differs ($fmt)"
done
echo "--jobs 1 = --jobs 2, shards 1..5 merged (shuffled) = the whole sweep: $(wc -l < "$work/j1.jsonl") configurations, CSV and JSON Lines"

# 3. JSON Lines = CSV
python3 - "$work" << 'EOF' || fail "JSON Lines and CSV differ"
import csv, json, sys
work = sys.argv[1]
rows = list(csv.DictReader(open(work + "/j1.csv")))
lines = [json.loads(line) for line in open(work + "/j1.jsonl")]
if len(rows) != len(lines):
    sys.exit("%d CSV rows, %d JSON lines" % (len(rows), len(lines)))
for row, line in zip(rows, lines):
    if list(row) != list(line):
        sys.exit("columns differ")
    for k, v in row.items():
        j = line[k]
        text = "" if j is None else j if isinstance(j, str) else None
        if text is None:
            if float(v) != float(j):
                sys.exit("%s: CSV %s, JSON %s" % (k, v, j))
        elif text != v:
            sys.exit("%s: CSV %r, JSON %r" % (k, v, j))
if "auth" in rows[0] or "auth" in lines[0]:
    sys.exit("an auth column on --link ble-mesh")
print("JSON Lines = CSV: %d rows, no auth column" % len(rows))
EOF
