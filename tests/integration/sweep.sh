#!/bin/sh
# pqpan sweep through the CLI:
#  1. every row equals `pqpan estimate --format csv` for the same options, field by field
#     (BLE and 802.15.4, invalid configurations included: their status is the message
#     estimate prints);
#  2. --jobs 1 and --jobs 2 write the same bytes (CSV and JSON Lines);
#  3. shards merged in any order give the whole sweep's file byte for byte (CSV, JSON
#     Lines, --valid-only), and the docs/CLI.md Slurm script and GNU parallel line do;
#  4. --per with one run equals `pqpan simulate` with the seed the row names;
#  5. SIGINT leaves a valid file: exit 130, renamed into place, the header and complete
#     rows of configurations 0, 1, ... in order;
#  6. the progress line goes to stderr only when it is a terminal;
#  7. a write error is exit 4.
# usage: sweep.sh CLI SRCDIR BUILDDIR
set -eu
cli=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# CSV fields of a line, quotes understood (RFC 4180), one per output line.
csv_split='
function split_csv(line, f,    n, i, c, q, cur) {
    n = 0; cur = ""; q = 0
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (q) {
            if (c == "\"" && substr(line, i + 1, 1) == "\"") { cur = cur "\""; i++ }
            else if (c == "\"") q = 0
            else cur = cur c
        } else if (c == "\"") q = 1
        else if (c == ",") { f[++n] = cur; cur = "" }
        else cur = cur c
    }
    f[++n] = cur
    return n
}'

