#!/bin/sh
# pqpan sweep streams its rows in constant memory (issue 12): the peak resident set of a
# sweep of 14 times as many configurations, CSV and JSON Lines, on 2 threads, is within
# 4 MiB of the smaller sweep's, while the bigger one writes 27 MB of CSV and 128 MB of
# JSON Lines. Exit 77 (skip) without GNU time. Usage: sweep_memory.sh CLI SRCDIR BUILDDIR.
set -u
cli=$1
[ -x /usr/bin/time ] || { echo "/usr/bin/time not installed"; exit 77; }
status=0
# peak RSS in KiB and the row count of one sweep: LL sizes 27..251 in steps of $1
peak() { # STEP FORMAT
    /usr/bin/time -f %M -o "$tmp/rss" "$cli" sweep --kem all --phy 1M,2M --ll-octets "27..251:$1" \
        --att-mtu 23,247,403,517 --transfer all --keygen-side all --jobs 2 --format "$2" |
        wc -l > "$tmp/rows"
    echo "$(cat "$tmp/rss") $(cat "$tmp/rows")"
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for fmt in csv jsonl; do
    # shellcheck disable=SC2046
    set -- $(peak 64 $fmt) $(peak 4 $fmt)
    [ $# -eq 4 ] || { echo "FAIL: $fmt: no measurement"; status=1; continue; }
    [ "$4" -ge $(($2 * 14)) ] || { echo "FAIL: $fmt: $4 rows against $2: not a bigger sweep"; status=1; }
    if [ $(($3 - $1)) -gt 4096 ]; then
        echo "FAIL: $fmt: peak RSS $1 KiB for $2 rows, $3 KiB for $4 rows"
        status=1
    else
        echo "$fmt: peak RSS $1 KiB for $2 rows, $3 KiB for $4 rows"
    fi
done
exit $status
