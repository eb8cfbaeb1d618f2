#!/bin/sh
# Long runs show progress on stderr when it is a terminal, and only then (issue 15):
# simulate --link 802154 --runs and bench (kem, sig, ecdh). Under script(1) stderr is a terminal; with
# stderr in a file there is no progress line and stdout is the same. Needs script(1).
# $1 = pqpan binary, $2 = source dir, $3 = build dir.
set -u
cli=$1
command -v script > /dev/null 2>&1 || { echo "no script(1)"; exit 77; }
tty=$(mktemp)
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$tty" "$out" "$err"' EXIT
status=0
# progress WANT ARGS...: on a terminal the progress line WANT is shown; in a file, nothing.
progress() {
    want=$1
    shift
    script -qec "$cli $*" /dev/null > "$tty" 2>&1 < /dev/null
    if ! grep -qF -- "$want" "$tty"; then
        echo "FAIL: pqpan $* on a terminal: no '$want'"; status=1
    fi
    "$cli" "$@" > "$out" 2> "$err" < /dev/null
    if grep -qF -- "$want" "$err" || [ ! -s "$out" ]; then
        echo "FAIL: pqpan $* with stderr in a file: progress shown or no output"; status=1
    fi
}
progress "802.15.4 run 20/20 (100 %)" simulate --link 802154 --runs 20
progress "ML-KEM-512 50/50 (100 %)" bench kem --param ML-KEM-512 --op keygen --iterations 50
progress "ML-DSA-44 verify 20/20 (100 %)" bench sig --param ML-DSA-44 --op verify --iterations 20
progress "P-256 shared 3/3 (100 %)" bench ecdh --op shared --iterations 3
[ "$status" -eq 0 ] && echo "progress on a terminal only"
exit $status
