#!/bin/sh
# Fails if a static library (libpqpan.a, libpqpan-io.a) defines a global symbol without the
# pqpan_ prefix (STYLE.md habit 2).
set -eu
lib=$1
# Under ASan each exported global variable also gets an ODR indicator "__odr_asan.NAME"
# (libpqpan-io's pqpan_embedded_files): accepted when NAME is prefixed.
bad=$(nm -g --defined-only "$lib" | awk 'NF == 3 { print $3 }' |
      grep -v -e '^pqpan_' -e '^__odr_asan\.pqpan_' || true)
count=$(nm -g --defined-only "$lib" | awk 'NF == 3' | wc -l)
if [ -n "$bad" ]; then
    echo "exported symbols without the pqpan_ prefix:"; echo "$bad"; exit 1
fi
if [ "$count" -eq 0 ]; then
    echo "no exported symbols found in $lib"; exit 1
fi
echo "$count exported symbols, all prefixed pqpan_"
