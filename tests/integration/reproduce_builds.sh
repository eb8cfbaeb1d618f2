#!/bin/sh
# pqpan reproduce's table of the sig modes in pqpan's two Cortex-M4 builds (issue 30): every
# row (defaults reading) equals `pqpan estimate` of the same configuration with the build's
# --crypto-impl (the study preset, pqpan's protocol, LL 27 or 251), and x_small is the row
# over the small build's.
# $1 = pqpan binary, $2 = source dir, $3 = build dir.
set -u
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cli" reproduce --reading defaults --format json > "$tmp/r.json" || { echo "reproduce failed"; exit 1; }
python3 - "$cli" "$tmp/r.json" <<'PY'
import csv, io, json, subprocess, sys
cli, path = sys.argv[1], sys.argv[2]
builds = json.load(open(path))["builds"]
assert len(builds) == 3 * 2 * 2 * 2 * 2, len(builds)
bad = 0
small = {}
for b in builds:
    ll = "251" if b["dle"] else "27"
    out = subprocess.run([cli, "estimate", "--kem", b["kem"], "--protocol", "pqpan",
                          "--auth", b["mode"], "--sig", b["sig"], "--transfer", "study",
                          "--ll-octets", ll, "--crypto-impl", b["crypto_impl"],
                          "--format", "csv"], check=True, capture_output=True, text=True).stdout
    rows = {r["side"]: r for r in csv.DictReader(io.StringIO(out))}
    want = float(rows[b["side"]]["e_total_uj"])
    if abs(want - b["e_total_uj"]) > 0.0005:
        print("%s dle %s %s %s %s: reproduce %.3f, estimate %.3f" % (
            b["kem"], b["dle"], b["mode"], b["side"], b["build"], b["e_total_uj"], want))
        bad = 1
    key = (b["kem"], b["dle"], b["mode"], b["side"])
    if b["build"] == "small":
        small[key] = b["e_total_uj"]
    if abs(b["e_total_uj"] / small[key] - b["x_small"]) > 0.00005:
        print("%s: x_small %.4f is not the row over the small build's" % (key, b["x_small"]))
        bad = 1
print("%d rows checked against estimate" % len(builds))
sys.exit(bad)
PY