# 1. rows = estimate. For each row: the estimate options from its in_ columns, then every
# field of estimate's CSV against the sweep's column of that name (<side>_<field> for the
# side rows).
compare_with_estimate() { # SWEEP_CSV
    n=$(($(wc -l < "$1") - 1))
    i=1
    while [ $i -le $n ]; do
        args=$(awk -v row=$((i + 1)) "$csv_split"'
            NR == 1 { nh = split_csv($0, h) }
            NR == row { split_csv($0, v)
                for (k = 1; k <= nh; k++) if (h[k] ~ /^in_/) {
                    o = substr(h[k], 4); gsub(/_/, "-", o); printf "--%s %s ", o, v[k] } }' "$1")
        # shellcheck disable=SC2086
        if "$cli" estimate $args --format csv > "$work/est.csv" 2> "$work/est.err"; then
            want=ok
        else
            want=$(sed -n '1s/^pqpan estimate: //p' "$work/est.err")
        fi
        awk -v row=$((i + 1)) -v want="$want" -v args="$args" "$csv_split"'
            FNR == 1 && NR == 1 { nh = split_csv($0, h); next }
            NR == FNR { if (FNR == row) { split_csv($0, v); for (k = 1; k <= nh; k++) s[h[k]] = v[k] }; next }
            FNR == 1 { ne = split_csv($0, eh); next }
            { split_csv($0, e); side = e[1]
              for (k = 2; k <= ne; k++) {
                  name = (eh[k] in s) ? eh[k] : side "_" eh[k]
                  if (!(name in s)) { print "no column " name; bad = 1 }
                  else if (s[name] != e[k]) { print name ": sweep " s[name] ", estimate " e[k]; bad = 1 }
                  checked++ } }
            END { if (s["status"] != want) { print "status: sweep \"" s["status"] "\", estimate \"" want "\""; bad = 1 }
                  if (want == "ok" && checked < 100) { print "only " checked " fields compared"; bad = 1 }
                  if (bad) { print "for: " args; exit 1 } }' "$1" "$work/est.csv" ||
            fail "row $i of $1 differs from estimate"
        i=$((i + 1))
    done
    echo "rows = estimate: $n configurations of $1 compared field by field"
}

"$cli" sweep --kem ML-KEM-512,LESC-P256 --phy 1M,S8 --ll-octets 27,251 --att-mtu 23,403 \
    --profile nrf52840,cc2340r5 --currents system,radio-only --protocol study,pqpan > "$work/ble.csv"
grep -q ',ok,' "$work/ble.csv" || fail "no valid row"
grep -q 'ATT_MTU' "$work/ble.csv" || fail "no row with an ATT_MTU status"
grep -q 'gives no' "$work/ble.csv" || fail "no row with a missing current"
compare_with_estimate "$work/ble.csv"
"$cli" sweep --link 802154 --kem all --idle all --csma all --tx-dbm 0,8 > "$work/154.csv"
compare_with_estimate "$work/154.csv"

# 2. threads
big="--kem all --phy all --ll-octets 27..251:16 --att-mtu 23,247,403,517 --transfer all --keygen-side all"
for fmt in csv jsonl; do
    # shellcheck disable=SC2086
    "$cli" sweep $big --format $fmt --jobs 1 > "$work/j1.$fmt"
    # shellcheck disable=SC2086
    "$cli" sweep $big --format $fmt --jobs 2 > "$work/j2.$fmt"
    cmp -s "$work/j1.$fmt" "$work/j2.$fmt" || fail "--jobs 1 and --jobs 2 differ ($fmt)"
done
echo "--jobs 1 = --jobs 2: $(wc -l < "$work/j1.jsonl") configurations, CSV and JSON Lines"
# the 802.15.4 chain's columns too (its estimate was one static buffer shared by the
# workers: rows came out mixed, different on each run)
chain="--link 802154 --hops 2..8:1 --kem all --forwarding reassemble,fragment --auth none,kem-auth,sig"
# shellcheck disable=SC2086
"$cli" sweep $chain --format csv --jobs 1 > "$work/c1.csv"
# shellcheck disable=SC2086
"$cli" sweep $chain --format csv --jobs 2 > "$work/c2.csv"
cmp -s "$work/c1.csv" "$work/c2.csv" || fail "--jobs 1 and --jobs 2 differ (802.15.4 chain)"
echo "--jobs 1 = --jobs 2: $(wc -l < "$work/c1.csv") lines of 802.15.4 chains"

# 3. shards: merged in a shuffled order
for fmt in csv jsonl; do
    for k in 1 2 3 4 5 6 7; do
        # shellcheck disable=SC2086
        "$cli" sweep $big --format $fmt --shard $k/7 --jobs 2 --out "$work/part$k.$fmt"
    done
    "$cli" sweep merge --out "$work/merged.$fmt" "$work/part5.$fmt" "$work/part2.$fmt" \
        "$work/part7.$fmt" "$work/part1.$fmt" "$work/part3.$fmt" "$work/part6.$fmt" "$work/part4.$fmt"
    cmp -s "$work/merged.$fmt" "$work/j1.$fmt" || fail "merged shards differ from the whole sweep ($fmt)"
    # shellcheck disable=SC2086
    "$cli" sweep $big --format $fmt --valid-only > "$work/valid.$fmt"
    "$cli" sweep merge --valid-only "$work"/part*."$fmt" > "$work/mvalid.$fmt"
    cmp -s "$work/mvalid.$fmt" "$work/valid.$fmt" || fail "merge --valid-only differs ($fmt)"
done
echo "shards 1..7 merged (shuffled) = the whole sweep, also with --valid-only"

# The Slurm script and the GNU parallel line of docs/CLI.md, as written there.
sed -n '/^#!\/bin\/sh$/,/^```$/p' "$src/docs/CLI.md" | sed '$d' > "$work/sweep.sbatch"
grep -q 'SBATCH --array' "$work/sweep.sbatch" || fail "no Slurm script in docs/CLI.md"
mkdir "$work/bin" "$work/slurm"
ln -s "$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")" "$work/bin/pqpan"
small="--kem all --phy 1M,2M --ll-octets 27..251:32"
(
    cd "$work/slurm"
    for k in 1 2 3 4; do
        # shellcheck disable=SC2086
        PATH="$work/bin:$PATH" SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_COUNT=4 SLURM_CPUS_PER_TASK=2 \
            sh "$work/sweep.sbatch" $small
    done
    PATH="$work/bin:$PATH" pqpan sweep merge --out sweep.csv sweep.*.csv
)
# shellcheck disable=SC2086
"$cli" sweep $small > "$work/small.csv"
cmp -s "$work/slurm/sweep.csv" "$work/small.csv" || fail "the docs' Slurm script does not give the whole sweep"
echo "docs/CLI.md Slurm script: 4 array tasks merged = the whole sweep"
line=$(grep '^parallel pqpan sweep' "$src/docs/CLI.md") || fail "no GNU parallel line in docs/CLI.md"
if command -v parallel > /dev/null 2>&1; then
    mkdir "$work/par"
    (cd "$work/par" && PATH="$work/bin:$PATH" sh -c "$line")
    sweep_args=$(echo "$line" | sed 's/^parallel pqpan sweep \(.*\) --shard.*/\1/')
    # shellcheck disable=SC2086
    "$cli" sweep $sweep_args > "$work/par.csv"
    cmp -s "$work/par/sweep.csv" "$work/par.csv" || fail "the docs' GNU parallel line does not give the whole sweep"
    echo "docs/CLI.md GNU parallel line: merged = the whole sweep"
