#!/bin/sh
# pqpan advise --link 802154 --hops H against estimate and a brute force through sweep:
#  1. every recommendation the answer ranks, run through its own `pqpan estimate` line
#     (reproduce_estimate: --hops and --forwarding included), gives the device's energy (the
#     initiator's node 0 when the device runs KeyGen, else the responder's node H), the
#     peer's (the other end), each forwarder's (nodes 1 .. H - 1) and the latency the answer
#     prints;
#  2. no configuration of the search space is cheaper for the device: `pqpan sweep --link
#     802154 --hops H` over the space docs/CLI.md states (every level from --min-level x
#     extended and short addresses x the --auth modes and --hybrid), each row counted twice
#     (the device at either end of the chain), gives as many configurations within
#     --max-latency-ms as advise's "feasible", and the least device energy among them
#     (chain_initiator_uj or chain_responder_uj) and its latency are advise's first choice;
# for three option sets (per-hop reassembly, fragment forwarding on a busy channel with a
# latency limit, and Contiki's CSMA with MAC security and P-256).
# usage: advise_hops.sh CLI SRCDIR
set -eu
cli=$1
command -v python3 > /dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }

python3 - "$cli" << 'EOF'
import csv, io, json, subprocess, sys

cli = sys.argv[1]
LEVELS = {1: "ML-KEM-512", 3: "ML-KEM-768", 5: "ML-KEM-1024"}


def run(args):
    p = subprocess.run([cli] + args, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("pqpan %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr))
    return p.stdout


def check_recommendation(r, hops, name):
    """1. the recommendation = estimate of its own command line."""
    if r["hops"] != hops or "--hops %d" % hops not in r["reproduce_estimate"]:
        sys.exit("%s: rank %d: hops %s, command %s" % (name, r["rank"], r["hops"],
                                                      r["reproduce_estimate"]))
    est = json.loads(run(r["reproduce_estimate"].split()[1:] + ["--format", "json"]))
    nodes = {n["node"]: n["e_total_events_uj"] for n in est["nodes"]}
    device = 0 if r["keygen_side"] == "device" else hops
    peer = hops - device
    want = [nodes[device], nodes[peer], [nodes[k] for k in range(1, hops)],
            est["chain"]["latency_ms"]]
    got = [r["energy_device_uj"], r["energy_peer_uj"], r["forwarders_uj"], r["latency_ms"]]
    if got != want:
        sys.exit("%s: rank %d: advise (device, peer, forwarders, latency) %s, %s gives %s" %
                 (name, r["rank"], got, r["reproduce_estimate"], want))


def brute_force(answer, args, hops, name):
    """2. the sweep of the space: the count within the latency limit and the optimum."""
    opt = dict(zip(args[::2], args[1::2]))
    kems = ",".join(k for c, k in sorted(LEVELS.items()) if c >= int(opt.get("--min-level", 1)))
    sweep = ["sweep", "--link", "802154", "--kem", kems, "--addr", "all",
             "--auth", opt.get("--auth", "psk,kem-auth-mutual,sig-mutual"),
             "--hybrid", opt.get("--hybrid", "none"), "--idle", "listen",
             "--hops", str(hops), "--format", "csv"]
    for key in ("--forwarding", "--backoff", "--busy", "--csma", "--mac-security"):
        if key in opt:
            sweep += [key, opt[key]]
    limit = float(opt.get("--max-latency-ms", 0))
    feasible, best = 0, None
    for row in csv.DictReader(io.StringIO(run(sweep))):
        if row["status"] != "ok":
            sys.exit("%s: sweep row %s: %s" % (name, row["config"], row["status"]))
        latency = float(row["chain_latency_ms"])
        if limit and latency > limit:
            continue
        for end in ("chain_initiator_uj", "chain_responder_uj"):
            feasible += 1
            point = (float(row[end]), latency)
            best = point if best is None or point < best else best
    first = answer["recommendations"][0]
    if feasible != answer["feasible"]:
        sys.exit("%s: advise counts %d feasible, the sweep %d" % (name, answer["feasible"],
                                                                 feasible))
    if best != (first["objective_uj"], first["latency_ms"]):
        sys.exit("%s: the sweep's cheapest for the device %s (uJ, ms), advise's %s" %
                 (name, best, (first["objective_uj"], first["latency_ms"])))
    return feasible, best


SETS = [
    ("3 hops, per-hop reassembly", 3, []),
    ("5 hops, fragment forwarding, busy 0.1, <= 900 ms", 5,
     ["--forwarding", "fragment", "--busy", "0.1", "--min-level", "3",
      "--max-latency-ms", "900", "--auth", "psk,kem-auth-mutual"]),
    ("2 hops, Contiki CSMA, enc-mic32, P-256", 2,
     ["--csma", "contiki", "--mac-security", "enc-mic32", "--auth", "psk", "--hybrid", "p256"]),
]
for name, hops, args in SETS:
    answer = json.loads(run(["advise", "--link", "802154", "--hops", str(hops), "--sed-idle",
                             "listen", "--backoff", "listen", "--top", "5", "--format", "json"]
                            + args))
    if answer["chain"]["hops"] != hops:
        sys.exit("%s: advise's chain %s" % (name, answer["chain"]))
    for r in answer["recommendations"]:
        check_recommendation(r, hops, name)
    feasible, best = brute_force(answer, args, hops, name)
    print("advise --hops %d (%s): %d recommendations = estimate; %d configurations within the "
          "limits, none cheaper than %.3f uJ (%.3f ms)" %
          (hops, name, len(answer["recommendations"]), feasible, best[0], best[1]))
EOF
