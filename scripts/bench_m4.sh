#!/bin/sh
# `make bench-m4`: measures the core on the Cortex-M4 (QEMU mps2-an386) in five builds:
# the portable C at -Os (preset cortex-m4-portable, implementation "pqpan-m4") and -O2
# (cortex-m4-portable-o2, "pqpan-m4-o2"), and with the assembly backend PQPAN_M4_ASM
# (src/crypto/m4/, issue 18) at -Os (cortex-m4, "pqpan-m4-asm") and -O2 (cortex-m4-o2,
# "pqpan-m4-asm-o2"), those four with the small builds of ML-DSA and P-256; and the
# backend at -O2 with the speed builds of both (PQPAN_MLDSA_IMPL=speed,
# PQPAN_P256_IMPL=speed: cortex-m4-speed-o2, "pqpan-m4-speed-o2", issue 30):
#   code size per module   arm-none-eabi-size on every object of the M4 libpqpan.a
#   stack per operation    painted in QEMU (m4/bench_main.c) and, as a cross-check, the
#                          deepest call chain of the gcc -fcallgraph-info=su frame sizes
#   instructions per op    counted exactly by tools/qemu-insn between the m4 markers
#                          (ML-DSA signing on $PQPAN_M4_SIGN_RUNS messages per level, 1000 by
#                          default (issue 14: >= 1000): mean, median and 99th percentile of
#                          its rejection loop; about 45 minutes on a shared 2-core machine)
# and writes data/cycles/pqpan_m4.csv (pqm4's columns first, so the energy model's
# loader reads it like data/cycles/pqm4_cortex_m4.csv) and docs/M4.md.
# Usage: scripts/bench_m4.sh [HOST_BUILD_DIR]   (the host build holds the QEMU plugin)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
host=${1:-build}
case $host in /*) ;; *) host=$root/$host ;; esac
jobs=$(nproc 2>/dev/null || echo 2)
plugin=$host/tools/qemu-insn/libpqpan_insn_count.so
[ -f "$plugin" ] || { echo "bench-m4: $plugin not built (make build)" >&2; exit 1; }

# Cycles are ESTIMATED from the counts with the Cortex-M4 TRM timings (docs/M4.md, "Cycles
# from instructions"): cycles = instructions + memory reads + branch_penalty x blocks.
branch_penalty=2
sign_runs=${PQPAN_M4_SIGN_RUNS:-1000}
commit=$(git -C "$root" rev-parse HEAD)
if [ -n "$(git -C "$root" status --porcelain -- src include m4 cmake tools)" ]; then
    commit="$commit-dirty"
fi
pqm4=$root/data/cycles/pqm4_cortex_m4.csv
[ -f "$pqm4" ] || { echo "bench-m4: $pqm4 missing" >&2; exit 1; }
work=$root/build-m4-bench
mkdir -p "$work"

# measure PRESET BUILD_DIR IMPL: writes $work/IMPL.ops (scheme,op,stack,insns,callgraph)
# and $work/IMPL.sizes (module,text,data,bss).
measure() {
    preset=$1 dir=$root/$2 impl=$3
    cmake --preset "$preset" -DPQPAN_M4_SIGN_RUNS="$sign_runs" >/dev/null
    cmake --build "$dir" -j "$jobs" >/dev/null
    elf=$dir/m4/pqpan_m4_bench.elf
    sym() { arm-none-eabi-nm "$elf" | awk -v s="$1" '$3 == s { print "0x" $1 }'; }
    rm -f "$work/$impl.insn"
    timeout 3600 qemu-system-arm -M mps2-an386 -nographic -monitor none -serial none \
        -semihosting-config enable=on,target=native -kernel "$elf" \
        -plugin "$plugin,begin=$(sym pqpan_m4_mark_begin),end=$(sym pqpan_m4_mark_end)" \
        -d plugin -D "$work/$impl.insn" >"$work/$impl.bench" 2>&1
    objdir=$dir/m4/CMakeFiles/pqpan_m4.dir
    find "$objdir" -name '*.ci' | sort | xargs cat >"$work/$impl.ci"
    # gcc writes no .ci for assembly: each .S names its frame in a "@ callgraph-frame
    # FUNCTION BYTES" line (a leaf: no calls), added as a node when the build has it.
    if find "$objdir" -name '*.S.obj' | grep -q .; then
        sed -n 's/^@ callgraph-frame \([a-z0-9_]*\) \([0-9]*\)$/node: { title: "\1" label: "\1\\n\2 bytes (static)" }/p' \
            "$root"/src/crypto/m4/*.S >>"$work/$impl.ci"
    fi
    # Worst-case stack of each entry point: its frame plus the deepest callee chain.
    callgraph() {
        awk -v entry="$1" '
            /^node:/ && /bytes/ {
                t = $0; sub(/.*title: "/, "", t); sub(/".*/, "", t)
                b = $0; sub(/ bytes.*/, "", b); sub(/.*\\n/, "", b)
                frame[t] = b + 0
            }
            /^edge:/ {
                s = $0; sub(/.*sourcename: "/, "", s); sub(/".*/, "", s)
                d = $0; sub(/.*targetname: "/, "", d); sub(/".*/, "", d)
                callees[s] = callees[s] " " d
            }
            function depth(f, seen,    n, i, list, best, c) {
                if (f in memo) return memo[f]
                if (index(seen, "|" f "|")) return 0
                best = 0
                n = split(callees[f], list, " ")
                for (i = 1; i <= n; i++) { c = depth(list[i], seen "|" f "|"); if (c > best) best = c }
                return memo[f] = frame[f] + best
            }
            END { print depth(entry, "") }' "$work/$impl.ci"
    }
    awk -F, '
        NR == FNR { if ($1 == "insn") { insn[++n] = $2; reads[n] = $3; blocks[n] = $4 } next }
        $1 == "bench" {
            k++
            if ($5 != 0) { print "bench-m4: " $2 " " $3 " failed" > "/dev/stderr"; exit 1 }
            if ($2 == "calibration") { if ($3 == "empty") { b0 = insn[k]; b1 = reads[k]; b2 = blocks[k] } next }
            print $2 "," $3 "," $4 "," insn[k] - b0 "," reads[k] - b1 "," blocks[k] - b2
        }' "$work/$impl.insn" "$work/$impl.bench" >"$work/$impl.raw"
    : >"$work/$impl.ops"
    while IFS=, read -r scheme op stack insns reads blocks; do
        case $scheme in
            ml-kem-*) level=${scheme#ml-kem-}
                      case $op in keygen) fn=keypair_derand ;; encaps) fn=encaps_derand ;; *) fn=$op ;; esac
                      cg=$(callgraph "pqpan_mlkem${level}_$fn") ;;
            ml-dsa-*) level=${scheme#ml-dsa-}
                      case $op in keygen) fn=keypair_derand ;; sign) fn=sign_derand ;; *) fn=$op ;; esac
                      cg=$(callgraph "pqpan_mldsa${level}_$fn") ;;
            keccak) case $op in m4_permute) cg=$(callgraph pqpan_keccak_m4_permute) ;; *) cg=$(callgraph pqpan_keccak_f1600) ;; esac ;;
            p-256) case $op in
                       keygen) cg=$(callgraph pqpan_ecdh_p256_keypair_derand) ;;
                       point_decompression) cg=$(callgraph pqpan_ecdh_p256_public_decode) ;;
                       *) cg=$(callgraph pqpan_ecdh_p256_shared) ;;
                   esac ;;
            le-sc) cg=$(callgraph "pqpan_lesc_$op") ;;
            pqke-*) case $op in
                        initiator_start) cg=$(callgraph pqpan_pqke_initiator_start) ;;
                        initiator_resp) cg=$(callgraph pqpan_pqke_initiator_handle) ;;
                        *) cg=$(callgraph pqpan_pqke_responder_handle) ;;
                    esac ;;
            *) cg= ;;
        esac
        cycles=$((insns + reads + branch_penalty * blocks))
        echo "$scheme,$op,$stack,$insns,$cg,$reads,$blocks,$cycles" >>"$work/$impl.ops"
    done <"$work/$impl.raw"
    # One line per operation, in the order measured: runs of the same operation (ML-DSA
    # signing) give the largest stack, mean counts and the mean, median, 99th percentile
    # (nearest rank), min and max of the estimated cycles.
    awk -F, '
        { k = $1 "," $2; if (!(k in n)) { order[++keys] = k; stack[k] = 0 }
          i = ++n[k]; cyc[k, i] = $8; if ($3 > stack[k]) stack[k] = $3
          insn[k] += $4; cg[k] = $5; reads[k] += $6; blocks[k] += $7; sum[k] += $8 }
        END {
            for (q = 1; q <= keys; q++) {
                k = order[q]; m = n[k]
                for (i = 2; i <= m; i++) { v = cyc[k, i]; for (j = i - 1; j >= 1 && cyc[k, j] > v; j--) cyc[k, j + 1] = cyc[k, j]; cyc[k, j + 1] = v }
                med = m % 2 ? cyc[k, (m + 1) / 2] : int((cyc[k, m / 2] + cyc[k, m / 2 + 1]) / 2)
                p99 = cyc[k, int((99 * m + 99) / 100)]
                printf "%s,%d,%.0f,%s,%.0f,%.0f,%.0f,%d,%d,%d,%d,%d\n", k, stack[k], insn[k] / m, cg[k],
                       reads[k] / m, blocks[k] / m, sum[k] / m, m, med, p99, cyc[k, 1], cyc[k, m]
            }
        }' "$work/$impl.ops" >"$work/$impl.agg"
    # Code size per module: src/<dir>/ for folders, src/crypto/<file> for single files; the
    # assembly backend counts with the module it serves (Keccak: crypto/sha3, P-256's
    # field: crypto/p256, ML-DSA's NTT and SampleInBall: crypto/mldsa, the rest crypto/mlkem).
    find "$objdir" -name '*.obj' | sort | xargs arm-none-eabi-size | awk '
        NR > 1 {
            f = $6; sub(/.*\/src\//, "", f); n = split(f, p, "/")
            if (n == 2 && p[1] == "crypto") { m = "crypto/" p[2]; sub(/\.c\.obj$/, "", m) }
            else if (p[1] == "crypto" && p[2] == "m4") { m = p[3] ~ /^keccak/ ? "crypto/sha3" : p[3] ~ /^p256/ ? "crypto/p256" : p[3] ~ /^mldsa/ ? "crypto/mldsa" : "crypto/mlkem" }
            else { m = p[1]; for (i = 2; i < n; i++) m = m "/" p[i] }
            text[m] += $1; data[m] += $2; bss[m] += $3
        }
        END { for (m in text) print m "," text[m] "," data[m] "," bss[m] }' | sort >"$work/$impl.sizes"
}

