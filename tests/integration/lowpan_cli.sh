#!/bin/sh
# pqpan estimate/simulate --link 802154 through the CLI:
#  1. the analytic estimate and the mean of simulated runs agree within 1 % (two nodes,
#     no background load: the simulator's only randomness is the backoff);
#  2. seeded runs with contention are reproducible byte for byte (stdout and pcap);
#  3. an option of simulate --link 802154 given last, without its value, says so;
#  4. compare: the same seed gives the same CSV twice.
# usage: lowpan_cli.sh CLI SRCDIR BUILDDIR
set -eu
cli=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

field() { # FILE KEY: the number after "KEY": in a JSON file (first match)
    sed -n "s/.*\"$2\": *{\"mean\": *\([0-9.]*\).*/\1/p; s/^ *\"$2\": *\([0-9.]*\),*\$/\1/p" "$1" | head -n 1
}

for kem in ML-KEM-512 ML-KEM-1024; do
    "$cli" estimate --link 802154 --kem $kem --format csv > "$work/est.csv" || fail "estimate $kem"
    est=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "e_total_events_uj") c = i }
                   $1 == "total" { print $c }' "$work/est.csv")
    "$cli" simulate --link 802154 --kem $kem --runs 300 --seed 7 --format json > "$work/sim.json" ||
        fail "simulate $kem"
    sim=$(field "$work/sim.json" energy_total_uj)
    awk -v a="$est" -v b="$sim" 'BEGIN { d = (a - b) / a; if (d < 0) d = -d; exit !(a > 0 && d < 0.01) }' ||
        fail "$kem: analytic $est uJ vs simulated mean $sim uJ differ by 1 % or more"
    echo "$kem: analytic $est uJ, simulated mean $sim uJ"
done

args="simulate --link 802154 --nodes 12 --load 20 --frame-bytes 80 --runs 5 --seed 42 --format json"
"$cli" $args --pcap "$work/a.pcap" > "$work/a.json" || fail "simulate with load"
"$cli" $args --pcap "$work/b.pcap" > "$work/b.json" || fail "simulate with load (again)"
cmp "$work/a.json" "$work/b.json" || fail "same seed, different output"
cmp "$work/a.pcap" "$work/b.pcap" || fail "same seed, different pcap"
[ "$(od -An -tu4 -j20 -N4 "$work/a.pcap" | tr -d ' ')" -eq 195 ] || fail "pcap link type is not 195"
"$cli" $args --seed 43 > "$work/c.json" || fail "simulate seed 43"
! cmp -s "$work/a.json" "$work/c.json" || fail "different seeds, same output"
echo "seeded runs reproducible (json and pcap), other seed differs"

for opt in --nodes --load --hidden --capture --reasm-timeout --dgram-retries --runs --pcap; do
    if "$cli" simulate --link 802154 $opt > /dev/null 2> "$work/err"; then fail "$opt without a value accepted"; fi
    grep -q -- "$opt needs a value" "$work/err" || fail "$opt without a value: $(cat "$work/err")"
done
for opt in --runs --seed --out; do
    if "$cli" compare $opt > /dev/null 2> "$work/err"; then fail "compare $opt without a value accepted"; fi
    grep -q -- "$opt needs a value" "$work/err" || fail "compare $opt without a value: $(cat "$work/err")"
done
echo "options without a value are named as such"

"$cli" compare --runs 4 --seed 9 --format csv > "$work/c1.csv" || fail "compare"
"$cli" compare --runs 4 --seed 9 --format csv > "$work/c2.csv" || fail "compare (again)"
cmp "$work/c1.csv" "$work/c2.csv" || fail "compare: same seed, different output"
[ "$(wc -l < "$work/c1.csv")" -eq 16 ] || fail "compare: want a header and 15 rows"
echo "compare reproducible"
