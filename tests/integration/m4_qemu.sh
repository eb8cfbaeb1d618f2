#!/bin/sh
# The portable core on a Cortex-M4 (QEMU mps2-an386): cross-builds m4/ with
# cmake/toolchain-cortex-m4.cmake, then runs under QEMU
#   pqpan_m4_test   SHA-3, P-256 ECDH (all 25 CAVP ECC CDH cases, RFC 5903, Core spec
#                   Appendix D.1), AES/CMAC and LE SC f4/f5/f6/g2, ACVP ML-KEM and ML-DSA,
#                   and PQKE checks, with the assembly backend (PQPAN_M4_ASM, which also
#                   compares the assembly with the portable C) at -Os and -O2 and without
#                   it at -Os, and the speed build (backend, -O2, PQPAN_MLDSA_IMPL and
#                   PQPAN_P256_IMPL speed; its P-256 field assembly compared with
#                   field.c): must exit 0;
#   pqpan_m4_fault  a deliberate UsageFault: must exit non-zero through the fault handler;
#   pqpan_m4_bench  with the instruction-counting plugin: the calibration function must
#                   count exactly, and every measured operation must succeed;
#   pqpan_m4_ct     with the plugin's trace=on, in the four builds: each ML-KEM operation
#                   of each level, P-256 key generation and shared secret, ML-DSA's
#                   NTT, inverse NTT, pointwise product (alone and accumulated) and
#                   SampleInBall's swaps, ML-KEM's NTT, inverse NTT and both base
#                   multiplications, SHA-256 and HMAC-SHA-256 must execute
#                   the same blocks and touch the same addresses in the same order for
#                   different secrets, and both planted leaks (canary) must be seen.
# Usage: m4_qemu.sh CLI SRCDIR BUILDDIR. Exit 77 (skipped) only without the toolchain.
set -eu
src=$2
build=$3
for tool in arm-none-eabi-gcc qemu-system-arm; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "SKIPPED: $tool is not installed (scripts/deps.sh installs gcc-arm-none-eabi," \
             "libnewlib-arm-none-eabi and qemu-system-arm)"
        exit 77
    fi
done

# cross_build DIR OPT ASM [IMPL]: configures and builds m4/ with one optimisation level,
# with (ASM=ON) or without the assembly backend, and the small (default) or speed builds
# of ML-DSA and P-256.
cross_build() {
    cmake -S "$src" -B "$1" -DCMAKE_TOOLCHAIN_FILE="$src/cmake/toolchain-cortex-m4.cmake" \
        -DPQPAN_M4_OPT="$2" -DPQPAN_M4_ASM="$3" -DPQPAN_MLDSA_IMPL="${4:-small}" \
        -DPQPAN_P256_IMPL="${4:-small}" >"$1.configure.log" || { cat "$1.configure.log"; exit 1; }
    cmake --build "$1" -j 2 >"$1.build.log" 2>&1 || { cat "$1.build.log"; exit 1; }
}

qemu() {
    timeout 120 qemu-system-arm -M mps2-an386 -nographic -monitor none -serial none \
        -semihosting-config enable=on,target=native -kernel "$@"
}

m4=$build/m4-cross
cross_build "$m4" -Os ON
cross_build "$m4-o2" -O2 ON
cross_build "$m4-portable" -Os OFF
cross_build "$m4-speed" -O2 ON speed
echo "== pqpan_m4_test -Os, assembly backend (Cortex-M4, QEMU mps2-an386)"
qemu "$m4/m4/pqpan_m4_test.elf" 2>&1
echo "== pqpan_m4_test -O2, assembly backend"
qemu "$m4-o2/m4/pqpan_m4_test.elf" 2>&1
echo "== pqpan_m4_test -Os, portable C"
qemu "$m4-portable/m4/pqpan_m4_test.elf" 2>&1
echo "== pqpan_m4_test -O2, assembly backend, speed builds of ML-DSA and P-256"
qemu "$m4-speed/m4/pqpan_m4_test.elf" 2>&1
echo "== pqpan_m4_fault (must fail)"
if out=$(qemu "$m4/m4/pqpan_m4_fault.elf" 2>&1); then
    echo "$out"; echo "FAIL: a HardFault did not end QEMU with a non-zero status"; exit 1
