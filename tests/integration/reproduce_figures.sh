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
# modes.csv: per reading, 3 levels x 2 DLE settings x every mode alone and hybrid x 2
# sides; the plain mode none rows are the reference (x_none 1), psk costs what none costs
# (same messages, the same Keccak permutations), every other mode costs more than none of
# the same suite, and the hybrid suite more than the plain one.
modes="$dir/figs/modes.csv"
[ -s "$modes" ] || { echo "missing or empty: modes.csv"; exit 1; }
awk -F, '
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{
    h = $col["hybrid"]
    key = $col["reading"] SUBSEP $col["kem"] SUBSEP $col["dle"] SUBSEP $col["side"]
    e[key, h, $col["mode"]] = $col["e_total_uj"]; n[$col["reading"]]++; modes[$col["mode"]] = 1
    if ($col["mode"] == "none" && h == 0 && $col["x_none"] != 1) bad = bad " none-ref"
    if ($col["x_lesc"] <= 0) bad = bad " x_lesc"
    keys[key] = 1
}
END {
    for (k in keys) {
        for (h = 0; h < 2; h++) {
            if (e[k, h, "psk"] != e[k, h, "none"]) bad = bad " psk"
            for (m in modes) if (m != "none" && m != "psk" && e[k, h, m] <= e[k, h, "none"]) bad = bad " " m
        }
        for (m in modes) if (e[k, 1, m] <= e[k, 0, m]) bad = bad " hybrid-" m
    }
    nm = 0; for (m in modes) nm++
    if (n["defaults"] != 24 * nm || n["study"] != 24 * nm) bad = bad " rows"
    if (bad != "") { print "modes.csv:" bad; exit 1 }
    print "modes.csv: " nm " modes, alone and hybrid, " n["defaults"] " rows per reading"
}' "$modes" || exit 1
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
