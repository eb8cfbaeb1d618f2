#!/bin/sh
# The CLI takes its randomness from getrandom(2) (issue 15): kem keygen / encaps, ecdh
# keygen and sig keygen without seeds call getrandom and open no /dev/urandom (whose
# stdio buffer would keep key material the CLI cannot wipe). Needs strace (else skipped).
# $1 = pqpan binary, $2 = source dir, $3 = build dir.
set -u
cli=$1
command -v strace > /dev/null 2>&1 || { echo "no strace"; exit 77; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
check() {
    strace -f -e trace=open,openat,getrandom -o "$log" "$cli" "$@" > /dev/null 2>&1 < /dev/null
    if grep -q urandom "$log" || ! grep -q 'getrandom(.*, 32, 0) = 32' "$log"; then
        echo "FAIL: pqpan $*: no 32-byte getrandom, or /dev/urandom opened"; grep -E "random" "$log"
        status=1
    fi
}
check kem keygen --param ML-KEM-512
check ecdh keygen
check sig keygen
[ "$status" -eq 0 ] && echo "randomness from getrandom(2), no /dev/urandom"
exit $status
