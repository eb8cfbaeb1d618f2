#!/bin/sh
# Installs the Debian 12 packages pqpan needs to build, test and plot.
#   scripts/deps.sh          install what is missing (as root), or print the apt command
#   scripts/deps.sh --check  exit 0 if everything is present, 1 otherwise (installs nothing)
set -eu

# One package per line, with what needs it.
PACKAGES="
cmake                      build
make                       build
gcc                        build
clang                      fuzz targets (libFuzzer)
libclang-rt-14-dev         libFuzzer and sanitizer runtimes for clang
pkg-config                 build: finds cmocka and cJSON
libcmocka-dev              unit tests
libcjson-dev               JSON: ACVP vectors, device profiles
valgrind                   constant-time tests, instruction counts
gnuplot-nox                figures (reproduce --out)
python3-cffi               Python package (python/): libpqpan.so through cffi, ABI mode
python3-pytest             Python package: its test suite (python/tests)
python3-setuptools         Python package: pip install ./python
python3-pandas             Python package: pqpan.sweep() as a DataFrame (tests, examples)
python3-matplotlib         Python package: the example figures (python/examples, tests)
python3-venv               Python package test: pip install ./python into a venv
python3-pip                Python package test: pip install ./python (offline, no build isolation)
gcc-arm-none-eabi          Cortex-M4 cross build (make m4, QEMU tests)
libnewlib-arm-none-eabi    Cortex-M4: memcpy/memset from newlib-nano
qemu-system-arm            Cortex-M4 tests and instruction counts (mps2-an386)
time                       integration: peak RSS of pqpan trace (/usr/bin/time)
tshark                     integration tests: dissects the BLE and 802.15.4/6LoWPAN pcaps
libns3-dev                 integration test ns3_crosscheck: ns-3 3.37 headers and libraries (LrWpan, SixLowPan, IPv6) for its program (tests/integration/ns3/)
ns3                        integration test ns3_crosscheck: Debian's ns-3 package beside its library (helper programs only; the test runs none)
g++                        integration test ns3_crosscheck: compiles its ns-3 program (C++17)
groff-base                 integration test: the installed man page renders without warnings
binutils                   integration test: readelf checks the installed library's dependencies
emscripten                 make web: libpqpan and the CLI compiled to WebAssembly
dpkg-dev                   make web: apt-get source unpacks Debian's cJSON source (web/cjson_src.sh)
nodejs                     make web (Emscripten's optimizer) and the browser test (tests/web)
chromium                   browser test of the web page (tests/web, headless)
"

wanted=$(printf '%s\n' "$PACKAGES" | awk 'NF { print $1 }')
missing=""
for p in $wanted; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done

# npm comes with some nodejs builds; Debian ships it as its own package.
command -v npm >/dev/null 2>&1 || missing="$missing npm"

if [ -z "$missing" ]; then
    exit 0
fi
if [ "${1:-}" = "--check" ]; then
    echo "missing packages:$missing" >&2
    exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "pqpan needs these Debian packages:$missing" >&2
    echo "install them with:" >&2
    echo "  sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y$missing" >&2
    exit 1
fi
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing
