#!/bin/sh
# The same seed gives byte-identical outputs: `pqpan simulate` twice over a lossy channel
# (PER and BER, both directions), comparing stdout, the capture and the current trace.
# Usage: sim_repeat.sh CLI SRCDIR BUILDDIR.
set -u
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in 1 2; do
    "$cli" simulate --per 0.2 --ber 0.0001 --seed 42 --transfer notify/write-cmd --att-mtu 247 \
        --ll-octets 251 --format json --pcap "$tmp/$i.pcap" --trace "$tmp/$i.csv" > "$tmp/$i.out"
    echo "run $i: exit $?" >> "$tmp/exits"
done
"$cli" simulate --per 0.2 --ber 0.0001 --seed 43 --transfer notify/write-cmd --att-mtu 247 \
    --ll-octets 251 --format json --pcap "$tmp/3.pcap" > "$tmp/3.out"
fail=0
for f in out pcap csv; do
    cmp -s "$tmp/1.$f" "$tmp/2.$f" || { echo "seed 42 twice: .$f differs"; fail=1; }
done
cmp -s "$tmp/1.pcap" "$tmp/3.pcap" && { echo "seeds 42 and 43 gave the same capture"; fail=1; }
grep -q '"retransmissions": [1-9]' "$tmp/1.out" || { echo "no retransmission at PER 0.2"; fail=1; }
cat "$tmp/exits"
exit $fail
