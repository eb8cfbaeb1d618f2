#!/bin/sh
# Fails if the public headers show the layout of the estimator's memo (issue 28 item 4):
# every struct the private header src/ble/estimate_memo.h defines must be unknown to a
# program that sees only include/, and struct pqpan_ble_estimate_cache must have no member
# but its opaque storage. A positive control checks that the probe compiles at all.
set -eu
cc=$1
root=$2
priv="$root/src/ble/estimate_memo.h"
probe=$(mktemp "${TMPDIR:-/tmp}/memo_opaque.XXXXXX.c")
trap 'rm -f "$probe"' EXIT
compiles() {
    printf '#include "pqpan/pqpan.h"\n%s\n' "$1" >"$probe"
    "$cc" -std=c11 -fsyntax-only -I "$root/include" "$probe" 2>/dev/null
}
if ! compiles 'static struct pqpan_ble_estimate_cache memo; void *p = &memo;'; then
    echo "control: a program declaring struct pqpan_ble_estimate_cache does not compile"; exit 1
fi
names=$(sed -n 's/^struct \(pqpan_[a-z0-9_]*\) {.*/\1/p' "$priv")
if [ -z "$names" ]; then
    echo "no struct found in $priv"; exit 1
fi
bad=0
for n in $names; do
    if compiles "static struct $n probe; void *p = &probe;"; then
        echo "public headers define struct $n (the memo's layout)"; bad=1
    fi
done
for m in hits misses slot exchange plan timing last out stores; do
    if compiles "unsigned long n = sizeof ((struct pqpan_ble_estimate_cache *)0)->$m;"; then
        echo "struct pqpan_ble_estimate_cache has a public member $m"; bad=1
    fi
done
[ "$bad" -eq 0 ] && echo "memo layout private: $(echo $names | wc -w) structs unknown to include/"
exit "$bad"
