#!/bin/sh
# The installed package, used as a C user would: `cmake --install` into a temporary prefix,
# then tests/install/example.c built with pkg-config (shared and --static) and with CMake's
# find_package(pqpan CONFIG) (pqpan::pqpan, pqpan::pqpan_static), each run; likewise
# tests/install/example_io.c with libpqpan-io (pkg-config pqpan-io, pqpan::pqpan_io,
# pqpan::pqpan_io_static): a built-in profile and an installed profile file loaded through
# pqpan/io.h, one exchange priced with each, both figures equal to the installed `pqpan
# estimate`'s for the same settings; the shared library records its libm dependency; the man page renders without warnings and holds
# every command's help text.
# $1 = pqpan binary, $2 = source dir, $3 = build dir.
set -u
src=$2
build=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; fail "cmake --install"; }
lib=$(ls "$tmp"/prefix/lib*/libpqpan.so 2>/dev/null | head -n 1)
[ -n "$lib" ] || fail "no libpqpan.so installed"
readelf -d "$lib" | grep -q 'NEEDED.*libm\.so' || fail "libpqpan.so does not record libm"

pcdir=$(dirname "$(ls "$tmp"/prefix/lib*/pkgconfig/pqpan.pc)")
export PKG_CONFIG_PATH="$pcdir"
cflags=$(pkg-config --cflags pqpan) || fail "pkg-config --cflags"
libs=$(pkg-config --libs pqpan) || fail "pkg-config --libs"
# shellcheck disable=SC2086
cc -std=c11 -Wall -Werror $cflags -o "$tmp/ex_pc" "$src/tests/install/example.c" $libs ||
    fail "build with pkg-config (shared)"
LD_LIBRARY_PATH=$(dirname "$lib") "$tmp/ex_pc" > "$tmp/out_pc" || fail "run (pkg-config, shared)"
grep -q '^sha3-256(abc) ok$' "$tmp/out_pc" || fail "wrong output (pkg-config, shared)"
libs_static=$(pkg-config --static --libs pqpan) || fail "pkg-config --static --libs"
# shellcheck disable=SC2086
cc -std=c11 -Wall -Werror $cflags -o "$tmp/ex_pc_static" "$src/tests/install/example.c" \
    "$(dirname "$lib")/libpqpan.a" $(echo $libs_static | sed 's/-lpqpan//') ||
    fail "build with pkg-config --static"
"$tmp/ex_pc_static" > "$tmp/out_static" || fail "run (static)"

cmake -S "$src/tests/install" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
    > "$tmp/cmake.log" 2>&1 || { cat "$tmp/cmake.log"; fail "find_package(pqpan CONFIG)"; }
cmake --build "$tmp/cmake" > "$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "CMake build"; }
LD_LIBRARY_PATH=$(dirname "$lib") "$tmp/cmake/example" > "$tmp/out_cmake" || fail "run (CMake, shared)"
"$tmp/cmake/example_static" > "$tmp/out_cmake_static" || fail "run (CMake, static)"
cmp -s "$tmp/out_pc" "$tmp/out_cmake" || fail "pkg-config and CMake builds print different things"
cmp -s "$tmp/out_pc" "$tmp/out_cmake_static" || fail "static and shared builds differ"

# libpqpan-io: what `pqpan estimate --protocol study` prints for the peripheral, then the
# example built four ways must print the same.
profile_file=$tmp/prefix/share/pqpan/profiles/cc2340r5.json
[ -f "$profile_file" ] || fail "no data files installed"
cli_figures() { # $1 label, $2... estimate options
    label=$1
    shift
    "$tmp/prefix/bin/pqpan" estimate --protocol study "$@" --format json > "$tmp/est.json" ||
        fail "pqpan estimate $*"
    e=$(sed -n 's/^ *"e_total_uj": \([0-9.]*\),$/\1/p' "$tmp/est.json" | head -n 1)
    t=$(sed -n 's/^ *"latency_ms": \([0-9.]*\),$/\1/p' "$tmp/est.json" | head -n 1)
    [ -n "$e" ] && [ -n "$t" ] || fail "no e_total_uj / latency_ms in pqpan estimate $*"
    echo "$label e_total_uj $e latency_ms $t"
}
{ cli_figures builtin --profile nrf52840; cli_figures file --profile "$profile_file"; } > "$tmp/want_io"
iocflags=$(pkg-config --cflags pqpan-io) || fail "pkg-config --cflags pqpan-io"
iolibs=$(pkg-config --libs pqpan-io) || fail "pkg-config --libs pqpan-io"
# shellcheck disable=SC2086
cc -std=c11 -Wall -Werror $iocflags -o "$tmp/io_pc" "$src/tests/install/example_io.c" $iolibs ||
    fail "build example_io with pkg-config (shared)"
iolibs_static=$(pkg-config --static --libs pqpan-io) || fail "pkg-config --static --libs pqpan-io"
# shellcheck disable=SC2086
cc -std=c11 -Wall -Werror $iocflags -o "$tmp/io_pc_static" "$src/tests/install/example_io.c" \
    "$(dirname "$lib")/libpqpan-io.a" "$(dirname "$lib")/libpqpan.a" \
    $(echo $iolibs_static | sed 's/-lpqpan-io//; s/-lpqpan//') ||
    fail "build example_io with pkg-config --static"
for prog in io_pc io_pc_static cmake/example_io cmake/example_io_static; do
    LD_LIBRARY_PATH=$(dirname "$lib") "$tmp/$prog" "$profile_file" > "$tmp/got_io" ||
        fail "run $prog"
    cmp -s "$tmp/want_io" "$tmp/got_io" ||
        { diff "$tmp/want_io" "$tmp/got_io"; fail "$prog differs from pqpan estimate"; }
done

man=$tmp/prefix/share/man/man1/pqpan.1
[ -s "$man" ] || fail "no man page installed"
groff -man -Tutf8 -ww -z "$man" 2> "$tmp/groff.log" || fail "groff failed"
[ ! -s "$tmp/groff.log" ] || { cat "$tmp/groff.log"; fail "groff warnings"; }
"$tmp/prefix/bin/pqpan" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }' > "$tmp/commands"
[ -s "$tmp/commands" ] || fail "no command list"
while read -r c; do
    grep -q "^\.SS $c\$" "$man" || fail "man page lacks command $c"
    "$tmp/prefix/bin/pqpan" help "$c" | head -n 1 > "$tmp/first"
    grep -qF "$(cat "$tmp/first")" "$man" || fail "man page lacks the help text of $c"
done < "$tmp/commands"
echo "install ok: $(cat "$tmp/out_pc" "$tmp/want_io" | tr '\n' ' ')"
