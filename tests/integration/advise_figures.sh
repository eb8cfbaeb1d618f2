#!/bin/sh
# pqpan advise --out DIR: the figures' data and gnuplot scripts, for two constraint sets.
#  1. advise_front.dat is the JSON's pareto_front, point for point; its latency rises and
#     its energy falls strictly along it;
#  2. no point of advise_points.dat, and no other front point, dominates a front point
#     (at least as good in both, better in one), and every point of advise_points.dat and
#     every recommendation of the JSON is weakly dominated by a front point; the cheapest
#     front point is recommendation 1;
#  3. advise_pareto.gp plots every block of advise_points.dat under its level's name and the
#     front, into advise_pareto.svg/.png: read back by gnuplot itself (stats ... index N),
#     the block a title names holds that level's points (its least energy is the level's best
#     in the JSON's "levels"), at every --min-level (before issue 27 an empty ML-KEM-512 block
#     shifted gnuplot's index: the ML-KEM-1024 points were titled ML-KEM-768);
#  4. advise_ll.dat has one block per ML-KEM level with the LL sizes of the search grid
#     (docs/CLI.md "Search space") and, per level, its least energy is that level's best in
#     the JSON's "levels"; advise_ll.gp plots the three blocks into advise_ll.svg/.png, read
#     back by gnuplot as the Pareto blocks.
# Exit 77 (skip) without gnuplot. Usage: advise_figures.sh CLI SRCDIR BUILDDIR.
set -u
cli=$1
command -v gnuplot > /dev/null 2>&1 || { echo "gnuplot not installed"; exit 77; }
status=0
fail() { echo "FAIL: $*"; status=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "latency energy" lines of the JSON's pareto_front, recommendations, or levels.
json_front() {
    sed -n 's/^    {"id": [0-9]*, "latency_ms": \([0-9.]*\), "objective_uj": \([0-9.]*\)}.*/\1 \2/p' "$1"
}
json_recommendations() {
    sed -n 's/.*"objective_uj": \([0-9.]*\), "latency_ms": \([0-9.]*\), "exchange_latency_ms".*/\2 \1/p' "$1"
}
json_level_energy() { # FILE KEM
    sed -n "s/.*\"kem\": \"$2\", .*\"found\": true, \"objective_uj\": \([0-9.]*\),.*/\1/p" "$1"
}

# The front's order, and dominance against the FILE of "latency energy" lines $2, where
# WANT says whether each of its points must be weakly dominated by a front point.
check_dominance() { # NAME FILE WANT_COVERED
    awk -v name="$1" -v covered="$3" '
        FNR == NR { fl[++nf] = $1; fe[nf] = $2; next }
        /^#/ || NF < 2 { next }
        {
            for (i = 1; i <= nf; i++) {
                if ($1 <= fl[i] && $2 <= fe[i] && ($1 < fl[i] || $2 < fe[i])) {
                    printf "%s: (%s ms, %s uJ) dominates front point %d (%s ms, %s uJ)\n",
                        name, $1, $2, i, fl[i], fe[i]; bad = 1
                }
            }
            if (covered) {
                hit = 0
                for (i = 1; i <= nf && !hit; i++) if (fl[i] <= $1 && fe[i] <= $2) hit = 1
                if (!hit) { printf "%s: no front point covers (%s ms, %s uJ)\n", name, $1, $2; bad = 1 }
            }
            n++
        }
        END { if (nf == 0 || n == 0) { print name ": empty"; bad = 1 }; exit bad }' \
        "$tmp/front" "$2"
}

# gnuplot's own reading of block INDEX of FILE, column COL: "records least" (an index past
# the last block is an error gnuplot reports).
gp_block() { # FILE INDEX COL
    (cd "$(dirname "$1")" && gnuplot -e "stats '$(basename "$1")' index $2 using $3 nooutput; print sprintf('%d %.3f', STATS_records, STATS_min)") 2>&1
}

# Every "index N ... title 'T'" plot of GP over DAT (column COL) reads, in gnuplot, a block
# whose least value is level T's best in the JSON; for LL also every level is plotted.
check_plots() { # NAME GP DAT COL
    grep -o "'$(basename "$3")' index [0-9]*[^,]* title '[^']*'" "$2" |
        sed "s/.* index \([0-9]*\) .* title '\([^']*\)'/\1 \2/" > "$tmp/plots"
    [ -s "$tmp/plots" ] || { fail "$1: $(basename "$2") plots nothing"; return; }
    while read -r idx title; do
        case $title in ML-KEM-*) ;; *) continue ;; esac
        got=$(gp_block "$3" "$idx" "$COL")
        best=$(json_level_energy "$tmp/json" "$title")
        least=${got#* }
        [ -n "$best" ] && [ "$least" = "$best" ] ||
            fail "$1: $(basename "$2") plots index $idx as $title, which gnuplot reads as '$got' (the level's best: '$best')"
    done < "$tmp/plots"
}

# check NAME ADVISE_ARGS...: one run with --out, its JSON alongside.
check() {
    name=$1
    shift
    out="$tmp/$name"
    "$cli" advise --out "$out" --format json --top 50 "$@" > "$tmp/json" ||
        { fail "$name: advise exited $?"; return; }
    for f in advise_points.dat advise_front.dat advise_pareto.gp advise_pareto.svg \
        advise_pareto.png advise_ll.dat advise_ll.gp advise_ll.svg advise_ll.png; do
        [ -s "$out/$f" ] || fail "$name: no $f"
    done
    # 1. the .dat front = the JSON front; strictly monotone
    grep -v '^#' "$out/advise_front.dat" > "$tmp/front"
    json_front "$tmp/json" > "$tmp/jfront"
    cmp -s "$tmp/front" "$tmp/jfront" || fail "$name: advise_front.dat differs from the JSON's pareto_front"
    awk -v name="$name" 'NR > 1 && !($1 > l && $2 < e) {
            printf "%s: front not monotone at line %d\n", name, NR; bad = 1 }
        { l = $1; e = $2 } END { exit bad }' "$tmp/front" || status=1
    # 2. dominance: the plotted points, the front itself, the recommendations
    check_dominance "$name points" "$out/advise_points.dat" 1 || status=1
    check_dominance "$name front" "$tmp/front" 1 || status=1
    json_recommendations "$tmp/json" > "$tmp/recs"
    check_dominance "$name recommendations" "$tmp/recs" 1 || status=1
    [ "$(tail -n 1 "$tmp/front" | awk '{ print $2 }')" = "$(head -n 1 "$tmp/recs" | awk '{ print $2 }')" ] ||
        fail "$name: the cheapest front point is not recommendation 1"
    # 3. the Pareto script: each level's plot reads that level's block, as gnuplot reads it
    COL=2 check_plots "$name" "$out/advise_pareto.gp" "$out/advise_points.dat"
    nblocks=$(grep -c '^# [M8]' "$out/advise_points.dat")
    nplots=$(grep -o "'advise_points.dat' index" "$out/advise_pareto.gp" | wc -l)
    [ "$nblocks" -eq "$nplots" ] || fail "$name: $nblocks named blocks, $nplots plotted"
    grep -q "'advise_front.dat' with linespoints .* title 'Pareto front'" "$out/advise_pareto.gp" ||
        fail "$name: advise_pareto.gp does not plot the front"
    grep -q "set output 'advise_pareto.'.t" "$out/advise_pareto.gp" || fail "$name: advise_pareto.gp output"
    # 4. energy against LL size: the grid per level (the block a comment names), each
    #    level's plot read back by gnuplot
    for kem in ML-KEM-512 ML-KEM-768 ML-KEM-1024; do
        got=$(awk -v want="# $kem" '$0 == want { on = 1; next } on && NF == 0 { exit }
            on { printf "%s ", $1 }' "$out/advise_ll.dat")
        [ "$got" = "$ll_grid" ] || fail "$name: $kem LL sizes '$got', want '$ll_grid'"
        grep -q "'advise_ll.dat' index [0-9]* using 1:2 with linespoints [^,]* title '$kem'" "$out/advise_ll.gp" ||
            fail "$name: advise_ll.gp does not plot $kem"
    done
    COL=2 check_plots "$name" "$out/advise_ll.gp" "$out/advise_ll.dat"
    echo "$name: front of $(wc -l < "$tmp/front") points = the JSON's, non-dominated by the $(grep -c '^[0-9]' "$out/advise_points.dat") plotted points, covers them and $(wc -l < "$tmp/recs") recommendations; LL figure: $ll_grid per level"
}

ll_grid="27 59 91 123 155 187 219 251 "
check defaults
check min-level-3 --min-level 3
check min-level-5 --min-level 5
ll_grid="27 59 91 100 123 155 187 200 "
check constrained --min-level 3 --max-latency-ms 800 --battery-side central --idle-ci-ms 50 \
    --idle-ll-octets 100 --peer-max-ll-octets 200 --peer-phys 1M,2M --link both
exit $status
