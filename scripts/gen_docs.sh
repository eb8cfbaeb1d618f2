#!/bin/sh
# Rewrites the generated regions of docs/*.md from the CLI's own output, so the numbers
# there cannot drift from the code (`make docs`; checked by tests/integration/docs_fresh.sh).
#
# usage: scripts/gen_docs.sh PQPAN [TREE]
#   PQPAN  the built CLI (e.g. build/pqpan)
#   TREE   the tree whose docs/*.md are rewritten in place (default: this repository)
#
# A region is a line `<!-- gen:NAME -->`, the generated lines, and a line `<!-- /gen -->`.
# Its lines are what the function region_NAME below prints; everything outside regions is
# left alone. To add a region: write region_NAME (run "$pqpan", format with awk), put the
# two marker lines in the doc, run `make docs`.
# Exit: 0 ok; non-zero when a region has no function or no end marker, or pqpan fails.
set -eu

pqpan=${1:?usage: scripts/gen_docs.sh PQPAN [TREE]}
tree=${2:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Runs pqpan with the given arguments into $tmp/out (a region function's input).
run() {
    "$pqpan" "$@" > "$tmp/out" || { echo "gen_docs: pqpan $* failed" >&2; return 1; }
}

# The outputs several regions share, run once.
"$pqpan" reproduce > "$tmp/reproduce.txt"
"$pqpan" reproduce --format csv > "$tmp/reproduce.csv"

# awk over `pqpan reproduce` table output: per reading, the headline lines (model range,
# verdict), the per-level line and the peripheral rows. Defines hl[reading, key],
# vd[reading, key], lv_share[reading], lv_saving[reading], and per peripheral row
# comp/comm/total[reading, kem, dle]; the caller's END block formats them.
REPRO_AWK='
function trim(s) { gsub(/^ +| +$/, "", s); return s }
/^== reading: / { r = $3; sub(/:$/, "", r); next }
/^communication share without DLE/ { k = "share" }
/^total energy saved by DLE/ { k = "saving" }
/^PQKE \/ LE SC energy ratio/ { k = "ratio" }
/^communication share with DLE, ML-KEM-1024/ { k = "share1024" }
k != "" { hl[r, k] = trim(substr($0, 46, 18)); vd[r, k] = $NF; k = ""; next }
/^per level/ { lv_share[r] = $8; lv_saving[r] = $12; next }
$3 == "peripheral" { comp[r, $1, $2] = $4; comm[r, $1, $2] = $5; total[r, $1, $2] = $6 }
function slashes(s) { gsub(/\//, " / ", s); return s }
function dash(s) { sub(/-/, "–", s); sub(/ x$/, " ×", s); return s }
function uj(x) { return sprintf("%.1f", x) }
'

# The headline figures of both readings beside the study's (docs/MODEL.md).
region_reproduce_headline() {
    awk "$REPRO_AWK"'
    function c1024(r,   c, m) {
        c = comp[r, "ML-KEM-1024", "yes"]; m = comm[r, "ML-KEM-1024", "yes"]
        return hl[r, "share1024"] " — " vd[r, "share1024"] "; computation " uj(c) \
               (c > m ? " > " : " ≤ ") "communication " uj(m) " µJ: computation " \
               (c > m ? "dominates" : "does not dominate")
    }
    END {
        print "| figure | study | defaults reading | study reading | shipped reading |"
        print "|---|---|---|---|---|"
        print "| communication share without DLE, 512 / 768 / 1024 | 57–63 % | " \
              slashes(lv_share["defaults"]) " % — " vd["defaults", "share"] " | " \
              slashes(lv_share["study"]) " % — " vd["study", "share"] " | " \
              slashes(lv_share["shipped"]) " % — " vd["shipped", "share"] " |"
        print "| total energy saved by DLE, 512 / 768 / 1024 | 25–34 % | " \
              slashes(lv_saving["defaults"]) " % — " vd["defaults", "saving"] " | " \
              slashes(lv_saving["study"]) " % — " vd["study", "saving"] " | " \
              slashes(lv_saving["shipped"]) " % — " vd["shipped", "saving"] " |"
        print "| PQKE / LE SC energy ratio, over levels × DLE | 2.5–8.5 × | " \
              dash(hl["defaults", "ratio"]) " — " vd["defaults", "ratio"] " | " \
              dash(hl["study", "ratio"]) " — " vd["study", "ratio"] " | " \
              dash(hl["shipped", "ratio"]) " — " vd["shipped", "ratio"] " |"
        print "| communication share with DLE at ML-KEM-1024 | about 37 %: computation dominates | " \
              c1024("defaults") " | " c1024("study") " | " c1024("shipped") " |"
    }' "$tmp/reproduce.txt"
}

# Peripheral energy per level, LL 27 -> LL 251, both readings.
region_reproduce_uj() {
    awk "$REPRO_AWK"'
    function line(r, name,   k, n, s, kems) {
        n = split("ML-KEM-512 ML-KEM-768 ML-KEM-1024 LESC-P256", kems, " ")
        s = "- " name ":"
        for (k = 1; k <= n; k++) {
            s = s " " (k == n ? "LE SC" : kems[k]) " " uj(total[r, kems[k], "no"]) " → " \
                uj(total[r, kems[k], "yes"]) (k == n ? " µJ." : ",")
        }
        print s
    }
    END {
        line("defaults", "defaults"); line("study", "study reading")
        line("shipped", "shipped reading")
    }' "$tmp/reproduce.txt"
}

# The T_IFS figures of ML-KEM-768 at LL 27 (peripheral), both readings.
region_reproduce_ifs() {
    awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["side"] == "peripheral" && $col["kem"] == "ML-KEM-768" && $col["dle"] == 0 {
        r = $col["reading"]
        tx[r] = $col["t_tx_ms"]; rx[r] = $col["t_rx_ms"]; ifs[r] = $col["t_ifs_ms"]
        pairs[r] = $col["pdus_tx"]; ifs_pct[r] = 100 * $col["e_comm_ifs_uj"] / $col["e_comm_uj"]
    }
    END {
        d = "defaults"; s = "study"
        printf "At LL 27 the ML-KEM-768 exchange is %d PDU pairs: the peripheral spends %.1f ms in\n", pairs[d], tx[d]
        printf "TX, %.1f ms in RX and %.1f ms in T_IFS (%d turnarounds: two per pair, none after the last\n", rx[d], ifs[d], ifs[d] / 0.150 + 0.5
        printf "PDU of an event). T_IFS, charged at the RX current, is %.0f %% of the bits accounting;\n", ifs_pct[d]
        printf "the empty PDUs that acknowledge each fragment (one per pair, 80 µs each on LE 1M) are\n"
        printf "another %.0f %% of the TX + RX time. With one T_IFS per PDU sent (the study reading) the\n", 100 * pairs[d] * 0.080 / (tx[d] + rx[d])
        printf "T_IFS time is %.2f ms, %.0f %% of that reading'"'"'s bits accounting.\n", ifs[s], ifs_pct[s]
    }' "$tmp/reproduce.csv"
}

# The idle link and one exchange at three supply voltages (docs/MODEL.md "Supply voltage
# and sleep retention"): charge (what a battery gives) and energy.
region_supply_voltage() {
    echo "| supply | idle: charge per event | idle: sleep charge per second | idle: average current | ML-KEM-768 exchange, peripheral, events accounting: energy | of it sleep |"
    echo "|---|---|---|---|---|---|"
    for v in 2.7 3.0 3.3; do
        run idle --supply-v "$v" --format json || return 1
        cp "$tmp/out" "$tmp/idle.json"
        run estimate --supply-v "$v" --format json || return 1
        awk -v v="$v" -v idle="$tmp/idle.json" '
        function num(rec, k) {
            if (!match(rec, "\"" k "\": [^,}]*")) return ""
            return substr(rec, RSTART + length(k) + 4, RLENGTH - length(k) - 4)
        }
        BEGIN {
            while ((getline line < idle) > 0) {
                if (line ~ /"phase": "sleep"/) sleep = num(line, "charge_uc")
                whole = whole line
            }
        }
        /"side": "peripheral"/ { side = 1 }
        side && /"e_total_events_uj"/ { e = num($0, "e_total_events_uj") }
        side && /"e_ev_sleep_uj"/ { es = num($0, "e_ev_sleep_uj") }
        side && /^    }/ { side = 0 }
        END {
            printf "| %s V | %.3f µC | %.3f µC | %.3f µA | %.1f µJ | %.1f µJ |\n", v,
                num(whole, "charge_per_event_uc"), sleep, num(whole, "avg_current_ua"), e, es
        }' "$tmp/out"
    done
}

# An idle nRF52840 connection event (1 s interval, LE 1M, 0 dBm, 3 V, system table) per role:
# its charge, the part of it whose figures stand on another chip (CPU pre/post-processing,
# crystal start, radio ramp-up: the profile's other_chip members) and the T_IFS turnaround
# charged at the RX current (an assumption).
region_nrf52840_event_sources() {
    echo "| role | charge per event | of it: figures from another chip (pre, crystal, ramp-up, post) | of it: T_IFS at the RX current (assumption) |"
    echo "|---|---|---|---|"
    for role in peripheral central; do
        run idle --profile nrf52840 --role "$role" --format json || return 1
        awk -v role="$role" '
        function num(rec, k) {
            if (!match(rec, "\"" k "\": [^,}]*")) return ""
            return substr(rec, RSTART + length(k) + 4, RLENGTH - length(k) - 4)
        }
        /"charge_per_event_uc"/ { total = num($0, "charge_per_event_uc") }
        /"phase": "(event_pre|hfxo_start|ramp_tx|ramp_rx|event_post)"/ { other += num($0, "charge_uc") }
        /"phase": "ifs"/ { ifs = num($0, "charge_uc") }
        END {
            printf "| %s | %.3f µC | %.3f µC (%.0f %%) | %.3f µC (%.0f %%) |\n", role, total,
                other, 100 * other / total, ifs, 100 * ifs / total
        }' "$tmp/out"
    done
}

# The study reading's headline over the corners of the study's gamma ranges.
region_reproduce_gamma_box() {
    echo "| γ_comm | γ_comp (KeyGen, Encaps, Decaps) | comm share without DLE | DLE saving | PQKE / LE SC | comm share DLE, 1024 |"
    echo "|---|---|---|---|---|---|"
    for g in "1.10 1.12" "1.10 1.62" "1.15 1.37" "1.20 1.12" "1.20 1.62"; do
        set -- $g
        run reproduce --reading study --gamma-comm "$1" --gamma-comp "kem_keygen=$2" \
            --gamma-comp "kem_encaps=$2" --gamma-comp "kem_decaps=$2" || return 1
        awk -v gc="$1" -v gk="$2" "$REPRO_AWK"'
        function f(k) { return dash(hl["study", k]) " " vd["study", k] }
        END {
            print "| " gc (gc == "1.15" ? " (default)" : "") " | " gk (gk == "1.37" ? " (default)" : "") \
                  " | " f("share") " | " f("saving") " | " f("ratio") " | " f("share1024") " |"
        }' "$tmp/out"
    done
}

# The defaults' T_IFS rule at the gamma corner that lowers the DLE saving most, radio-only.
region_reproduce_each_ifs() {
    run reproduce --reading defaults --currents radio-only --gamma-comm 1.10 \
        --gamma-comp kem_keygen=1.62 --gamma-comp kem_encaps=1.62 --gamma-comp kem_decaps=1.62 ||
        return 1
    awk "$REPRO_AWK"'
    END {
        print "With every T_IFS charged (the rule of the defaults), the radio-only table and the γ"
        print "corner that lowers the saving most (γ_comm 1.10, γ_comp 1.62), the DLE saving is"
        print slashes(lv_saving["defaults"]) " % (" vd["defaults", "saving"] "; communication share without DLE " \
              dash(hl["defaults", "share"]) ", " vd["defaults", "share"] ")."
    }' "$tmp/out"
}

# The ratio the LE SC baseline would need, and the ratio with the P-256 key pair reused.
region_reproduce_lesc() {
    awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["side"] == "peripheral" {
        k = $col["reading"] SUBSEP $col["kem"] SUBSEP $col["dle"]
        e[k] = $col["e_total_uj"]; c[k] = $col["e_comp_uj"]; enc[k] = $col["e_lesc_enc_start_uj"]
    }
    function lesc(r, d) { return e[r, "LESC-P256", d] - (r == "study" ? enc[r, "LESC-P256", d] : 0) }
    END {
        s = "study"; h = "shipped"
        printf "In the study reading LE SC costs the peripheral %.1f µJ without DLE and %.1f µJ with\n", lesc(s, 0), lesc(s, 1)
        printf "it (P-256 ECDH %.1f µJ; the encryption start, %.1f µJ, left out), so the ratio runs from\n", c[s, "LESC-P256", 0], enc[s, "LESC-P256", 0]
        printf "%.2f × (ML-KEM-512 with DLE, %.1f µJ) to %.2f × (ML-KEM-1024 without DLE, %.1f µJ).\n", e[s, "ML-KEM-512", 1] / lesc(s, 1), e[s, "ML-KEM-512", 1], e[s, "ML-KEM-1024", 0] / lesc(s, 0), e[s, "ML-KEM-1024", 0]
        printf "In the shipped reading (p256-m, key pair reused, encryption start counted) LE SC costs\n"
        printf "%.1f µJ without DLE, of which P-256 %.1f µJ: ML-KEM-768 without DLE costs %.1f µJ,\n", e[h, "LESC-P256", 0], c[h, "LESC-P256", 0], e[h, "ML-KEM-768", 0]
        printf "%.2f × LE SC, and ML-KEM-1024 without DLE %.2f ×.\n", e[h, "ML-KEM-768", 0] / e[h, "LESC-P256", 0], e[h, "ML-KEM-1024", 0] / e[h, "LESC-P256", 0]
    }' "$tmp/reproduce.csv"
}

# LE SC per --p256-impl row (estimate, study protocol, LL 27, peripheral, bits): the P-256
# ECDH, the encryption start, the total with the key pair reused (the default), the KeyGen a
# fresh key pair adds, and ML-KEM-768's exchange over the reused-key total.
region_lesc_p256_impls() {
    run estimate --protocol study --kem ML-KEM-768 --ll-octets 27 --format csv || return 1
    pq=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
         $col["side"] == "peripheral" { print $col["e_total_uj"] }' "$tmp/out")
    echo "| --p256-impl | P-256 ECDH µJ | encryption start µJ | LE SC total µJ (reused) | + KeyGen µJ (fresh) | ML-KEM-768 / LE SC |"
    echo "|---|---|---|---|---|---|"
    for impl in emill-asm p256-m tinycrypt cc310 pqpan; do
        run estimate --protocol study --kem LESC-P256 --ll-octets 27 --p256-impl "$impl" \
            --lesc-keypair fresh --format csv || return 1
        mv "$tmp/out" "$tmp/fresh"
        run estimate --protocol study --kem LESC-P256 --ll-octets 27 --p256-impl "$impl" \
            --format csv || return 1
        awk -F, -v impl="$impl" -v pq="$pq" '
        FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        NR == FNR && $col["side"] == "peripheral" { kg = $col["e_comp_ecdh_keygen_uj"]; next }
        $col["side"] == "peripheral" {
            printf "| %s | %.1f | %.1f | %.1f | %.1f | %.2f × |\n", impl, \
                $col["e_comp_ecdh_shared_uj"], $col["e_lesc_enc_start_uj"], $col["e_total_uj"], \
                kg, pq / $col["e_total_uj"]
        }' "$tmp/fresh" "$tmp/out"
    done
}

# Every PQKE mode per level and DLE setting, each side against mode none and LE SC
# (reproduce's per-mode table, defaults reading); the P-256 hybrid variants at ML-KEM-768.
region_reproduce_modes() {
    awk '
    /^== reading: / { r = $3; next }
    /^per PQKE mode/ { on = (r == "defaults"); next }
    NF == 0 { on = 0 }
    on && $1 ~ /^ML-KEM-/ && ($3 !~ /\+p256$/ || $1 == "ML-KEM-768") {
        printf "| %s | %s | %s | %.1f | %.2f × | %.2f × | %.1f | %.2f × | %.2f × |\n", \
            $1, $2, $3, $4, $5, $6, $7, $8, $9
    }
    BEGIN {
        print "| KEM | DLE | mode | peripheral µJ | × none | × LE SC | central µJ | × none | × LE SC |"
        print "|---|---|---|---|---|---|---|---|---|"
    }' "$tmp/reproduce.txt"
}

# Every PQKE mode over IEEE 802.15.4 (estimate --link 802154 defaults, bits accounting):
# each side's energy against mode none, and the datagrams (segments) of INIT and RESP.
region_lowpan_modes() {
    run sweep --link 802154 --hybrid none,p256 --auth all --kem ML-KEM-512,ML-KEM-768,ML-KEM-1024 \
        --format csv || return 1
    awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    {
        k = $col["in_kem"]; m = $col["in_auth"]; h = $col["in_hybrid"]
        ie = $col["initiator_e_total_uj"]; re = $col["responder_e_total_uj"]
        if (m == "none" && h == "none") { ni[k] = ie; nr[k] = re }
        printf "| %s | %s | %.1f | %.2f × | %.1f | %.2f × |\n", k, $col["protocol"], ie, ie / ni[k], re, re / nr[k]
    }
    BEGIN {
        print "| KEM | protocol | initiator µJ | × none | responder µJ | × none |"
        print "|---|---|---|---|---|---|"
    }' "$tmp/out"
}

# The 802.15.4 example: pqpan's messages for ML-KEM-768 and their frames, unsecured and
# at ENC-MIC-32.
region_lowpan_sizes() {
    run estimate --link 802154 --kem ML-KEM-768 || return 1
    mv "$tmp/out" "$tmp/plain"
    run estimate --link 802154 --kem ML-KEM-768 --mac-security enc-mic32 || return 1
    awk '
    /^  messages \(UDP payload octets/ { gsub(/,/, ""); i = $7; r = $9; f = $11 }
    /^  data frames:/ { gsub(/[,;]/, ""); n++; fi[n] = $4; fr[n] = $6; ff[n] = $8 }
    END {
        printf "ML-KEM-768 with pqpan'"'"'s messages (docs/PROTOCOL.md: INIT %d, RESP %d, FIN %d octets of UDP\n", i, r, f
        printf "payload; `pqpan estimate --link 802154`) → %d, %d and %d frames; %d, %d and %d with\n", fi[1], fr[1], ff[1], fi[2], fr[2], ff[2]
        printf "`--mac-security enc-mic32`.\n"
    }' "$tmp/plain" "$tmp/out"
}

# Energy per node and latency of the PQKE against hops, per level, both forwardings
# (`pqpan estimate --link 802154 --hops H`, table output: latency and the node rows).
region_multihop_table() {
    printf '| level | hops | forwarding | latency (ms) | initiator (uJ) | each forwarder (uJ) | responder (uJ) |\n'
    printf '|---|---|---|---|---|---|---|\n'
    for kem in ML-KEM-512 ML-KEM-768 ML-KEM-1024; do
        for fwd in reassemble fragment; do
            for h in 2 3 4 6 8; do
                run estimate --link 802154 --kem "$kem" --hops "$h" --forwarding "$fwd" || return 1
                awk -v kem="$kem" -v h="$h" -v fwd="$fwd" '
                /^  latency / { lat = $2 }
                $2 == "initiator" { ei = $3 }
                $2 == "forwarder" { ef = $3 }
                $2 == "responder" { er = $3 }
                END { printf "| %s | %d | %s | %s | %s | %s | %s |\n", kem, h, fwd, lat, ei, ef, er }' "$tmp/out"
            done
        done
    done
}

# BLE Mesh provisioning per level and bearer (`pqpan compare --mesh`, its ble-mesh rows:
# the defaults of `pqpan estimate --link ble-mesh`).
region_mesh_provisioning_table() {
    printf '| level | bearer | latency (ms) | provisioner (uJ) | device (uJ) |\n'
    printf '|---|---|---|---|---|\n'
    run compare --mesh --format csv || return 1
    awk -F, '$2 == "ble-mesh-pb-adv" || $2 == "ble-mesh-pb-gatt" {
        printf "| %s | %s | %s | %s | %s |\n", $1, $2 == "ble-mesh-pb-adv" ? "PB-ADV" : "PB-GATT", $4, $5, $7
    }' "$tmp/out"
}

# advise --link ble-mesh per --min-level: its answer (bearer, level, algorithm, settings)
# and the best PB-ADV configuration beside it, from the JSON output.
region_mesh_advice_table() {
    printf '| --min-level | answer | device (uJ) | provisioner (uJ) | latency (ms) | best PB-ADV: device (uJ) | latency (ms) |\n'
    printf '|---|---|---|---|---|---|---|\n'
    for level in 1 3 5; do
        run advise --link ble-mesh --min-level "$level" --top 1 --format json || return 1
        awk -v level="$level" '
            function field(line, key,    s) {
                s = line; sub(".*\"" key "\": \"?", "", s); sub(/[",}].*/, "", s); return s }
            /"rank": 1,/ { a = field($0, "estimate"); sub(/^--link ble-mesh /, "", a)
                           d = field($0, "device_uj"); p = field($0, "provisioner_uj")
                           t = field($0, "latency_ms") }
            /"rank": 0, "bearer": "pb-adv"/ { ad = field($0, "device_uj"); at = field($0, "latency_ms") }
            END { printf "| %s | `%s` | %s | %s | %s | %s | %s |\n", level, a, d, p, t, ad, at }' "$tmp/out"
    done
}

# Keys between mesh nodes per level, hops and relays per stage (`pqpan estimate --link
# ble-mesh --bearer network`, its total row: every node): latency, the energy of every node
# together, communication's share of it, and one relay's energy.
region_mesh_network_table() {
    printf '| level | hops | relays per stage | latency (ms) | all nodes (uJ) | comm share (%%) | each relay (uJ) |\n'
    printf '|---|---|---|---|---|---|---|\n'
    for kem in ML-KEM-512 ML-KEM-768 ML-KEM-1024; do
        for hr in 1:1 2:1 4:1 8:1 4:3 8:3; do
            h=${hr%%:*}
            n=${hr##*:}
            run estimate --link ble-mesh --bearer network --kem "$kem" --hops "$h" --relays "$n" \
                --ttl "$(( h > 7 ? h : 7 ))" --format csv || return 1
            awk -F, -v kem="$kem" -v h="$h" -v n="$n" '
            $1 == "relay" { relay = $8 }
            $1 == "total" { lat = $11; tot = $8; share = $9 }
            END { printf "| %s | %d | %s | %s | %s | %s | %s |\n", kem, h, h == 1 ? "-" : n, lat, tot, share, h == 1 ? "-" : relay }' "$tmp/out"
        done
    done
}

# One figure of a --bearer network run: field $2 (CSV column) of row $1.
net_field() {
    awk -F, -v side="$1" -v col="$2" '$1 == side { print $col }' "$tmp/out"
}

# A Low Power Node against the scanning node (docs/MODEL.md "A Low Power Node polling its
# Friend"): per level and hops, the responder's energy scanning, as an LPN, and as an LPN
# whose Friend answers at the start of a 50 ms ReceiveWindow; the latencies.
region_mesh_lpn_table() {
    printf '| level | hops | responder scanning (uJ) | responder as LPN (uJ) | LPN, ReceiveWindow 50 ms (uJ) | initiator as LPN (uJ) | latency scanning (ms) | latency, LPN responder (ms) |\n'
    printf '|---|---|---|---|---|---|---|---|\n'
    for kem in ML-KEM-512 ML-KEM-768 ML-KEM-1024; do
        for h in 1 2 4; do
            net="estimate --link ble-mesh --bearer network --kem $kem --hops $h --format csv"
            run $net || return 1
            scan=$(net_field responder 8); lat=$(net_field responder 11)
            run $net --lpn responder || return 1
            lpn=$(net_field responder 8); lpn_lat=$(net_field responder 11)
            run $net --lpn responder --friend-recv-win-ms 50 || return 1
            win=$(net_field responder 8)
            run $net --lpn initiator || return 1
            ini=$(net_field initiator 8)
            printf '| %s | %d | %s | %s | %s | %s | %s | %s |\n' "$kem" "$h" "$scan" "$lpn" "$win" \
                "$ini" "$lat" "$lpn_lat"
        done
    done
}

# Keys between mesh nodes under loss (ML-KEM-768, the defaults, 1 and 4 hops): the
# estimate's total row and the mean of 20 simulated runs (seeds 1 .. 20, the completed ones)
# against --per.
region_mesh_network_loss_table() {
    printf '| hops | --per | estimate: latency (ms) | estimate: all nodes (uJ) | simulate: completed | simulate: mean latency (ms) | simulate: mean all nodes (uJ) |\n'
    printf '|---|---|---|---|---|---|---|\n'
    for h in 1 4; do
        for per in 0 0.1 0.2 0.3 0.4; do
            run estimate --link ble-mesh --bearer network --hops "$h" --per "$per" --format csv || return 1
            est=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
                           $1 == "total" { print $c["latency_ms"] " | " $c["e_total_uj"] }' "$tmp/out")
            run simulate --link ble-mesh --bearer network --hops "$h" --per "$per" --runs 20 --format csv || return 1
            awk -F, -v h="$h" -v per="$per" -v est="$est" '
            NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
            $1 == "total" { printf "| %d | %s | %s | %s/%s | %s | %s |\n", h, per, est, $c["completed"], $c["runs"], $c["latency_mean_ms"], $c["e_mean_uj"] }' "$tmp/out"
        done
    done
}

# The option lists of the commands, from the CLI's option tables (cli/opts.h): what the
# parser takes and --help prints, so the docs cannot disagree with either.
options_md() {
    run help --options-md "$@" && cat "$tmp/out"
}
region_options_estimate() { options_md estimate-protocol ble-link pqke ble-setup estimate-bits; }
region_options_estimate_802154() { options_md 802154-link 802154-exchange 802154-busy; }
region_options_estimate_mesh() { options_md ble-mesh; }
region_options_simulate() { options_md simulate-ble; }
region_options_simulate_802154() { options_md simulate-802154; }
region_options_energy() { options_md energy ramp crypto gamma format; }
region_options_calibrate() { options_md calibrate; }
region_options_idle() { options_md idle; }
region_options_sweep() { options_md sweep; }
region_options_trace() { options_md trace; }
region_options_advise() { options_md advise; }
region_options_compare() { options_md compare; }
region_options_idle_802154() { options_md idle-802154; }
region_options_idle_battery() { options_md idle-battery; }
region_options_sweep_merge() { options_md sweep-merge; }
# The library's table of defaults (include/pqpan/defaults.h), docs/CLI.md "Defaults".
region_defaults() { run help --defaults-md; cat "$tmp/out"; }
region_options_kem() { options_md kem; }
region_options_sig() { options_md sig; }
region_options_ecdh() { options_md ecdh; }

# pqpan advise's temporary link optimisation with the defaults (nRF52840, idle link 1M,
# 1000 ms, LL 27) at NIST category 3: the recommendation with no latency limit and with
# the key within 4000 ms of the decision (the switch there included), each with its switch
# and net saving.
region_advise_switch() {
    : > "$tmp/adv"
    for lat in none 4000; do
        if [ "$lat" = none ]; then
            run advise --min-level 3 --top 1 --format json || return 1
        else
            run advise --min-level 3 --top 1 --max-latency-ms "$lat" --format json || return 1
        fi
        { echo "lat $lat"; cat "$tmp/out"; } >> "$tmp/adv"
    done
    awk '
    function num(k,   v) {
        if (!match(rec, "\"" k "\": [^,}]*")) return ""
        v = substr(rec, RSTART + length(k) + 4, RLENGTH - length(k) - 4); gsub(/"/, "", v)
        return v
    }
    /^lat / { lat = $2; rec = ""; on = 0; next }
    /"rank": 1,/ { on = 1 }
    on { rec = rec $0 }
    on && /"battery": \[/ {
        on = 0
        sw = substr(rec, index(rec, "\"switching\""))
        head = num("kem") ", LE " num("phy") ", LL " num("ll_octets") ", CI " num("ci_ms") " ms"
        e = num("objective_uj"); l = num("latency_ms")
        rec = sw
        printf "| %s | %s | %s | %s | %s / %s | %s | %s | %s | %s |\n", \
            (lat == "none" ? "none" : "≤ " lat " ms"), head, num("procedures"), \
            num("energy_device_uj"), num("time_there_ms"), num("time_back_ms"), \
            num("idle_settings_objective_uj"), num("exchange_objective_uj"), \
            num("net_saving_uj"), num("verdict")
    }
    BEGIN {
        print "| latency limit | recommendation | procedures | switch, peripheral (µJ) | there / back (ms) | on the idle settings (µJ) | exchange (µJ) | net saving (µJ) | verdict |"
        print "|---|---|---|---|---|---|---|---|---|"
    }' "$tmp/adv"
}

# pqpan advise's switching decision at NIST category 3 (nRF52840, idle link 1M): the
# cheapest configuration on the idle settings against the cheapest with a switch, for the
# default idle link (1000 ms, LL 27) and for 100 ms with DLE (LL 251).
region_advise_decision() {
    : > "$tmp/dec"
    for idle in "1000 27" "100 251"; do
        set -- $idle
        run advise --min-level 3 --top 1 --idle-ci-ms "$1" --idle-ll-octets "$2" --format json || return 1
        { echo "idle $1 $2"; sed -n '/"switching_decision"/,/^  },$/p' "$tmp/out"; } >> "$tmp/dec"
    done
    awk '
    function num(k, rec,   v) {
        if (!match(rec, "\"" k "\": (\"[^\"]*\"|[^,}]*)")) return ""
        v = substr(rec, RSTART + length(k) + 4, RLENGTH - length(k) - 4); gsub(/"/, "", v)
        return v
    }
    function row() {
        if (ci == "") return
        printf "| %s ms, LL %s | %s, %s: %s | %s, %s: %s + %s = %s | %s | %s |\n", ci, ll, \
            num("kem", on_idle), num("configuration", on_idle), num("objective_uj", on_idle), \
            num("kem", sw), num("configuration", sw), \
            num("exchange_objective_uj", sw), num("switch_objective_uj", sw), \
            num("objective_uj", sw), num("net_saving_uj", head), num("verdict", head)
    }
    /^idle / { row(); ci = $2; ll = $3; head = on_idle = sw = ""; part = "head"; next }
    /"on_idle": / { part = "on_idle" }
    /"switched": / { part = "sw" }
    { if (part == "head") head = head $0; else if (part == "on_idle") on_idle = on_idle $0; else sw = sw $0 }
    END { row() }
    BEGIN {
        print "| idle link (LE 1M) | cheapest on the idle settings (µJ) | cheapest with a switch: exchange + switch (µJ) | net saving (µJ) | verdict |"
        print "|---|---|---|---|---|"
    }' "$tmp/dec"
}

# Splices the regions of one file (region outputs in $tmp/region.NAME), each generated
# line indented as its start marker is (a region inside a list item).
splice() {
    awk -v dir="$tmp" -v file="$1" '
    /^ *<!-- gen:[a-z0-9_]+ -->$/ {
        print
        indent = substr($0, 1, match($0, /[^ ]/) - 1)
        name = $2; sub(/^gen:/, "", name)
        src = dir "/region." name
        while ((getline line < src) > 0) print (line == "" ? "" : indent line)
        close(src)
        inside = 1
        next
    }
    /^ *<!-- \/gen -->$/ { inside = 0 }
    !inside { print }
    END { if (inside) { print file ": region " name " has no <!-- /gen --> line" > "/dev/stderr"; exit 1 } }
    ' "$1"
}

status=0
for doc in "$tree"/docs/*.md; do
    names=$(sed -n 's/^ *<!-- gen:\([a-z0-9_]*\) -->$/\1/p' "$doc")
    [ -n "$names" ] || continue
    for name in $names; do
        if ! command -v "region_$name" >/dev/null 2>&1; then
            echo "gen_docs: $doc: no generator for region '$name' (add region_$name to $0)" >&2
            status=1
            continue
        fi
        if ! "region_$name" > "$tmp/region.$name"; then
            echo "gen_docs: $doc: region $name failed" >&2
            exit 1
        fi
    done
    [ "$status" -eq 0 ] || continue
    splice "$doc" > "$tmp/doc.new"
    cmp -s "$tmp/doc.new" "$doc" || cat "$tmp/doc.new" > "$doc"
done
exit "$status"
