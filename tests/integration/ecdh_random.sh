#!/bin/sh
# `pqpan ecdh keygen` without --sk (the private key from getrandom(2)), the one path the
# golden cases cannot pin: two key pairs differ; each one's JSON, given back through
# --sk-file, reproduces its public key (so sk is a valid scalar and pk = sk . G); and
# the shared secret is the same both ways, from uncompressed public keys.
# Usage: ecdh_random.sh CLI SRCDIR BUILDDIR.
set -u
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
member() { sed -n "s/.*\"$1\":\"\([0-9a-f]*\)\".*/\1/p" "$2"; }
for side in a b; do
    "$cli" ecdh keygen > "$tmp/$side.json" || { echo "keygen $side failed"; exit 1; }
    "$cli" ecdh keygen --sk-file "$tmp/$side.json" > "$tmp/$side.again" ||
        { echo "keygen --sk-file $side failed"; exit 1; }
    cmp -s "$tmp/$side.json" "$tmp/$side.again" || { echo "$side: sk does not give its pk"; fail=1; }
    [ "$(member sk "$tmp/$side.json" | wc -c)" -eq 65 ] || { echo "$side: sk is not 32 octets"; fail=1; }
    case $(member pk "$tmp/$side.json") in
        04*) [ "$(member pk "$tmp/$side.json" | wc -c)" -eq 131 ] || { echo "$side: pk length"; fail=1; } ;;
        *) echo "$side: pk is not SEC 1 uncompressed"; fail=1 ;;
    esac
done
[ "$(member sk "$tmp/a.json")" != "$(member sk "$tmp/b.json")" ] || { echo "two keygens gave the same sk"; fail=1; }
"$cli" ecdh shared --sk-file "$tmp/a.json" --pk "$(member pk "$tmp/b.json")" > "$tmp/ab" || fail=1
"$cli" ecdh shared --sk-file "$tmp/b.json" --pk "$(member pk "$tmp/a.json")" > "$tmp/ba" || fail=1
grep -q '^{"shared":"[0-9a-f]\{64\}"}$' "$tmp/ab" || { echo "shared: unexpected output"; cat "$tmp/ab"; fail=1; }
cmp -s "$tmp/ab" "$tmp/ba" || { echo "the shared secret differs between the two sides"; fail=1; }
[ $fail -eq 0 ] && echo "random key pairs: distinct, reproducible from sk, same shared secret both ways"
exit $fail
