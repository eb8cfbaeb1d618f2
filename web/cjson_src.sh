#!/bin/sh
# Unpacks Debian's cJSON source package (the same cJSON the native CLI links as
# libcjson-dev) into DIR, so `make web` can compile it to WebAssembly: Debian ships cJSON
# only as a host shared library. Uses apt's ordinary client with a private deb-src list
# and state directory; the machine's own apt configuration is left alone.
#   web/cjson_src.sh DIR      DIR/cjson/cJSON.c and cJSON.h afterwards (kept once there)
set -eu
dir=$1/cjson
[ -f "$dir/cJSON.c" ] && [ -f "$dir/cJSON.h" ] && exit 0
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/src"
printf 'deb-src http://deb.debian.org/debian %s main\ndeb-src http://deb.debian.org/debian-security %s-security main\n' \
    "$suite" "$suite" > "$work/sources.list"
apt_opts="-qq -o Dir::Etc::SourceList=$work/sources.list -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists=$work/lists -o APT::Sandbox::User=root"
# shellcheck disable=SC2086
apt-get $apt_opts update
# shellcheck disable=SC2086
(cd "$work/src" && apt-get $apt_opts source cjson >/dev/null)
src=$(find "$work/src" -maxdepth 2 -name cJSON.c | head -n 1)
if [ -z "$src" ]; then
    echo "web/cjson_src.sh: Debian's cjson source package has no cJSON.c" >&2
    exit 1
fi
mkdir -p "$dir"
cp "$src" "$(dirname "$src")/cJSON.h" "$(dirname "$src")/LICENSE" "$dir/"