impls="pqpan-m4 pqpan-m4-o2 pqpan-m4-asm pqpan-m4-asm-o2 pqpan-m4-speed-o2"
kernels="ntt invntt basemul_acc_encoded"
measure cortex-m4-portable build-m4-portable pqpan-m4
measure cortex-m4-portable-o2 build-m4-portable-o2 pqpan-m4-o2
measure cortex-m4 build-m4 pqpan-m4-asm
measure cortex-m4-o2 build-m4-o2 pqpan-m4-asm-o2
measure cortex-m4-speed-o2 build-m4-speed-o2 pqpan-m4-speed-o2

# P-256's code in one build: crypto/p256 (field, decoding, the small scalar multiplication)
# and, in the speed build, also crypto/p256/speed (its scalar multiplication and table).
p256_code() {
    case $1 in
        *-speed*) awk -F, '$1 ~ /^crypto\/p256(\/speed)?$/ { n += $2 + $3 } END { print n }' "$work/$1.sizes" ;;
        *) awk -F, '$1 == "crypto/p256" { print $2 + $3 }' "$work/$1.sizes" ;;
    esac
}

# data/cycles/pqpan_m4.csv: ML-KEM, ML-DSA, P-256 and LE SC (f4, f5, f6, g2) rows, pqm4's
# seven columns first; runs, cycles_median and cycles_p99 give the spread where an
# operation was measured more than once (ML-DSA signing). code_bytes is the module's:
# crypto/mlkem, crypto/mldsa, crypto/p256 (with crypto/p256/speed in the speed build), and
# for LE SC crypto/lesc + aes + aes_cmac.
csv=$root/data/cycles/pqpan_m4.csv
mkdir -p "$root/data/cycles"
{
    echo "scheme,implementation,operation,cycles_mean,stack_bytes,code_bytes,source_commit,instructions,mem_reads,blocks,cpi_estimated,stack_callgraph_bytes,compiler_flags,platform,source,runs,cycles_median,cycles_p99"
    for impl in $impls; do
        case $impl in *-o2) flags="-O2" ;; *) flags="-Os" ;; esac
        case $impl in *-asm*) flags="$flags PQPAN_M4_ASM" ;; esac
        case $impl in *-speed*) flags="$flags PQPAN_M4_ASM PQPAN_MLDSA_IMPL=speed PQPAN_P256_IMPL=speed" ;; esac
        kem_code=$(awk -F, '$1 == "crypto/mlkem" { print $2 + $3 }' "$work/$impl.sizes")
        dsa_code=$(awk -F, '$1 == "crypto/mldsa" { print $2 + $3 }' "$work/$impl.sizes")
        ecc_code=$(p256_code "$impl")
        lesc_code=$(awk -F, '$1 ~ /^crypto\/(lesc|aes|aes_cmac)$/ { n += $2 + $3 } END { print n }' "$work/$impl.sizes")
        awk -F, -v impl="$impl" -v kem_code="$kem_code" -v dsa_code="$dsa_code" -v ecc_code="$ecc_code" \
            -v lesc_code="$lesc_code" -v commit="$commit" -v flags="$flags" -v p="$branch_penalty" '
            $1 ~ /^(ml-(kem|dsa)-|p-256$|le-sc$)/ {
                code = $1 ~ /^ml-kem-/ ? kem_code : $1 ~ /^ml-dsa-/ ? dsa_code : $1 == "p-256" ? ecc_code : lesc_code
                printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%.3f,%s,%s,%s,%s,%s,%s,%s\n", $1, impl, $2, $8, $3,
                       code, commit, $4, $6, $7,
                       $8 / $4, $5, "arm-none-eabi-gcc 12.2 -mcpu=cortex-m4 -mfloat-abi=hard " flags,
                       "QEMU 7.2 mps2-an386: instructions/reads/blocks counted; cycles estimated = instructions + mem_reads + " p " x blocks (Cortex-M4 TRM timings)",
                       "make bench-m4 (scripts/bench_m4.sh; docs/M4.md)", $9, $10, $11
            }' "$work/$impl.agg"
    done
} >"$csv"