else
    echo "GNU parallel not installed: its line in docs/CLI.md not run"
fi

# 4. --per with one run: the row's sim_ columns are simulate's run with seed sim_seed.
"$cli" sweep --kem ML-KEM-768 --ll-octets 27,251 --protocol study,pqpan --per 0.05 --runs 1 \
    --seed 40 > "$work/per.csv"
for row in 2 3 4 5; do
    # shellcheck disable=SC2046 # five words: ll_octets, protocol, seed, energy, latency
    set -- $(awk -v row=$row "$csv_split"'
        NR == 1 { nh = split_csv($0, h) }
        NR == row { split_csv($0, v); for (k = 1; k <= nh; k++) s[h[k]] = v[k]
            print s["in_ll_octets"], s["in_protocol"], s["sim_seed"], s["sim_total_energy_mean_uj"], s["sim_latency_p50_ms"] }' "$work/per.csv")
    "$cli" simulate --kem ML-KEM-768 --ll-octets "$1" --protocol "$2" --per 0.05 --seed "$3" \
        --format csv > "$work/sim.csv" || true
    got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "e_total_events_uj") c = i } $1 == "total" { print $c }' "$work/sim.csv")
    [ "$got" = "$4" ] || fail "--per row $row: simulate --seed $3 gives $got uJ, the sweep $4"
    lat=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "latency_ms") c = i } $1 == "total" { print $c }' "$work/sim.csv")
    [ "$lat" = "$5" ] || fail "--per row $row: latency $lat ms against $5"
done
echo "--per: sim_ columns = pqpan simulate with the row's seed"

# 5. SIGINT: a sweep far too long to finish, interrupted once it is writing rows.
"$cli" sweep --kem all --ll-octets 27..251:1 --att-mtu 23..517:1 --ci-ms 7.5..100:1.25 \
    --force --jobs 2 --out "$work/int.csv" 2> "$work/int.err" &
pid=$!
tries=0
until [ "$(cat "$work"/int.csv.tmp.* 2> /dev/null | head -n 3 | wc -l)" -ge 3 ]; do
    tries=$((tries + 1))
    [ $tries -lt 600 ] || { kill $pid; fail "the sweep wrote no rows in 60 s"; }
    sleep 0.1
done
kill -INT $pid
rc=0
wait $pid || rc=$?
[ $rc -eq 130 ] || fail "SIGINT: exit $rc, want 130"
[ -f "$work/int.csv" ] || fail "SIGINT: the output was not renamed into place"
! ls "$work"/int.csv.tmp.* > /dev/null 2>&1 || fail "SIGINT: the temporary file is left"
grep -q 'interrupted' "$work/int.err" || fail "SIGINT: nothing on stderr"
awk "$csv_split"'
    NR == 1 { nh = split_csv($0, h); next }
    { n = split_csv($0, v)
      if (n != nh) { print "line " NR ": " n " fields, the header has " nh; exit 1 }
      if (v[1] != NR - 2) { print "line " NR ": config " v[1] ", want " NR - 2; exit 1 } }
    END { if (NR < 2) { print "no rows"; exit 1 } }' "$work/int.csv" ||
    fail "SIGINT: the file is not the header and complete rows in order"
[ "$(tail -c 1 "$work/int.csv" | od -An -c | tr -d ' ')" = '\n' ] || fail "SIGINT: last row cut short"
echo "SIGINT: exit 130, $(($(wc -l < "$work/int.csv") - 1)) complete rows in order"

# 6. the progress line: on stderr when it is a terminal (script(1) gives a pty), else nothing
"$cli" sweep --kem all --ll-octets 27..251:8 > /dev/null 2> "$work/quiet.err"
[ ! -s "$work/quiet.err" ] || fail "stderr not a terminal, yet: $(cat "$work/quiet.err")"
if command -v script > /dev/null 2>&1; then
    script -qec "$cli sweep --kem all --ll-octets 27..251:8 > /dev/null" /dev/null > "$work/tty.err"
    grep -q 'pqpan sweep: 116/116 configurations, .*/s, ETA 0:00:00' "$work/tty.err" ||
        fail "no progress line on a terminal: $(cat "$work/tty.err")"
    echo "progress line on a terminal only"
fi

# 7. a write error
if [ -w /dev/full ]; then
    rc=0
    "$cli" sweep --kem all --ll-octets 27..251:1 > /dev/full 2> /dev/null || rc=$?
    [ $rc -eq 4 ] || fail "writing to /dev/full: exit $rc, want 4"
    echo "write error: exit 4"
fi
echo "sweep: all checks passed"
