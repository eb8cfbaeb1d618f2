#!/bin/sh
# pqpan reproduce --out DIR writes the CSVs and, per reading, the gnuplot data/scripts and
# SVG + PNG figures. $1 = pqpan binary, $2 = source dir, $3 = build dir. Exit 77 (skip)
# without gnuplot.
set -u
cli=$1
command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot not installed"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$cli" reproduce --format csv --out "$dir/figs" > "$dir/stdout.csv" || { echo "reproduce failed"; exit 1; }
cmp -s "$dir/stdout.csv" "$dir/figs/reproduce.csv" || { echo "reproduce.csv differs from stdout"; exit 1; }
for f in reproduce.csv headline.csv; do
    [ -s "$dir/figs/$f" ] || { echo "missing or empty: $f"; exit 1; }
done
# 4 headline figures per reading, each line naming its reading
[ "$(grep -c '^defaults,' "$dir/figs/headline.csv")" -eq 4 ] || { echo "headline.csv: defaults lines"; exit 1; }
[ "$(grep -c '^study,' "$dir/figs/headline.csv")" -eq 4 ] || { echo "headline.csv: study lines"; exit 1; }
for r in defaults study; do
    for f in bars_$r.dat bars_$r.gp bars_$r.svg bars_$r.png \
             ll_sweep_$r.dat ll_sweep_$r.gp ll_sweep_$r.svg ll_sweep_$r.png; do
        [ -s "$dir/figs/$f" ] || { echo "missing or empty: $f"; exit 1; }
    done
    grep -q '<svg' "$dir/figs/bars_$r.svg" || { echo "bars_$r.svg is not SVG"; exit 1; }
    head -c 8 "$dir/figs/ll_sweep_$r.png" | od -An -tx1 | grep -q '89 50 4e 47' || { echo "ll_sweep_$r.png is not PNG"; exit 1; }
    # 225 LL sizes (27..251) plus the comment line; 8 bars (3 levels x 2 + 2 baselines)
    [ "$(wc -l < "$dir/figs/ll_sweep_$r.dat")" -eq 226 ] || { echo "ll_sweep_$r.dat: wrong line count"; exit 1; }
    [ "$(grep -c '^"' "$dir/figs/bars_$r.dat")" -eq 8 ] || { echo "bars_$r.dat: wrong bar count"; exit 1; }
    # energy falls from LL 27 to LL 251 for every level
    awk 'NR==2 { for (i = 2; i <= 4; i++) a[i] = $i } END { for (i = 2; i <= 4; i++) if ($i >= a[i]) exit 1 }' \
        "$dir/figs/ll_sweep_$r.dat" || { echo "ll_sweep_$r: energy does not fall with LL size"; exit 1; }
done
# --reading study writes only the study reading's figures
"$cli" reproduce --reading study --out "$dir/one" > /dev/null || { echo "reproduce --reading study failed"; exit 1; }
[ -s "$dir/one/bars_study.svg" ] && [ ! -e "$dir/one/bars_defaults.dat" ] || { echo "--reading study: wrong figure set"; exit 1; }
echo "reproduce figures ok"
