#!/bin/sh
# Builds the web page (make web, docs/WEB.md) into OUT: libpqpan (src/), libpqpan-io with
# the built-in data files (src/io/load/, data/), the CLI (cli/), and web/pqpan_web.c compiled with
# Debian's Emscripten to pqpan.js + pqpan.wasm, beside the page's own files from web/site/.
#   web/build.sh OUT [JOBS]
# Objects go to OUT.obj/ (kept between builds: a file is recompiled when it is newer than
# its object). The static site in OUT needs nothing from any other host.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
jobs=${2:-2}
obj=$out.obj

if ! command -v emcc >/dev/null 2>&1; then
    echo "make web: emcc not found: install Debian's emscripten (scripts/deps.sh)" >&2
    exit 1
fi
# Debian's Emscripten runs its JS optimizer with node and needs Debian's acorn
# (node-acorn, in /usr/share/nodejs), which a node from elsewhere does not search.
NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
export NODE_PATH
# Emscripten's cache of system libraries: under the build tree when the system one
# cannot be written (a user without root).
if [ ! -w /usr/share/emscripten/cache ]; then
    EM_CACHE=$obj/emcache
    export EM_CACHE
fi

mkdir -p "$out" "$obj"
"$root/web/cjson_src.sh" "$obj/cjson-src"

# The data files the native CLI embeds (cmake/embed.cmake), through the same generator.
files=$(cd "$root" && find data -name '*.json' -o -name '*.csv' | LC_ALL=C sort | paste -sd, -)
cmake -DSRC="$root" -DOUT="$obj/embedded.c.new" "-DFILES=$files" -P "$root/cmake/embed_run.cmake"
if cmp -s "$obj/embedded.c.new" "$obj/embedded.c"; then
    rm -f "$obj/embedded.c.new"
else
    mv "$obj/embedded.c.new" "$obj/embedded.c"
fi

version=$(sed -n 's/^project(pqpan VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")
warn="-Wall -Wextra -Wpedantic -Wconversion -Wshadow -Werror"
common="-O2 -std=c11 -I$root/include -DPQPAN_VERSION_STRING=\"$version\""

# One batch per source folder (one emcc run each: Emscripten's start-up costs more than
# compiling a file), "group kind sources..."; a batch is rebuilt when one of its files
# or a header of include/, src/ or cli/ is newer than its stamp. The library keeps the
# project's warnings; cJSON and the generated table are compiled as they come.
list=$obj/batches.txt
: > "$list"
# src/io/load/ is libpqpan-io (cJSON, the embedded data files): kind io.
for d in $(cd "$root" && find src -name '*.c' -exec dirname {} \; | LC_ALL=C sort -u); do
    kind=lib
    [ "$d" = src/io/load ] && kind=io
    echo "$(echo "$d" | tr / _) $kind $(ls "$root/$d"/*.c | paste -sd' ' -)" >> "$list"
done
echo "cli cli $(ls "$root"/cli/*.c | grep -v '/main\.c$' | paste -sd' ' -)" >> "$list"
# cli/main.c unchanged, its main renamed: web/pqpan_web.c's main calls it.
echo "cli_main main $root/cli/main.c" >> "$list"
echo "web cli $root/web/pqpan_web.c" >> "$list"
echo "ext ext $obj/cjson-src/cjson/cJSON.c $obj/embedded.c" >> "$list"
export root obj common warn
xargs -P "$jobs" -L 1 sh -c '
    group=$0 kind=$1
    shift
    dir=$obj/$group
    mkdir -p "$dir"
    stale=0
    [ -f "$dir/stamp" ] || stale=1
    for f in "$@"; do [ "$f" -nt "$dir/stamp" ] && stale=1; done
    [ $stale = 1 ] || [ -z "$(find "$root/include" "$root/src" "$root/cli" -name "*.h" -newer "$dir/stamp" | head -n 1)" ] || stale=1
    [ $stale = 1 ] || exit 0
    case $kind in
    lib) flags="$common $warn -I$root/src -I$obj/cjson-src" ;; # src/run reads JSON too
    io) flags="$common $warn -I$obj/cjson-src" ;;
    cli) flags="$common $warn -I$root/cli -I$root/src/run -I$obj/cjson-src -I$obj" ;;
    main) flags="$common $warn -I$root/cli -I$root/src/run -Dmain=pqpan_cli_main" ;;
    *) flags="$common -I$root/src/io/load" ;;
    esac
    echo "emcc: $group ($# files)" >&2
    rm -f "$dir"/*.o
    (cd "$dir" && emcc $flags -c "$@") && touch "$dir/stamp"
' < "$list"

# The module: callMain runs one command line (INVOKE_RUN=0: nothing runs at load); the
# runtime stays up between calls (EXIT_RUNTIME=0); FS holds a user's profile file.
# Only the batches listed now (a folder removed from the tree leaves its objects behind).
objects=$(cut -d' ' -f1 "$list" | sed "s|^|$obj/|; s|\$|/*.o|")
# shellcheck disable=SC2086
emcc -O2 $objects -o "$out/pqpan.js" \
    -sMODULARIZE=1 -sEXPORT_NAME=createPqpan -sINVOKE_RUN=0 -sEXIT_RUNTIME=0 \
    -sALLOW_MEMORY_GROWTH=1 -sFORCE_FILESYSTEM=1 -sENVIRONMENT=web,node \
    -sEXPORTED_RUNTIME_METHODS=callMain,FS
cp "$root"/web/site/* "$out/"
echo "make web: $out (open $out/index.html through any static file server: make web-serve)"
