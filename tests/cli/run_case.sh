#!/bin/sh
# Runs one golden CLI case: $1 = pqpan binary, $2 = case path without extension.
# <case>.args: one argument per line. Optional <case>.stdin: fed on standard input.
# Compares stdout with <case>.stdout.exact and the exit code with <case>.exit (default 0).
# Stderr is not compared (messages may be reworded) but must be non-empty when the exit
# code is not 0, so every failure says why.
set -u
bin=$1
case=$2
want_exit=0
[ -f "$case.exit" ] && want_exit=$(cat "$case.exit")
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
cd "$(dirname "$case")" || exit 1
set --
while IFS= read -r line || [ -n "$line" ]; do
    set -- "$@" "$line"
done < "$case.args"
if [ -f "$case.stdin" ]; then
    "$bin" "$@" < "$case.stdin" > "$out" 2> "$err"
else
    "$bin" "$@" < /dev/null > "$out" 2> "$err"
fi
got_exit=$?
status=0
if [ "$got_exit" != "$want_exit" ]; then
    echo "exit code: got $got_exit, want $want_exit"; cat "$err"; status=1
fi
if [ -f "$case.stdout.exact" ]; then
    if ! diff -u "$case.stdout.exact" "$out"; then status=1; fi
fi
if [ "$want_exit" != 0 ] && [ ! -s "$err" ]; then
    echo "exit code $got_exit but nothing on stderr"; status=1
fi
exit $status
