#!/bin/bash
# An output path is never destroyed, whatever it names (issue 26 item 1). Before, every
# --out / --pcap / --trace / figure FILE was written to FILE.tmp.PID and renamed over FILE
# whatever FILE was: `--out /dev/null` run as root replaced /dev/null with a regular file, a
# FIFO's reader waited forever while the data went to a new regular file, a symbolic link
# became a plain file next to its untouched target. The rule (docs/CLI.md, pqpan --help):
#  - FILE regular or missing: written through FILE.tmp.PID beside it, renamed when complete;
#  - a symbolic link: followed; its target is written by these rules, the link kept;
#  - a character device, FIFO or socket, or a name of an open descriptor (/dev/fd/N,
#    /dev/stdout): written directly (appended to a descriptor's file); a failed write (a
#    device like /dev/full) is exit 4 with the reason;
#  - a directory or a block device: exit 4 before any work.
# Each case runs for every command's output (the kinds below) and checks the exit code and
# that nothing was lost. Devices are made with mknod in a temporary directory (Linux
# numbers, Documentation/admin-guide/devices.txt: char 1,3 = /dev/null, 1,7 = /dev/full;
# block major 0 is reserved, so no disk is behind the block node); skipped with a message
# where mknod is not permitted. /dev/null and /dev/full themselves are tried only when /dev
# cannot be written (a rename into it fails) or once this binary has left the nodes made
# with mknod in place, so an old binary never replaces the real ones.
# A read-only directory: mode 555 for a user. Root ignores modes, so as root the script runs
# itself again in a private mount namespace (unshare -m) and mounts a read-only tmpfs there
# (the mount goes with the namespace); skipped with a message when that is not permitted.
# $1 = pqpan binary, $2 = source dir.
set -u
cli=$1
src=$2
if [ "$(id -u)" -eq 0 ] && [ -z "${PQPAN_OWN_NS:-}" ] && unshare -m true 2> /dev/null; then
    PQPAN_OWN_NS=1 exec unshare -m "$0" "$@"
fi
work=$(mktemp -d)
cleanup() {
    [ -n "${PQPAN_OWN_NS:-}" ] && umount "$work/ro" 2> /dev/null
    rm -rf "$work"
}
trap cleanup EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }
fixture=$src/tests/fixtures/calibrate/peripheral_1.csv
kinds="pcap trace pcap154 calibration sweep merge"
sweep_args=(--kem ML-KEM-512 --phy "1M,S8")

# Writes the output of kind $1 to path $2; its stdout and stderr go to $work/stdout, stderr.
produce() {
    local path=$2
    case $1 in
    pcap) set -- simulate --seed 1 --pcap "$path" ;;
    trace) set -- simulate --seed 1 --trace "$path" ;;
    pcap154) set -- simulate --link 802154 --seed 1 --pcap "$path" ;;
    calibration) set -- calibrate --protocol study --trace "$fixture" --out "$path" ;;
    sweep) set -- sweep "${sweep_args[@]}" --out "$path" ;;
    merge) set -- sweep merge --out "$path" "$work/shard1.csv" "$work/shard2.csv" ;;
    esac
    "$cli" "$@" > "$work/stdout" 2> "$work/stderr" < /dev/null
}

# kind $1 to $2 ($3 says what $2 is): exit 0.
expect_ok() {
    produce "$1" "$2"
    rc=$?
    [ "$rc" -eq 0 ] || fail "$1 to $3: exit $rc, want 0: $(cat "$work/stderr")"
}

# kind $1 to $2 ($3 says what $2 is): exit 4 with "cannot write ...$4" on stderr; with $5 =
# early, nothing on stdout (refused before any work).
expect_io() {
    produce "$1" "$2"
    rc=$?
    [ "$rc" -eq 4 ] || fail "$1 to $3: exit $rc, want 4"
    grep -qi "cannot write.*$4" "$work/stderr" ||
        fail "$1 to $3: no message 'cannot write ...$4': $(cat "$work/stderr")"
    [ "${5:-}" != early ] || [ ! -s "$work/stdout" ] || fail "$1 to $3: work done before refusing"
}

