#!/bin/sh
# Runs one libFuzzer target for $3 seconds, starting from a copy of the seed corpus $2 (the
# source tree is never written). Any crash, leak or sanitizer report fails the test.
set -eu
target=$1
seeds=$2
seconds=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus"
[ -d "$seeds" ] && cp -r "$seeds"/. "$work/corpus/"
cd "$work"
"$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 corpus
