#!/bin/sh
# The generated regions of docs/*.md (scripts/gen_docs.sh) match what the CLI prints now:
# regenerates them in a copy of docs/ and fails naming every region that differs, with
# the difference. Fix: `make docs`, then read the diff and commit it.
# $1 = pqpan binary, $2 = source dir, $3 = build dir.
set -u
cli=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/docs"
cp "$src"/docs/*.md "$tmp/docs/"
"$src/scripts/gen_docs.sh" "$cli" "$tmp" || { echo "scripts/gen_docs.sh failed"; exit 1; }

# The lines of region $2 in file $1 (markers excluded).
region() {
    awk -v want="$2" '
    /^ *<!-- gen:[a-z0-9_]+ -->$/ { name = $2; sub(/^gen:/, "", name); inside = (name == want); next }
    /^ *<!-- \/gen -->$/ { inside = 0 }
    inside { print }
    ' "$1"
}

status=0
regions=0
for doc in "$src"/docs/*.md; do
    base=$(basename "$doc")
    for name in $(sed -n 's/^ *<!-- gen:\([a-z0-9_]*\) -->$/\1/p' "$doc"); do
        regions=$((regions + 1))
        region "$doc" "$name" > "$tmp/committed"
        region "$tmp/docs/$base" "$name" > "$tmp/fresh"
        if ! cmp -s "$tmp/committed" "$tmp/fresh"; then
            echo "docs/$base: region $name is stale (run \`make docs\`):"
            diff "$tmp/committed" "$tmp/fresh"
            status=1
        fi
    done
    if [ "$status" -eq 0 ] && ! cmp -s "$doc" "$tmp/docs/$base"; then
        echo "docs/$base: differs outside the regions after regeneration (a marker problem?)"
        diff "$doc" "$tmp/docs/$base"
        status=1
    fi
done
[ "$regions" -gt 0 ] || { echo "no generated regions found in docs/*.md"; exit 1; }
[ "$status" -eq 0 ] && echo "docs fresh: $regions regions"
exit "$status"