# No temporary file left in the directories $@.
no_temp() {
    local d
    for d in "$@"; do
        ! ls "$d"/*.tmp.* > /dev/null 2>&1 || fail "a temporary file is left in $d: $(ls "$d")"
    done
}

"$cli" sweep "${sweep_args[@]}" --shard 1/2 --out "$work/shard1.csv" &&
    "$cli" sweep "${sweep_args[@]}" --shard 2/2 --out "$work/shard2.csv" || fail "sweep --shard: exit $?"
for kind in $kinds; do
    expect_ok "$kind" "$work/ref.$kind" "a new regular file"
done

# Device nodes: written directly, never replaced.
devices_kept=0
if mknod "$work/null" c 1 3 2> /dev/null && mknod "$work/full" c 1 7 && mknod "$work/block" b 0 0; then
    devices_kept=1
    for kind in $kinds; do
        expect_ok "$kind" "$work/null" "a char device (1,3)"
        expect_io "$kind" "$work/full" "a char device (1,7)" "No space left on device"
        expect_io "$kind" "$work/block" "a block device" "block device" early
        if [ ! -c "$work/null" ] || [ ! -c "$work/full" ] || [ ! -b "$work/block" ]; then
            fail "$kind: a device node was replaced: $(ls -l "$work/null" "$work/full" "$work/block")"
            devices_kept=0
            rm -f "$work/null" "$work/full" "$work/block"
            mknod "$work/null" c 1 3 && mknod "$work/full" c 1 7 && mknod "$work/block" b 0 0
        fi
    done
    no_temp "$work"
else
    echo "skipped: device nodes made with mknod (not permitted here)"
fi
if [ ! -w /dev ] || [ "$devices_kept" -eq 1 ]; then
    for kind in $kinds; do
        expect_ok "$kind" /dev/null "/dev/null"
        expect_io "$kind" /dev/full "/dev/full" "No space left on device"
        [ -c /dev/null ] && [ -c /dev/full ] || fail "$kind: /dev/null or /dev/full replaced"
    done
    for kind in sweep merge; do # they print nothing else on stdout
        expect_ok "$kind" /dev/stdout "/dev/stdout"
        cmp -s "$work/stdout" "$work/ref.$kind" || fail "$kind to /dev/stdout: not the output"
        [ -L /dev/stdout ] || [ -c /dev/stdout ] || fail "$kind: /dev/stdout replaced"
    done
else
    echo "skipped: /dev/null and /dev/full themselves (this binary replaced a device node)"
fi

# A FIFO: a reader gets every byte, the FIFO stays.
mkfifo "$work/fifo"
for kind in $kinds; do
    timeout 60 cat "$work/fifo" > "$work/fifo.out" &
    reader=$!
    produce "$kind" "$work/fifo"
    rc=$?
    if [ "$rc" -ne 0 ] || [ ! -p "$work/fifo" ]; then
        fail "$kind to a FIFO: exit $rc, the FIFO $([ -p "$work/fifo" ] && echo kept || echo replaced)"
        kill "$reader" 2> /dev/null
        rm -f "$work/fifo"
        mkfifo "$work/fifo"
    fi
    wait "$reader"
    cmp -s "$work/fifo.out" "$work/ref.$kind" || fail "$kind: the FIFO's reader got other bytes than the file"
done
no_temp "$work"

# A socket: opened directly, which Linux refuses (ENXIO): exit 4, the socket kept.
if command -v python3 > /dev/null &&
    python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$work/sock"; then
    for kind in $kinds; do
        expect_io "$kind" "$work/sock" "a socket" ""
        [ -S "$work/sock" ] || { fail "$kind: the socket was replaced"; break; }
    done
else
    echo "skipped: a socket (no python3 to make one)"
fi

# A name of an open descriptor (/dev/fd/N, /proc/PID/fd/N: the text of such a link names a
# pipe as "pipe:[N]" and a file by a path that does not say the descriptor appends to it):
# written through the descriptor, after what its file holds, into its pipe.
for kind in $kinds; do
    echo "previous contents" > "$work/log"
    produce "$kind" /dev/fd/3 3>> "$work/log"
    rc=$?
    { echo "previous contents"; cat "$work/ref.$kind"; } | cmp -s - "$work/log" ||
        fail "$kind to /dev/fd/3 (>> a file): exit $rc, the file is not its contents then the output"
    produce "$kind" /dev/fd/3 3>&1 | cat > "$work/piped"
    rc=${PIPESTATUS[0]}
    [ "$rc" -eq 0 ] && cmp -s "$work/piped" "$work/ref.$kind" ||
        fail "$kind to /dev/fd/3 (a pipe): exit $rc, the pipe $(cmp -s "$work/piped" "$work/ref.$kind" && echo got || echo did not get) the output"
done

# Symbolic links: followed (relative to the link's directory, through a chain of links, to
# a target not made yet), the links kept, no temporary file beside the link or the target.
mkdir "$work/a" "$work/b"
for kind in $kinds; do
    echo "previous contents" > "$work/b/$kind"
    ln -s "../b/$kind" "$work/a/$kind"
    ln -s "$kind" "$work/a/$kind.chain"
    ln -s "../b/$kind.new" "$work/a/$kind.dangling"
    for link in "$kind" "$kind.chain" "$kind.dangling"; do
        target=$(readlink "$work/a/$link")
        expect_ok "$kind" "$work/a/$link" "a symbolic link"
        [ -L "$work/a/$link" ] && [ "$(readlink "$work/a/$link")" = "$target" ] ||
            fail "$kind: the link $link was replaced"
    done
    cmp -s "$work/b/$kind" "$work/ref.$kind" || fail "$kind: the link's target does not hold the output"
    cmp -s "$work/b/$kind.new" "$work/ref.$kind" || fail "$kind: a dangling link's target not written"
    ln -s /dev/null "$work/a/$kind.devnull"
    expect_ok "$kind" "$work/a/$kind.devnull" "a link to /dev/null"
    [ -L "$work/a/$kind.devnull" ] && [ -c /dev/null ] || fail "$kind: the link to /dev/null replaced"
done
no_temp "$work/a" "$work/b"

# A directory, or a link to one: refused before any work, its contents kept.
mkdir "$work/dir"
echo "kept" > "$work/dir/file"
ln -s dir "$work/dirlink"
for kind in $kinds; do
    expect_io "$kind" "$work/dir" "a directory" "Is a directory" early
    expect_io "$kind" "$work/dirlink" "a link to a directory" "Is a directory" early
    [ -d "$work/dir" ] && [ -L "$work/dirlink" ] && [ "$(cat "$work/dir/file")" = kept ] ||
        fail "$kind: the directory or the link to it changed"
done

# A read-only directory, named or behind a link from a writable one: refused before any work.
mkdir "$work/ro"
ro=0
if [ "$(id -u)" -ne 0 ]; then
    chmod 555 "$work/ro" && ro=1
elif [ -n "${PQPAN_OWN_NS:-}" ] && mount -t tmpfs -o ro pqpan-ro "$work/ro" 2> /dev/null; then
    ro=1
fi
if [ "$ro" -eq 1 ]; then
    for kind in $kinds; do
        ln -s "../ro/$kind" "$work/a/$kind.ro"
        expect_io "$kind" "$work/ro/$kind" "a read-only directory" "" early
        expect_io "$kind" "$work/a/$kind.ro" "a link into a read-only directory" "" early
        [ -L "$work/a/$kind.ro" ] || fail "$kind: the link into a read-only directory was replaced"
        [ -z "$(ls -A "$work/ro")" ] || fail "$kind: wrote into the read-only directory"
    done
    no_temp "$work/a"
else
    echo "skipped: read-only directory (root ignores modes, and no read-only mount is permitted here)"
fi

# Figures (the files of --out DIR): a figure's name that is a link is followed too.
if command -v gnuplot > /dev/null; then
    "$cli" compare --runs 1 --out "$work/fig.ref" > /dev/null 2>&1 || fail "compare --out: exit $?"
    mkdir "$work/fig"
    ln -s ../b/compare.csv "$work/fig/compare.csv"
    "$cli" compare --runs 1 --out "$work/fig" > /dev/null 2>&1 || fail "compare --out (a link): exit $?"
    [ -L "$work/fig/compare.csv" ] || fail "compare --out: the link compare.csv was replaced"
    cmp -s "$work/b/compare.csv" "$work/fig.ref/compare.csv" || fail "compare --out: link target not written"
else
    echo "skipped: figures (no gnuplot)"
fi

[ "$status" -eq 0 ] && echo "outputs: devices and FIFOs written directly, links followed, directories refused"
exit $status
