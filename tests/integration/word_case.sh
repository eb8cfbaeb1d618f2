#!/bin/sh
# Words are matched ignoring case (issue 27 item 8.3): every command and operation name,
# and every word an option takes (--kem, --phy, --transfer, --protocol, --auth, profile
# names, the words of list and prefixed items), given in any case, runs exactly as the
# canonical spelling does: exit 0 and the same bytes, so the outputs print the canonical
# words. $1 = pqpan binary, $2 = source dir, $3 = build dir.
set -u
cli=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
trace=$src/tests/fixtures/calibrate/peripheral_1.csv
ppk2=$src/tests/fixtures/ppk2/segments.csv
zero=0000000000000000000000000000000000000000000000000000000000000000

# same "ANY CASE ARGS" "CANONICAL ARGS": both exit 0 with the same stdout.
same() {
    # shellcheck disable=SC2086 # the arguments are words without spaces
    "$cli" $1 > "$work/any" 2> "$work/err"
    rc=$?
    # shellcheck disable=SC2086
    "$cli" $2 > "$work/canonical" 2> /dev/null
    rc2=$?
    if [ "$rc" -ne 0 ] || [ "$rc2" -ne 0 ]; then
        echo "FAIL: pqpan $1: exit $rc (canonical: $rc2)"; cat "$work/err"; status=1
    elif ! cmp -s "$work/any" "$work/canonical"; then
        echo "FAIL: pqpan $1 differs from pqpan $2:"; diff "$work/canonical" "$work/any" | head -5
        status=1
    fi
}

same "estimate --kem ml-kem-768 --phy 2m --transfer NOTIFY/Write-Cmd --protocol PQPAN --auth PSK
      --hybrid P256 --currents SYSTEM --ramp Fast --profile NRF52840 --crypto-impl CLEAN
      --keygen-side Central --reply Same-Event --features OFF --format CSV" \
     "estimate --kem ML-KEM-768 --phy 2M --transfer notify/write-cmd --protocol pqpan --auth psk
      --hybrid p256 --currents system --ramp fast --profile nrf52840 --crypto-impl clean
      --keygen-side central --reply same-event --features off --format csv"
same "estimate --link 802154 --csma IEEE --addr SHORT --idle SLEEP --backoff Listen
      --mac-security ENC-MIC32 --kem Ml-Kem-512 --format JSON" \
     "estimate --link 802154 --csma ieee --addr short --idle sleep --backoff listen
      --mac-security enc-mic32 --kem ML-KEM-512 --format json"
same "ESTIMATE --gamma-comp KEM_KEYGEN=1.2 --kem LESC-p256" \
     "estimate --gamma-comp kem_keygen=1.2 --kem LESC-P256"
same "Simulate --transport GATT --protocol Study --adv-case MEAN --format csv" \
     "simulate --transport gatt --protocol study --adv-case mean --format csv"
same "sweep --kem ml-kem-512,LESC-p256 --phy 1m,2M --transfer Notify/WRITE-CMD --link BLE" \
     "sweep --kem ML-KEM-512,LESC-P256 --phy 1M,2M --transfer notify/write-cmd --link ble"
same "sweep --kem ALL --phy 1M --format JSONL" "sweep --kem all --phy 1M --format jsonl"
same "idle --idle-phy 2m --role CENTRAL --format Json" "idle --idle-phy 2M --role central --format json"
same "advise --peer-phys 1m,2m,s8 --idle-phy 1m --link BLE --battery-side Central --top 1" \
     "advise --peer-phys 1M,2M,S8 --idle-phy 1M --link ble --battery-side central --top 1"
same "calibrate --protocol STUDY --trace PERIPHERAL:$trace --ops KEM_KEYGEN,Kem_Decaps
      --phases D0=CRYPTO,d1=Radio --format csv" \
     "calibrate --protocol study --trace peripheral:$trace --ops kem_keygen,kem_decaps
      --phases d0=crypto,d1=radio --format csv"
same "trace $ppk2 --baseline-ua AUTO --format CSV" "trace $ppk2 --baseline-ua auto --format csv"
same "reproduce --reading STUDY --format csv" "reproduce --reading study --format csv"
same "kem KEYGEN --param ml-kem-512 --d $zero --z $zero" \
     "kem keygen --param ML-KEM-512 --d $zero --z $zero"
same "Profiles SHOW NRF52840" "profiles show nrf52840"
same "HELP Estimate" "help estimate"
exit $status