# docs/M4.md
pq() { awk -F, -v s="$1" -v i="$2" -v o="$3" -v c="$4" '
        NR == 1 { for (k = 1; k <= NF; k++) col[$k] = k; next }
        $1 == s && $2 == i && $3 == o { print $col[c] }' "$pqm4"; }
# pqm4's operation a pqpan row compares with: pqm4's decaps does not run the §7.3 dk check,
# so it is like-for-like with decaps_checked_dk and a lower bound for decaps.
pq_op() { case $1 in decaps_checked_dk) echo decaps ;; *) echo "$1" ;; esac; }
kb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1024 }'; }
op_row() { awk -F, -v s="$1" -v o="$2" -v f="$3" '$1 == s && $2 == o { print $f }' "$work/$4.agg"; }
# "instructions | cycles (CPI)" of one operation.
cyc() { awk -F, -v s="$1" -v o="$2" '$1 == s && $2 == o { printf "%s | %s (%.2f)", $4, $8, $8 / $4 }' "$work/$3.agg"; }
md=$root/docs/M4.md
{
cat <<HDR
# pqpan on a Cortex-M4

Measured by \`make bench-m4\` (scripts/bench_m4.sh) at commit \`$commit\`, on QEMU 7.2
\`mps2-an386\` (Cortex-M4F), arm-none-eabi-gcc 12.2, \`-mcpu=cortex-m4 -mthumb
-mfloat-abi=hard -mfpu=fpv4-sp-d16\`. \`pqpan-m4\` is the portable \`-Os\` build
(preset \`cortex-m4-portable\`), \`pqpan-m4-o2\` the portable \`-O2\` build
(\`cortex-m4-portable-o2\`), \`pqpan-m4-asm\` and \`pqpan-m4-asm-o2\` the same with the
assembly backend (\`cortex-m4\`, \`cortex-m4-o2\`), all four with the small builds of
ML-DSA and P-256; \`pqpan-m4-speed-o2\` (preset \`cortex-m4-speed-o2\`) is the \`-O2\` build with the
assembly backend and the speed builds of ML-DSA and P-256 (issue 30). pqm4 figures
are data/cycles/pqm4_cortex_m4.csv (pqm4 commit in its \`source_commit\` column;
STM32F407 at 24 MHz, no flash wait states). The machine-readable results are
data/cycles/pqpan_m4.csv (same leading columns as the pqm4 file).

## What runs in QEMU (\`make test\`, tests/integration/m4_qemu.sh)

- \`pqpan_m4_test\`: SHA-3 FIPS 202 example values (one-shot and every split of the
  1600-bit message), the NIST ACVP ML-KEM cases embedded at build time (m4/gen_acvp.cmake,
  first 10 of each group: keyGen, encapsulation, decapsulation valid and modified,
  encapsulationKeyCheck, decapsulationKeyCheck, for ML-KEM-512/768/1024, plus an ek with
  a coefficient >= q), the NIST ACVP ML-DSA cases (m4/gen_acvp_mldsa.cmake: the first 2
  keyGen cases per level and sigGen cases per group, deterministic and hedged, through
  Sign_internal, and all 45 sigVer cases) with a round trip through Sign/Verify with a
  context per level, the P-256 and LE SC known answers (all 25 NIST CAVP ECC CDH P-256
  cases embedded by m4/gen_ecc_cdh.cmake, RFC 5903 §8.1, the Core spec's Appendix D
  values for P-256, f4, f5, f6 and g2, FIPS 197 AES and SP 800-38B CMAC examples:
  m4/test_ecdh.c, m4/test_lesc.c), and, when src/pqke is in the build, a full PQKE
  exchange between two in-memory parties for each suite and a tampered RESP that must be
  rejected. Built at -Os and at -O2, and in the speed build (which also compares its
  P-256 field assembly with field.c); any failure exits QEMU non-zero and fails the test.
- \`pqpan_m4_fault\`: executes UDF; the HardFault handler must end QEMU non-zero.
- \`pqpan_m4_bench\` with the instruction counter: the calibration function of exactly 52
  instructions must count exactly 53 (with its BL), and every operation must succeed.

The M4 link uses newlib-nano only for memcpy/memset and provides no system calls, so any
use of malloc or stdio in the core would fail to link.

## Code size (bytes, text+rodata / data / bss per module)

The backend's objects (src/crypto/m4/) are counted with the module they serve: the
NTT and base multiplication with crypto/mlkem, the Keccak-f[1600] assembly and the lane
extraction with crypto/sha3, ML-DSA's NTT and SampleInBall swap with crypto/mldsa, P-256's field arithmetic (speed build only) with crypto/p256 (where each replaces C functions, which
the asm builds keep only as the tests' reference: the linker drops them from programs
that do not call them, but they stay in the library objects counted here).

| module | pqpan-m4 (-Os) | pqpan-m4-o2 (-O2) | pqpan-m4-asm (-Os) | pqpan-m4-asm-o2 (-O2) |
|---|---|---|---|---|
HDR
join -t, "$work/pqpan-m4.sizes" "$work/pqpan-m4-o2.sizes" | join -t, - "$work/pqpan-m4-asm.sizes" |
    join -t, - "$work/pqpan-m4-asm-o2.sizes" |
    awk -F, '{ printf "| %s | %d / %d / %d | %d / %d / %d | %d / %d / %d | %d / %d / %d |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13 }'
code() { awk -F, -v m="$1" '$1 == m { print $2 + $3 }' "$work/$2.sizes"; }
cat <<TXT

ML-KEM beside pqm4. pqm4's figures are per parameter set, and the CSV does not record
whether they include pqm4's shared Keccak code; pqpan's crypto/mlkem is one build serving
all three sets, without SHA-3 (crypto/sha3 adds $(code crypto/sha3 pqpan-m4) B at -Os, $(code crypto/sha3 pqpan-m4-o2) B at -O2;
with the backend $(code crypto/sha3 pqpan-m4-asm) B and $(code crypto/sha3 pqpan-m4-asm-o2) B):

| | pqpan-m4 | pqpan-m4-o2 | pqpan-m4-asm | pqpan-m4-asm-o2 | pqm4 clean | pqm4 m4fspeed | pqm4 m4fstack |
|---|---|---|---|---|---|---|---|
TXT
for s in ml-kem-512 ml-kem-768 ml-kem-1024; do
    echo "| $s | $(code crypto/mlkem pqpan-m4) (all sets) | $(code crypto/mlkem pqpan-m4-o2) (all sets) | $(code crypto/mlkem pqpan-m4-asm) (all sets) | $(code crypto/mlkem pqpan-m4-asm-o2) (all sets) | $(pq $s clean keygen code_bytes) | $(pq $s m4fspeed keygen code_bytes) | $(pq $s m4fstack keygen code_bytes) |"
done
cat <<TXT

## Stack per operation (bytes)

Painted: the stack below the caller's frame is filled with a pattern before the call and
scanned after it (m4/bench_main.c); keys and ciphertext live in the caller's frame, as in
pqm4. Call graph: the deepest chain of gcc \`-fcallgraph-info=su\` frame sizes from the
entry point (all frames static, no dynamic allocation); it should match the painted figure
to within the call overhead.

How ML-KEM keeps its stack small (src/crypto/mlkem/kem.c, sampling.c): no matrix entry
is ever held whole: SampleNTT (FIPS 203 Alg. 7) squeezes SHAKE128 a quarter of a block (42 bytes; half a block, 84 bytes, with the assembly backend)
at a time, and each 64 accepted values are multiplied into the output polynomial at once
(\`pqpan_mlkem_matacc\`), with a Montgomery reduction per base-case sum so the
accumulator is one 16-bit polynomial, the other operand being decoded from its 12-bit
encoding 64 coefficients at a time (a constant-length product loop, which x86 compilers
vectorize). KeyGen writes s_hat straight into dk and reads it back
from there for t_hat = A s_hat + e, which it computes row by row into ek (the row starts
as NTT(e_i), so one polynomial is alive): its stack does not depend on k. Encaps and
decaps hold y_hat as ByteEncode_12 (384 bytes per polynomial, in the entry points, sized
for the set's k), the only part that grows with k; u is computed row by row and v last,
each compressed straight into the ciphertext or, in decaps, compared with the received
one group of 8 coefficients at a time, so no second ciphertext exists. The CBD noise is
read from SHAKE256 in pieces of 64 coefficients and e1, e2 are added in place; the shared
key K (K' in decaps) of G's output goes straight to the caller's buffer, so only r is held
during the re-encryption; K_bar = J(z || c) is hashed after it, out of line; t_hat^T y_hat decodes both operands 64
coefficients at a time. Functions whose locals are not needed during the deepest calls (decrypt, a t_hat
row, G, J) are kept out of line (src/common/compiler.h). The Keccak-f[1600] frame (the last row) is part of every
operation's peak.

| scheme | op | painted -Os | call graph -Os | painted -O2 | asm -Os | asm call graph | asm -O2 | pqm4 clean | pqm4 m4fstack | -Os vs m4fstack | asm -Os vs m4fstack |
|---|---|---|---|---|---|---|---|---|---|---|---|
TXT
stack_vs=
for s in ml-kem-512 ml-kem-768 ml-kem-1024; do
    for o in keygen encaps decaps decaps_checked_dk; do
        st=$(op_row $s $o 3 pqpan-m4); cg=$(op_row $s $o 5 pqpan-m4); st2=$(op_row $s $o 3 pqpan-m4-o2)
        sa=$(op_row $s $o 3 pqpan-m4-asm); ca=$(op_row $s $o 5 pqpan-m4-asm); sa2=$(op_row $s $o 3 pqpan-m4-asm-o2)
        cl=$(pq $s clean "$(pq_op $o)" stack_bytes); fs=$(pq $s m4fstack "$(pq_op $o)" stack_bytes)
        dist=$(awk -v a="$st" -v b="$fs" 'BEGIN { printf "%+d (%.2fx)", a - b, a / b }')
        dista=$(awk -v a="$sa" -v b="$fs" 'BEGIN { printf "%+d (%.2fx)", a - b, a / b }')
        echo "| $s | $o | $st | $cg | $st2 | $sa | $ca | $sa2 | $cl | $fs | $dist | $dista |"
        stack_vs="$stack_vs $st,$sa,$sa2,$fs"
    done
done
stack_summary=$(echo "$stack_vs" | tr ' ' '\n' | awk -F, 'NF == 4 {
        n++; if ($1 > $4) above++; if ($2 > $4) above_asm++; if ($3 > $4) above_asm2++ }
    END { printf "Above pqm4 m4fstack: %d of %d ML-KEM operations for pqpan-m4 (-Os), %d for pqpan-m4-asm (-Os), %d for pqpan-m4-asm-o2 (-O2).", above, n, above_asm, above_asm2 }')
echo "| keccak | f1600 | $(op_row keccak f1600 3 pqpan-m4) | $(op_row keccak f1600 5 pqpan-m4) | $(op_row keccak f1600 3 pqpan-m4-o2) | $(op_row keccak f1600 3 pqpan-m4-asm) | $(op_row keccak f1600 5 pqpan-m4-asm) | $(op_row keccak f1600 3 pqpan-m4-asm-o2) | | | | |"
echo
echo "$stack_summary"
cat <<TXT

## Instructions and estimated cycles per operation

Instructions are counted exactly (tools/qemu-insn, a TCG plugin: inline counter on every
executed instruction, snapshots at the two markers, the empty-marker overhead subtracted).
Estimated cycles = instructions + memory reads + $branch_penalty x executed blocks (see
below); the CPI column is estimated cycles / instructions. pqm4 cycles are measured. The
mlkem-kernel rows are single calls of the NTT, inverse NTT and one full base
multiplication with accumulation (m4/bench_kem.c), the parts the assembly backend targets.

| scheme | op | instructions -Os | est. cycles -Os (CPI) | instructions -O2 | est. cycles -O2 (CPI) | pqm4 clean | pqm4 m4fspeed |
|---|---|---|---|---|---|---|---|
TXT
for s in ml-kem-512 ml-kem-768 ml-kem-1024; do
    for o in keygen encaps decaps decaps_checked_dk; do
        echo "| $s | $o | $(cyc $s $o pqpan-m4) | $(cyc $s $o pqpan-m4-o2) | $(pq $s clean "$(pq_op $o)" cycles_mean) | $(pq $s m4fspeed "$(pq_op $o)" cycles_mean) |"
    done
done
echo "| keccak | f1600 | $(cyc keccak f1600 pqpan-m4) | $(cyc keccak f1600 pqpan-m4-o2) | | |"
for k in $kernels; do
    echo "| mlkem-kernel | $k | $(cyc mlkem-kernel $k pqpan-m4) | $(cyc mlkem-kernel $k pqpan-m4-o2) | | |"
done
cat <<TXT

With the assembly backend (PQPAN_M4_ASM; see "The Cortex-M4 assembly backend" below),
against pqm4's fastest variant; the last two columns are estimated cycles / pqm4 m4fspeed's
measured cycles.

| scheme | op | asm instructions -Os | asm est. cycles -Os (CPI) | asm instructions -O2 | asm est. cycles -O2 (CPI) | pqm4 m4fspeed | asm -Os / m4fspeed | asm -O2 / m4fspeed |
|---|---|---|---|---|---|---|---|---|
TXT
ratios=
for s in ml-kem-512 ml-kem-768 ml-kem-1024; do
    for o in keygen encaps decaps decaps_checked_dk; do
        fs=$(pq $s m4fspeed "$(pq_op $o)" cycles_mean); a=$(op_row $s $o 8 pqpan-m4-asm); a2=$(op_row $s $o 8 pqpan-m4-asm-o2)
        r=$(awk -v a="$a" -v b="$fs" 'BEGIN { printf "%.2f", a / b }'); r2=$(awk -v a="$a2" -v b="$fs" 'BEGIN { printf "%.2f", a / b }')
        echo "| $s | $o | $(cyc $s $o pqpan-m4-asm) | $(cyc $s $o pqpan-m4-asm-o2) | $fs | $r | $r2 |"
        ratios="$ratios $r $r2"
    done
done
echo "| keccak | f1600 | $(cyc keccak f1600 pqpan-m4-asm) | $(cyc keccak f1600 pqpan-m4-asm-o2) | | | |"
echo "| keccak | m4_permute | $(cyc keccak m4_permute pqpan-m4-asm) | $(cyc keccak m4_permute pqpan-m4-asm-o2) | | | |"
for k in $kernels; do
    echo "| mlkem-kernel | $k | $(cyc mlkem-kernel $k pqpan-m4-asm) | $(cyc mlkem-kernel $k pqpan-m4-asm-o2) | | | |"
done
echo
echo "$ratios" | tr ' ' '\n' | awk 'NF { if (n == 0 || $1 < lo) lo = $1; if (n == 0 || $1 > hi) hi = $1; n++ }
    END { printf "The backend reaches %.2fx to %.2fx pqm4 m4fspeed'"'"'s cycles (goal: at most 1.00x).\n", lo, hi }'
os_dsa=$(awk -F, '$1 == "crypto/mldsa" { print $2 + $3 }' "$work/pqpan-m4.sizes")
o2_dsa=$(awk -F, '$1 == "crypto/mldsa" { print $2 + $3 }' "$work/pqpan-m4-o2.sizes")
if [ -n "$os_dsa" ]; then
runs=$(op_row ml-dsa-44 sign 9 pqpan-m4)
cat <<TXT

## ML-DSA (FIPS 204)

Code size: crypto/mldsa is $os_dsa B at -Os and $o2_dsa B at -O2 for all three parameter
sets, without SHA-3 (pqm4 per set: clean $(pq ml-dsa-44 clean keygen code_bytes), m4f
$(pq ml-dsa-44 m4f keygen code_bytes), m4fstack $(pq ml-dsa-44 m4fstack keygen code_bytes) B for ML-DSA-44).

How the stack is kept small (src/crypto/mldsa/): no vector or matrix of polynomials is
ever held. Each entry of A_hat is rejection-sampled straight from the SHAKE128 state and
multiplied into the row being accumulated; row accumulators hold residues in 3 bytes
(768 B instead of 1 KiB). Key generation samples s1 and s2 straight into sk and reads
them back from there, and splits each row of t into t1 (pk) and t0 (sk) as it is
finished. Signing squeezes the mask y straight into the z field of the caller's
signature buffer (its bytes are BitPack(y)), recomputes the rows of w after the
challenge instead of storing w, and turns y into z in place; its peak is c_hat, one
operand and one accumulator. Verification checks the signature's form first, then
computes w'_Approx row by row with c t1 2^d taken term by term over the tau non-zero
coefficients of c, hashing each row of w1' as it is done; its row accumulator shares the
memory of the row's one polynomial and NTT(z_j) is computed a quarter (64 coefficients)
at a time, so its peak is one polynomial and a quarter (docs/SIG.md, "Small memory").

Stack per operation (bytes; painted, keys and signature in the caller's buffers, as pqm4
measures). Signing is the largest figure over its $runs runs.

| scheme | op | painted -Os | call graph -Os | painted -O2 | pqm4 clean | pqm4 m4f | pqm4 m4fstack | -Os vs m4fstack |
|---|---|---|---|---|---|---|---|---|
TXT
for s in ml-dsa-44 ml-dsa-65 ml-dsa-87; do
    for o in keygen sign verify; do
        st=$(op_row $s $o 3 pqpan-m4); fs=$(pq $s m4fstack $o stack_bytes)
        dist=$(awk -v a="$st" -v b="$fs" 'BEGIN { printf "%+d (%.2fx)", a - b, a / b }')
        echo "| $s | $o | $st | $(op_row $s $o 5 pqpan-m4) | $(op_row $s $o 3 pqpan-m4-o2) | $(pq $s clean $o stack_bytes) | $(pq $s m4f $o stack_bytes) | $fs | $dist |"
    done
done
cat <<TXT

Instructions and estimated cycles per operation (as for ML-KEM above). Signing runs
FIPS 204 Alg. 7's rejection loop a random number of times: mean, median and 99th
percentile (nearest rank) over $runs messages (data/cycles/pqpan_m4.csv keeps runs,
cycles_median and cycles_p99; the energy model takes cycles_mean). pqm4's figures are
means over its benchmark runs (measured cycles).

| scheme | op | instructions -Os (mean) | est. cycles -Os mean | median | p99 | est. cycles -O2 mean | pqm4 clean | pqm4 m4f | pqm4 m4fstack |
|---|---|---|---|---|---|---|---|---|---|
TXT
for s in ml-dsa-44 ml-dsa-65 ml-dsa-87; do
    for o in keygen sign verify; do
        echo "| $s | $o | $(op_row $s $o 4 pqpan-m4) | $(op_row $s $o 8 pqpan-m4) | $(op_row $s $o 10 pqpan-m4) | $(op_row $s $o 11 pqpan-m4) | $(op_row $s $o 8 pqpan-m4-o2) | $(pq $s clean $o cycles_mean) | $(pq $s m4f $o cycles_mean) | $(pq $s m4fstack $o cycles_mean) |"
    done
done
cat <<TXT

The speed build (\`pqpan-m4-speed-o2\`: preset cortex-m4-speed-o2, -O2, the assembly
backend, PQPAN_MLDSA_IMPL=speed, which keeps the matrix, NTT(y) and the transformed
secrets as pqm4 m4f does; docs/SIG.md): crypto/mldsa is $(awk -F, '$1 == "crypto/mldsa" { print $2 + $3 }' "$work/pqpan-m4-speed-o2.sizes") B. The last column
divides its estimated cycles by pqm4 m4f's measured ones (issue 30's goal: at most 1.2).
Besides the NTTs, its assembly covers the multiply-accumulate of A_hat o v
(pqpan_mldsa_pointwise_acc), SampleInBall's swap and the squeeze's lane extraction ("The
Cortex-M4 assembly backend" below); HighBits, the hints (from Decompose(w) kept since the
commitment) and w1Encode are C written per gamma2. Where the time goes (a per-block
profile of 20 signatures per level in QEMU at the time of this change, not recomputed by
make bench-m4): Keccak-f[1600] is about half of signing's instructions and two thirds of
key generation's and verification's; ML-DSA-87 signing spent 12 % in the inverse NTT
(31 per attempt) and 5 % each in the forward NTT and the hint checks, before an attempt
stopped at its first failed check (docs/SIG.md, "Constant time"): an attempt now takes
k + l = 15 inverse NTTs, k = 8 more when z passes and 8 more when r0 passes too.

| scheme | op | painted stack | pqm4 m4f stack | instructions (mean) | est. cycles mean | median | p99 | pqm4 m4f | est. cycles / m4f |
|---|---|---|---|---|---|---|---|---|---|
TXT
for s in ml-dsa-44 ml-dsa-65 ml-dsa-87; do
    for o in keygen sign verify; do
        c=$(op_row $s $o 8 pqpan-m4-speed-o2); f=$(pq $s m4f $o cycles_mean)
        echo "| $s | $o | $(op_row $s $o 3 pqpan-m4-speed-o2) | $(pq $s m4f $o stack_bytes) | $(op_row $s $o 4 pqpan-m4-speed-o2) | $c | $(op_row $s $o 10 pqpan-m4-speed-o2) | $(op_row $s $o 11 pqpan-m4-speed-o2) | $f | $(awk -v a="$c" -v b="$f" 'BEGIN { printf "%.2f", a / b }') |"
    done
done
fi
ecc() { awk -F, -v o="$1" -v c="$2" 'NR == 1 { for (k = 1; k <= NF; k++) col[$k] = k; next }
        $1 == "P-256" && $3 == o { print $col[c] }' "$root/data/cycles/classical_ecc_cortex_m4.csv"; }
cat <<TXT

## P-256 ECDH and the LE Secure Connections functions

src/crypto/p256 (complete formulas, fixed 4-bit window, 32-bit limbs; docs/ECDH.md):
$(awk -F, '$1 == "crypto/p256" { print $2 + $3 }' "$work/pqpan-m4.sizes") B at -Os, $(awk -F, '$1 == "crypto/p256" { print $2 + $3 }' "$work/pqpan-m4-o2.sizes") B at -O2. Inputs are RFC 5903 §8.1's key
pairs (m4/bench_ecdh.c); the scalar multiplication runs the same instructions for every
key. "shared (compressed)" decompresses the peer's key first. Beside it, the
hand-optimised assembly of Emill/P256-Cortex-M4 (data/cycles/classical_ecc_cortex_m4.csv:
measured cycles on an nRF52840, stack "at most 2 kB" per its README), the figures the
energy model uses for LE SC.

| op | stack -Os | call graph -Os | stack -O2 | instructions -Os | est. cycles -Os (CPI) | instructions -O2 | est. cycles -O2 (CPI) | Emill cycles | Emill stack |
|---|---|---|---|---|---|---|---|---|---|
TXT
for o in keygen ecdh_shared_secret ecdh_shared_secret_compressed point_decompression; do
    case $o in ecdh_shared_secret_compressed) eo=ecdh_shared_secret ;; *) eo=$o ;; esac
    echo "| $o | $(op_row p-256 $o 3 pqpan-m4) | $(op_row p-256 $o 5 pqpan-m4) | $(op_row p-256 $o 3 pqpan-m4-o2) | $(cyc p-256 $o pqpan-m4) | $(cyc p-256 $o pqpan-m4-o2) | $(ecc $eo cycles) | $(ecc $eo stack_bytes) |"
done
cat <<TXT

The speed build (\`pqpan-m4-speed-o2\`, PQPAN_P256_IMPL=speed: Jacobian coordinates, a
fixed-base table of d 16^i G for key generation, a signed 5-bit window over 1..16 Q and
the doubling dbl-2004-hmv for the shared secret, docs/ECDH.md) with the backend's field
arithmetic in Thumb-2 assembly (src/crypto/m4/p256_fe_m4.S: the Montgomery product by
operand scanning with UMAAL and a reduction step of one multiplication, using p's limbs;
a dedicated squaring: the 28 cross products once, doubled and added to the 8 squares a
pair of limbs at a time, the low half reduced by the same steps and the high half added;
sum, difference and halving with one masked correction): crypto/p256
and crypto/p256/speed are $(p256_code pqpan-m4-speed-o2) B together, the 61,440-byte table included. The ratio columns divide QEMU's
INSTRUCTION count, and the estimated cycles, by Emill's measured cycles (issue 30's
goal for keygen and shared: at most 2).

| op | stack | call graph | instructions | est. cycles (CPI) | Emill cycles | instructions / Emill | est. cycles / Emill |
|---|---|---|---|---|---|---|---|
TXT
for o in keygen ecdh_shared_secret ecdh_shared_secret_compressed point_decompression; do
    case $o in ecdh_shared_secret_compressed) eo=ecdh_shared_secret ;; *) eo=$o ;; esac
    e=$(ecc $eo cycles)
    ratios=$(awk -F, -v o="$o" -v e="$e" '$1 == "p-256" && $2 == o { if (e > 0) printf "%.2f | %.2f", $4 / e, $8 / e; else printf " | " }' "$work/pqpan-m4-speed-o2.agg")
    echo "| $o | $(op_row p-256 $o 3 pqpan-m4-speed-o2) | $(op_row p-256 $o 5 pqpan-m4-speed-o2) | $(cyc p-256 $o pqpan-m4-speed-o2) | $e | $ratios |"
done
cat <<TXT

LE SC pairing functions (Core v5.4 Vol 3 Part H §2.2.6-2.2.9) on AES-CMAC (crypto/lesc,
crypto/aes, crypto/aes_cmac: $(awk -F, '$1 ~ /^crypto\/(lesc|aes|aes_cmac)$/ { n += $2 + $3 } END { print n }' "$work/pqpan-m4.sizes") B at -Os):

| function | stack -Os | call graph -Os | instructions -Os | est. cycles -Os (CPI) | instructions -O2 | est. cycles -O2 (CPI) |
|---|---|---|---|---|---|---|
TXT
for o in f4 f5 f6 g2; do
    echo "| $o | $(op_row le-sc $o 3 pqpan-m4) | $(op_row le-sc $o 5 pqpan-m4) | $(cyc le-sc $o pqpan-m4) | $(cyc le-sc $o pqpan-m4-o2) |"
done
if grep -q '^pqke-' "$work/pqpan-m4.ops"; then
cat <<TXT

## PQKE steps (docs/PROTOCOL.md), both parties on one Cortex-M4

Stack painted per step (the parties' contexts and the messages are in the caller's
frame). The call-graph column is the deepest static chain from the step's entry point
(for the responder, \`pqpan_pqke_responder_handle\` covers both steps); PQKE reaches ML-KEM
through the KEM descriptor table, an indirect call the static graph cannot follow, so for
the three KEM steps it stops at that call and the painted figure is the one to use.

| suite | step | stack -Os | call graph -Os | stack -O2 | instructions -Os | est. cycles -Os | instructions -O2 |
|---|---|---|---|---|---|---|---|
TXT
awk -F, 'NR == FNR { if ($1 ~ /^pqke-/) { st2[$1 "," $2] = $3; in2[$1 "," $2] = $4 } next }
    $1 ~ /^pqke-/ { printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $5, st2[$1 "," $2], $4, $8, in2[$1 "," $2] }' \
    "$work/pqpan-m4-o2.ops" "$work/pqpan-m4.ops"
cat <<TXT

Protocol cost beyond the ML-KEM operation, per party (-Os instructions: the PQKE steps
minus keygen and decaps_checked_dk for the initiator (it decapsulates with the ephemeral
dk it generated, so without the §7.3 hash check), minus encaps for the responder; transcript
hashing, KMAC key schedule, confirmation tags, and message codecs):

| suite | initiator | responder |
|---|---|---|
TXT
awk -F, '{ v[$1 "," $2] = $4 }
    END {
        n = split("512 768 1024", lv, " ")
        for (i = 1; i <= n; i++) {
            k = "ml-kem-" lv[i]; p = "pqke-" k
            if (!((p ",initiator_start") in v)) continue
            printf "| %s | %d | %d |\n", p, v[p ",initiator_start"] - v[k ",keygen"] + v[p ",initiator_resp"] - v[k ",decaps_checked_dk"],
                   v[p ",responder_init"] - v[k ",encaps"] + v[p ",responder_fin"]
        }
    }' "$work/pqpan-m4.ops"
else
cat <<TXT

## PQKE steps

Not measured: src/pqke was not in this build (m4/bench_pqke.c measures the four steps
once it is).
TXT
fi
cat <<TXT

## The Cortex-M4 assembly backend (PQPAN_M4_ASM, issue 18)

ON in the presets cortex-m4 and cortex-m4-o2 (\`make m4\`), OFF elsewhere (the presets
cortex-m4-portable and cortex-m4-portable-o2 build the portable C alone). What it replaces
so far:

- Keccak-f[1600]: src/crypto/m4/keccak_f1600.S, generated by scripts/gen_keccak_m4.py
  (its docstring gives the method; \`--selftest\` runs the generated round code on a
  register model against a plain Keccak). Bit-interleaved 32-bit words, every rotation
  folded into the shifted operand of an EOR or BIC (theta's D words too: each is kept in
  a frame that makes it one EOR of two parities), theta's parities accumulated while
  chi's outputs are stored (row 0's outputs computed straight into them), D in FPU
  registers s0..s9 with up to two D words carried in r12 and lr from row to row and
  the first row's D words computed straight into its registers (27 D moves per round
  instead of 50; the round-constant pointer in a stack slot), and
  17 of the 50 state words (those every round reads before it writes them) in FPU
  registers s15..s31 for the whole permutation, so that a round loads and stores 33
  words instead of 50 (VMOV between a core and an FPU register is 1 cycle,
  an LDR 2: Cortex-M4 TRM, Arm DDI 0439B, FPU instruction timings and Table 3-1; the
  secondary source used for the VMOV figure: https://compendium.i-0.nl/docs/data-operations/fpu_reg). Two rounds per loop pass, the
  first into a buffer on the stack laid out in the order the second reads it, which
  POPs it (one POP per row); the entry reads the state with LDM. No branch or address
  depends on the state (the only branches are the fixed-count loops). The sponge (src/crypto/sha3.c
  with src/crypto/m4/sponge_m4.c) keeps its state in that interleaved, framed form
  between permutations and converts only the lanes it absorbs or squeezes; the rounds
  alone (\`pqpan_keccak_m4_permute\`, the row keccak m4_permute) take
  $(op_row keccak m4_permute 4 pqpan-m4-asm) instructions and $(op_row keccak m4_permute 3 pqpan-m4-asm) B of stack. The public
  \`pqpan_keccak_f1600\` (row keccak f1600) keeps the standard lane layout by converting
  all 25 lanes on entry and exit. ML-DSA's RejNTTPoly now squeezes 24-byte pieces instead
  of reading the state directly, in every build.
- NTT, inverse NTT and both base multiplications (issue 30): src/crypto/m4/mlkem_ntt_m4.S,
  two coefficients per 32-bit word, each Montgomery product one 16 x 16-bit multiply
  (SMULBB/SMULBT/SMULTB/SMULTT, the zeta's half chosen by the variant) and the reduction
  SMULBB, SMLABT (q^-1 and -q in one register), PKHTB joining two results and
  SADD16/SSUB16 the butterfly: 9 instructions per two butterflies, all single-cycle on
  the Cortex-M4 (TRM Table 3-1). 16 coefficients in 8 registers, three layers per pass
  (forward: 128 alone, then 64, 32, 16 and 8, 4, 2; the inverse mirrored, taking inputs
  below 4q, the unreduced sum of up to four base multiplications, its Barrett
  reductions after len = 2 and 16, and the last layer's zeta and the scaling by
  128^-1 R^2 one product per output), zetas read as words of ntt.c's table. The base multiplication
  decodes both 12-bit operands in registers (PKHBT, BIC, UBFX per 6 bytes), SMUAD and
  SMUADX form the two sums of Alg. 12. Results equal the portable C coefficient for
  coefficient (same reductions and representatives); polynomials and the table need only
  2-byte alignment (LDR/STR, never LDM). src/crypto/m4/ntt_m4.c keeps the C with DSP
  helpers for the polynomial's Barrett reduction and the Montgomery conversions, and
  (issue 30) ByteEncode_12 in one pass with the Barrett reduction (y_hat, s_hat) or the
  multiplication by R (KeyGen's t_hat), SADD16, SSUB16 and SEL taking both halves to
  [0, q), and the message's addition two coefficients per SADD16.
- SamplePolyCBD_2 (eta = 2): the same file, 8 coefficients per input word with SSUB8,
  SXTB16 and PKHBT/PKHTB; SamplePolyCBD_3 (eta = 3, ML-KEM-512's eta1, issue 30): 4
  coefficients per 24 bits with one subtraction for the four 3-bit fields (biased by 3
  so that no borrow leaves a field) and SSUB16.
- P-256's field arithmetic, in the P-256 speed build only (pqpan-m4-speed-o2):
  src/crypto/m4/p256_fe_m4.S, the Montgomery product by operand scanning with UMAAL, the
  9-limb accumulator in a window of 9 registers that rotates by one limb per step, each
  reduction step one UMAAL (p's limbs are 2^32 - 1, 0 and 1, and -p^-1 = 1 mod 2^32); a
  dedicated squaring (the 28 cross products a_i a_j once, by rows with UMAAL; each pair
  of limbs, once no later row reaches it, doubled by ADCS with a shifted operand and added
  to a_i^2 by UMLAL; the low half reduced by the product's steps, the high half added);
  the sum, the difference and the halving (r = a / 2 mod p, for the doubling formula)
  with one masked correction each; the operands read two limbs at a time by LDRD.
- ML-DSA's NTT, inverse NTT and pointwise Montgomery product (issue 30), in every build
  with the backend: src/crypto/m4/mldsa_ntt_m4.S, three layers per pass over the
  polynomial (3 + 3 + 2 for the 8 layers: 8 coefficients in registers, the pass's 7 zetas
  in FPU registers), each Montgomery product by a zeta one SMULL, MUL and SMLAL (R = 2^32,
  the low word cancelled exactly, as mldsa_montgomery_reduce), the butterfly's sum and
  difference two more instructions; the inverse reads the forward table (-zeta (x - y) as
  zeta (y - x)), takes the entry reduction into its first pass and the scaling by
  256^-1 R^2 into its last. Results equal src/crypto/mldsa/ntt.c coefficient for
  coefficient. The speed build's row sums of A_hat o v use the same file's
  pqpan_mldsa_pointwise_acc (r_n + a_n b_n R^-1: the product, then one ADD per
  coefficient). The small build's quarter NTT (pqpan_mldsa_ntt_layers, verification)
  stays C.
- SampleInBall's swap (ML-DSA, every build with the backend):
  src/crypto/m4/mldsa_ball_m4.S, one pass over the words up to c_i, four coefficients per
  word: USUB8 of (positions XOR j) - 0x01 sets GE where a position differs from j, and SEL
  collects c_j and writes the sign byte by byte, so neither j nor the sign chooses a branch
  or an address.
- The sponge's squeeze of whole lanes: pqpan_keccak_m4_extract, generated with the
  permutation into src/crypto/m4/keccak_f1600.S (the frame rotation by ROR, the bytes of
  the even and the odd word paired by UXTB16 + ORR, three bit swaps with immediate masks
  per 16-bit half, the halves joined by PKHBT/PKHTB, unaligned STR), instead of one call
  and eight byte stores per lane; its absorb of whole lanes, pqpan_keccak_m4_absorb, the
  same steps in reverse (unaligned LDR, the swaps, PKHBT/PKHTB, UXTB16 + ORR, one
  LDRD/EOR/STRD per lane with the rotation into the frame in the EOR's shifted operand). Both are unrolled over the 24 lanes a rate can hold, so each lane's
  frames are immediates (no table load, no loop branch): a TBH on the first lane enters
  the code, a SUBS/BEQ after each lane leaves it after count lanes (crypto/sha3 of
  pqpan-m4-asm-o2 in the code-size table). The -Os builds (where gcc defines
  __OPTIMIZE_SIZE__ for the .S) get one loop per function instead (crypto/sha3 of
  pqpan-m4-asm): each word's frame read from the table and applied by ROR by register
  (absorb also subtracts it from 32), plus the loop's branch.
- SampleNTT's rejection step (issue 30): src/crypto/m4/mlkem_rej_m4.S, one unaligned
  word per 3-byte triple, both 12-bit candidates stored and the count advanced by the
  sign of d - q (no branch per candidate), one branch per pass testing both bounds. The
  matrix comes from the public rho, so its trip counts and store addresses may depend on
  the bytes, as in the C.
- Still the portable C (in every build): compression, decompression and the other byte
  encodings (written out per d without loops; their bias and rounding constants are held
  in a register on Arm, so that each coefficient takes one ADD or MLA for them). Compression and ByteEncode_1 take |p_i| < 2q (Compress_d of
  x + 2q with an exact 2^40 reciprocal), so encapsulation and decapsulation reduce no
  polynomial before compressing or before the inverse NTT; the §7.2 modulus check of ek
  runs a word at a time without branches (issue 30).

What limits the ratio to pqm4 m4fspeed: Keccak-f[1600] is still about 60 % of the
estimated cycles of an ML-KEM operation. ML-KEM-768 decapsulation runs 53 permutations
(counted from a per-function profile of the QEMU run at the time of issue 30's change,
not recomputed by make bench-m4): 9 for the §7.3 hash check of the ek inside dk (1184
bytes at SHA3-256's rate of 136), 9 for J(z || c), 27 for the 9 matrix entries (3
SHAKE128 blocks each, all of them used), 7 for the PRF and 1 for G. pqm4's decapsulation
does not repeat the hash check, so 9 of the 53 have no counterpart there; pqpan's decaps
keeps it because its API promises the §7.3 check (include/pqpan/kem.h). The
decaps_checked_dk rows are the entry without it, for a dk checked once or made by keygen in
the same module (§7.3 lets such a caller skip the check; PQKE's initiator uses it for its
ephemeral key): they are the like-for-like comparison with pqm4's decaps, and the pqm4
columns of those rows show pqm4's decaps. The rounds cost about as
much as a bit-interleaved ARMv7-M Keccak with the state in memory can (per round: 33
loads, by one POP per row in the second round of a pass, 33 stores, 34 FPU moves of the
resident words, 27 D moves, 50 D XORs, 100 chi, 40 parity and 30 theta
instructions, and 2 to 4 for the round constant through its stack slot). The estimate charges 2 cycles per load where a real M4 pipelines
neighbouring loads (see below), which counts against pqpan in this comparison with
pqm4's measured cycles. Next steps: compression and decompression in assembly (about 7
and 6 instructions per coefficient in the C); the
transforms are bound by their arithmetic (7 layers x 64 word pairs x 9 instructions =
4032 of the NTT's instructions), so LDM/STM for 4-byte-aligned polynomials would save at
most their loads' extra cycles. A per-function profile of any bench row (instructions,
reads, blocks and estimated cycles per function, summing to the row's figures):
`scripts/m4_profile.py ELF build/tools/qemu-insn/libpqpan_insn_profile.so ml-kem-768,encaps`.

Checked in QEMU (\`make test\`, tests/integration/m4_qemu.sh): the asm builds at -Os and
-O2 run the whole of pqpan_m4_test (FIPS 202 values, ACVP ML-KEM and ML-DSA, PQKE) and
compare the backend with the portable C (kept under the names \`*_portable\`): Keccak on
65 states, each permuted three times, NTT, inverse NTT, both base multiplications and
SamplePolyCBD_2, SamplePolyCBD_3 and SampleNTT's rejection step on 64 pseudo-random
inputs each (the inverse NTT's over its whole input range, |a_i| < 4q), the fused
ByteEncode_12 (reduced, and times R) and the message's addition on 64 inputs over the
whole int16 range, ML-DSA's NTT, inverse NTT and pointwise
product on 64 inputs each (all coefficients at +bound, at -bound, alternating, then
pseudo-random; the pointwise product also in place of each operand, and added to an
accumulator of 6 (q - 1)), SampleInBall's swap on 64 challenges of 60 positions, and the
lane extraction and the lane absorb against pqpan_keccak_m4_lane and
pqpan_keccak_m4_xor_lane on 64 states; the portable -Os build runs the same
suites; the speed build (-O2, asm, ML-DSA and P-256 speed) runs them too and compares its
P-256 field product, sum and difference with field.c on 300 operand pairs (0, 1, 2,
p - 1, p - 2, 2^256 - 2^224 - 1 and 2^255 crossed, then random; each result also written
over an operand).

Constant time, checked (tests/integration/m4_qemu.sh, m4/ct_main.c, in the asm -Os,
asm -O2, portable -Os and speed -O2 builds): the instruction-count plugin with \`trace=on\` folds
the address of every executed block and of every data access (reads and writes) between
the markers, in order, into a 64-bit FNV-1a hash. Each ML-KEM operation of each level
runs with the same public inputs (and buffers) and different secrets, and all its runs
must give the same hash: encapsulation with three messages; decapsulation of a valid
ciphertext, of one with a byte flipped (implicit rejection) and with a changed secret
vector s; key generation with two values of z only, because d also determines rho, and
SampleNTT's rejection loop runs a rho-dependent (public) number of times, so different
d give different traces without leaking a secret (keygen's secret vectors go through
the same NTT, base multiplication and CBD code that the encaps and decaps runs cover).
P-256 key generation and shared secret (with RFC 5903 §8.1's g^r) run with the scalars
1, 0x5a...5a and 2^128 floor(n / 2^128) - 1, copied into the same buffer, and must give
one hash each (a branch on the final-subtraction mask planted in p256_fe_m4.S made them
differ when tried). ML-KEM's NTT, inverse NTT and both base multiplications (ntt.c, or
the backend's mlkem_ntt_m4.S) run on three secret polynomials (zero, the input bound with
alternating signs, pseudo-random; the base multiplications' secret operand as int16 and
as ByteEncode_12) in the same buffers and must give one hash each (a load indexed by a
coefficient planted in the NTT's first pass made them differ when tried). ML-DSA's NTT, inverse NTT, pointwise product and pointwise
multiply-accumulate (ntt.c, or the backend's mldsa_ntt_m4.S) run on three secret
polynomials (all zero, the input bound with alternating signs, pseudo-random) in the
same buffer and must give one hash each, and SampleInBall's swaps (sampling.c, or
mldsa_ball_m4.S) for 60 positions with three sets of secret positions and signs.
SHA-256 of a secret 64-octet block and HMAC-SHA-256 under a secret 32-octet key
(src/crypto/sha256.c, the BLE Mesh provisioning's s2, k5 and Confirmation; all zero, all
0xff, pseudo-random) must give one hash each (a branch on the block's first octet planted
in its compression function made the digest's differ when tried). Two planted leaks (a branch on a secret bit, a load at a secret-indexed address) must
give different hashes, which shows the check can fail. What it does not see: timing
that depends on data without changing the instruction or address sequence (none on the
Cortex-M4 for the instructions used here: the TRM gives them fixed cycle counts).

## Cycles from instructions (an estimate)

QEMU executes instructions, not cycles. The plugin also counts, per operation, the data
memory reads and the executed translation blocks (each ends at a branch, or where QEMU
cuts a block: at a 1 KiB page of code (seen in the Keccak rounds, whose blocks start at
page boundaries) or at its own size limit, so the same instructions placed elsewhere can
count a few more blocks). The reads are counted by a callback on every access that
keeps the loads; until issue 30's change an inline counter filtered on reads was used,
which QEMU 7.2 runs on the stores instead, so the figures measured before it carried the
stores in this column (tools/qemu-insn/insn_count.c; the calibration function's 3 loads
now check it in tests/integration/m4_qemu.sh). The estimate
applies the Cortex-M4 instruction timings of the Cortex-M4 Technical Reference Manual
(Arm DDI 0439B, §3.3.1, Table 3-1): 1 cycle per instruction for data processing,
multiply and multiply-accumulate; +1 per load (LDR 2 cycles, LDM/LDRD 1+N); a taken
branch 1+P with P = 1..3 pipeline-refill cycles, taken here as P = $branch_penalty per block.
Pipelined neighbouring loads (N+1 instead of 2N) and not-taken branches make this an
upper-side estimate; stores are counted at 1 cycle (write buffer). Flash wait states:
the nRF52840 runs at 64 MHz from flash through its instruction cache (nRF52840 Product
Specification v1.7, NVMC, ICACHECNF); the estimate assumes cache hits (no wait states) in
the hot loops. It is an ASSUMPTION, not a measurement: the CSV keeps instructions,
mem_reads and blocks so the cycles can be recomputed with another model (pqm4's own
figures are measured cycles on an STM32F407 at 24 MHz with zero wait states).

How far the estimate can be from a real Cortex-M4, and what that means for the ratios to
pqm4: (1) loads are counted at 2 cycles each, but back-to-back loads pipeline (TRM Table
3-1 note: N+1 for N neighbouring loads), so code dense in loads (the Keccak round loads
each of its 50 words once) is over-estimated by up to one cycle per load; (2) every
executed block is charged $branch_penalty refill cycles, where a taken branch costs 1 to 3
and a not-taken one none; (3) flash wait states are not modelled at all: pqm4 measures at
24 MHz, where the STM32F407 flash needs no wait state, while at 64 MHz from flash a fetch
that misses the nRF52840's instruction cache waits, which the estimate leaves out. Straight
unrolled code such as the Keccak rounds (about 2.6 KB per pass) fits the cache, so a
loop's later iterations hit it; its first pass and every cold call do not. Within the
model the asm and portable builds are compared like for like; against pqm4's measured
cycles, (1) and (2) make the ratios pessimistic for pqpan by roughly the mem_reads and
blocks columns' share of the estimate, and (3) would add cycles on both sides on a
device with wait states.
TXT
} >"$md"
echo "bench-m4: wrote $csv and $md (commit $commit)"
cat "$md"