fi
echo "$out" | grep -q "FATAL: HardFault" || { echo "$out"; echo "FAIL: no fault report"; exit 1; }
echo "fault reported and exit status non-zero: ok"

plugin=$build/tools/qemu-insn/libpqpan_insn_count.so
echo "== pqpan_m4_bench with $plugin"
elf=$m4/m4/pqpan_m4_bench.elf
addr() { arm-none-eabi-nm "$elf" | awk -v s="$1" '$3 == s { print "0x" $1 }'; }
log=$build/m4-insn.log
rm -f "$log"
bench=$(qemu "$elf" -plugin "$plugin,begin=$(addr pqpan_m4_mark_begin),end=$(addr pqpan_m4_mark_end)" \
        -d plugin -D "$log" 2>&1)
echo "$bench"
# The known function runs PQPAN_M4_KNOWN_INSNS (m4/bench.h) instructions plus the BL calling
# it, PQPAN_M4_KNOWN_LOADS of them loads and none a store: the memory-read column must count
# exactly those (with QEMU 7.2 an inline counter filtered on reads counted the stores).
known=$(sed -n 's/^#define PQPAN_M4_KNOWN_INSNS //p' "$src/m4/bench.h")
loads=$(sed -n 's/^#define PQPAN_M4_KNOWN_LOADS //p' "$src/m4/bench.h")
awk -F, -v known="$known" -v loads="$loads" '
    NR == FNR { if ($1 == "insn") { insn[++n] = $2; reads[n] = $3 } next }
    $1 == "bench" { m++; if ($5 != 0) { print "FAIL: " $2 " " $3 " returned an error"; bad = 1 } }
    END {
        if (n != m) { print "FAIL: " n " instruction counts for " m " operations"; exit 1 }
        if (insn[2] - insn[1] != known + 1) {
            print "FAIL: calibration counted " insn[2] - insn[1] ", expected " known + 1; exit 1
        }
        if (reads[2] - reads[1] != loads) {
            print "FAIL: calibration counted " reads[2] - reads[1] " memory reads, expected " loads; exit 1
        }
        print "instruction counter exact on the calibration function (" known + 1 " instructions, " loads " loads)"
        exit bad
    }' "$log" - <<EOT
$bench
EOT

# ct_check DIR: the constant-time trace check (m4/ct_main.c) on one build.
ct_check() {
    elf=$1/m4/pqpan_m4_ct.elf
    [ -f "$elf" ] || { echo "FAIL: $elf not built"; exit 1; }
    log=$1/m4-ct.log
    rm -f "$log"
    out=$(qemu "$elf" -plugin "$plugin,begin=$(addr pqpan_m4_mark_begin),end=$(addr pqpan_m4_mark_end),trace=on" \
          -d plugin -D "$log" 2>&1) || { echo "$out"; echo "FAIL: pqpan_m4_ct exited non-zero"; exit 1; }
    awk -F, '
        NR == FNR { if ($1 == "trace") { hash[++n] = $2; events[n] = $3 } next }
        $1 == "ct" {
            k = $2 "," $3; m++
            if ($4 != 0) { print "FAIL: " k " returned an error"; bad = 1 }
            if (!(k in first)) { first[k] = hash[m]; order[++keys] = k; same[k] = 1; runs[k] = 0 }
            else if (hash[m] != first[k]) same[k] = 0
            runs[k]++; ev[k] = events[m]
        }
        END {
            if (n != m) { print "FAIL: " n " traces for " m " runs"; exit 1 }
            for (i = 1; i <= keys; i++) {
                k = order[i]
                if (k ~ /^canary,/) {
                    if (same[k]) { print "FAIL: planted leak " k " not seen by the trace"; bad = 1 }
                    else print "planted leak " k ": traces differ, as they must"
                } else if (!same[k]) { print "FAIL: " k " trace depends on the secret"; bad = 1 }
                else print k ": " runs[k] " runs with different secrets, identical trace (" ev[k] " events)"
            }
            exit bad
        }' "$log" - <<EOT
$out
EOT
}
echo "== constant-time trace check, -Os, assembly backend"
ct_check "$m4"
echo "== constant-time trace check, -O2, assembly backend"
ct_check "$m4-o2"
echo "== constant-time trace check, -Os, portable C"
ct_check "$m4-portable"
echo "== constant-time trace check, -O2, assembly backend, speed builds"
ct_check "$m4-speed"
