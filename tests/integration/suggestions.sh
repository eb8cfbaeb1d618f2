#!/bin/sh
# An unknown command, operation, option or option word is a usage error (exit 2) whose
# message on stderr suggests the nearest one (issue 27 item 8.4): an edit distance
# (cli_word_distance) within a small limit, ties all named, options only of the command
# and link given; nothing is suggested when nothing is near.
# $1 = pqpan binary, $2 = source dir, $3 = build dir.
set -u
cli=$1
err=$(mktemp)
trap 'rm -f "$err"' EXIT
status=0
# says WANT ARGS...: exit 2 and stderr holds WANT.
says() {
    want=$1
    shift
    "$cli" "$@" > /dev/null 2> "$err" < /dev/null
    rc=$?
    if [ "$rc" -ne 2 ] || ! grep -qF -- "$want" "$err"; then
        echo "FAIL: pqpan $*: exit $rc, want 2 with '$want'"; cat "$err"; status=1
    fi
}
# quiet ARGS...: exit 2 and no suggestion.
quiet() {
    "$cli" "$@" > /dev/null 2> "$err" < /dev/null
    rc=$?
    if [ "$rc" -ne 2 ] || grep -q "did you mean" "$err"; then
        echo "FAIL: pqpan $*: exit $rc, want 2 without a suggestion"; cat "$err"; status=1
    fi
}
says "unknown command 'estimat'; did you mean estimate?" estimat
says "unknown command 'simulat'; did you mean simulate?" help simulat
says "unknown option '--att-mut'; did you mean --att-mtu?" estimate --att-mut 100
says "unknown option '--att-mut' (not an option of pqpan estimate); did you mean --att-mtu?" \
    sweep --att-mut 100
says "did you mean --busy?" estimate --link 802154 --buzy 0.1
says "did you mean --nodes?" simulate --link 802154 --nodez 3
says "did you mean --battery-side?" advise --battery-sid central
says "did you mean --sed-idle?" advise --idle sleep
says "did you mean --idle-ci-ms?" idle --ci-ms 100
says "did you mean --kem?" estimate --KEM ML-KEM-512
says "did you mean --param?" kem keygen --parm ML-KEM-512
says "did you mean --out?" sweep merge --outt x
says "(want 1M, 2M, S2, S8); did you mean 1M or 2M?" estimate --phy 3M
says "did you mean ML-KEM-512?" sweep --kem ML-KEM-51,ML-KEM-768
says "did you mean notify?" simulate --transfer notfy
says "did you mean sleep?" estimate --link 802154 --idle slep
says "unknown operation 'keygn' (want keygen, encaps, decaps, acvp); did you mean keygen?" \
    kem keygn
says "did you mean sign?" sig sigg
says "did you mean kem?" bench kme
quiet frobnicate
quiet estimate --xyzzy 1
quiet estimate --phy 9Q
# an option of the other link is not suggested
quiet estimate --link 802154 --att-mut 100
exit $status
