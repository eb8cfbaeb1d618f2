#!/bin/sh
# pqpan reproduce --out DIR writes the CSVs, the gnuplot data/scripts and SVG + PNG figures.
# $1 = pqpan binary, $2 = source dir, $3 = build dir. Exit 77 (skip) without gnuplot.
set -u
cli=$1
command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot not installed"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$cli" reproduce --format csv --out "$dir/figs" > "$dir/stdout.csv" || { echo "reproduce failed"; exit 1; }
for f in reproduce.csv headline.csv bars.dat bars.gp bars.svg bars.png \
         ll_sweep.dat ll_sweep.gp ll_sweep.svg ll_sweep.png; do
    [ -s "$dir/figs/$f" ] || { echo "missing or empty: $f"; exit 1; }
done
cmp -s "$dir/stdout.csv" "$dir/figs/reproduce.csv" || { echo "reproduce.csv differs from stdout"; exit 1; }
grep -q '<svg' "$dir/figs/bars.svg" || { echo "bars.svg is not SVG"; exit 1; }
head -c 8 "$dir/figs/ll_sweep.png" | od -An -tx1 | grep -q '89 50 4e 47' || { echo "ll_sweep.png is not PNG"; exit 1; }
# 225 LL sizes (27..251) plus the comment line; 8 bars (3 levels x 2 + 2 baselines)
[ "$(wc -l < "$dir/figs/ll_sweep.dat")" -eq 226 ] || { echo "ll_sweep.dat: wrong line count"; exit 1; }
[ "$(grep -c '^"' "$dir/figs/bars.dat")" -eq 8 ] || { echo "bars.dat: wrong bar count"; exit 1; }
# energy falls from LL 27 to LL 251 for every level
awk 'NR==2 { for (i = 2; i <= 4; i++) a[i] = $i } END { for (i = 2; i <= 4; i++) if ($i >= a[i]) exit 1 }' \
    "$dir/figs/ll_sweep.dat" || { echo "energy does not fall with LL size"; exit 1; }
echo "reproduce figures ok"
