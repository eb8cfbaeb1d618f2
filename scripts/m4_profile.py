#!/usr/bin/env python3
"""Per-function profile of operations of the Cortex-M4 bench (issue 30).

Runs an M4 bench ELF (m4/bench_main.c) in QEMU mps2-an386 with the insn_profile plugin
(tools/qemu-insn/insn_profile.c), maps each counted address to the ELF's function symbols
(arm-none-eabi-nm) and prints, for each requested bench row, the functions by estimated
cycles: instructions + memory reads + 2 x executed blocks, the estimate of
scripts/bench_m4.sh (docs/M4.md, "Cycles from instructions"). A row's total includes the
marker calls, which scripts/bench_m4.sh subtracts (a few hundred cycles).

Usage: scripts/m4_profile.py ELF PLUGIN ROW [ROW ...]
  ELF     e.g. build-m4-o2/m4/pqpan_m4_bench.elf
  PLUGIN  the host build's tools/qemu-insn/libpqpan_insn_profile.so
  ROW     scheme,op as the bench prints it, e.g. ml-kem-768,encaps
Exit status: 2 for a usage error, 1 when QEMU fails or a row was not measured.
"""
import bisect
import collections
import os
import subprocess
import sys
import tempfile

# Estimated cycles per executed block beyond its instructions (scripts/bench_m4.sh).
BRANCH_PENALTY = 2
# Rows below this share of the total (per mille) are not printed.
MIN_PER_MILLE = 1


def function_symbols(elf):
    """Sorted (address, size, name) of the ELF's text symbols."""
    out = subprocess.run(['arm-none-eabi-nm', '-n', '-S', elf], capture_output=True, text=True,
                         check=True).stdout
    syms = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in 'tTwW':
            syms.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
    return syms


def symbol_address(syms, name):
    for addr, _, sym in syms:
        if sym == name:
            return addr & ~1
    raise SystemExit('m4_profile: %s has no symbol %s' % (sys.argv[1], name))


def run_bench(elf, plugin, syms, prof_path):
    """The bench's own output lines; the plugin's counts go to prof_path."""
    begin = symbol_address(syms, 'pqpan_m4_mark_begin')
    end = symbol_address(syms, 'pqpan_m4_mark_end')
    cmd = ['qemu-system-arm', '-M', 'mps2-an386', '-nographic', '-monitor', 'none', '-serial',
           'none', '-semihosting-config', 'enable=on,target=native', '-kernel', elf, '-plugin',
           '%s,begin=0x%x,end=0x%x,out=%s' % (plugin, begin, end, prof_path)]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=3600)
    if done.returncode != 0:
        sys.stderr.write(done.stdout)
        raise SystemExit(1)
    return done.stdout.splitlines()


def per_function(syms, prof_path, pair_names, wanted):
    """{row: {function: [instructions, reads, blocks]}} for the wanted rows."""
    starts = [s[0] for s in syms]
    table = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0, 0]))
    row = None
    with open(prof_path) as prof:
        for line in prof:
            fields = line.strip().split(',')
            if fields[0] == 'pair':
                row = pair_names[int(fields[1])]
                continue
            if row not in wanted:
                continue
            pc = int(fields[0], 16)
            i = bisect.bisect_right(starts, pc) - 1
            name = syms[i][2] if i >= 0 and pc < syms[i][0] + max(syms[i][1], 2) else '0x%x' % pc
            counts = table[row][name]
            for k in range(3):
                counts[k] += int(fields[k + 1])
    return table


def cycles(counts):
    return counts[0] + counts[1] + BRANCH_PENALTY * counts[2]


def main():
    if len(sys.argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    elf, plugin, wanted = sys.argv[1], sys.argv[2], sys.argv[3:]
    for path in (elf, plugin):
        if not os.path.isfile(path):
            sys.stderr.write('m4_profile: %s: no such file\n' % path)
            return 2
    syms = function_symbols(elf)
    with tempfile.TemporaryDirectory() as tmp:
        prof_path = os.path.join(tmp, 'profile.csv')
        lines = run_bench(elf, plugin, syms, prof_path)
        pair_names = [','.join(l.split(',')[1:3]) for l in lines if l.startswith('bench,')]
        table = per_function(syms, prof_path, pair_names, wanted)
    status = 0
    for row in wanted:
        if row not in table:
            sys.stderr.write('m4_profile: no bench row %s\n' % row)
            status = 1
            continue
        total = sum(cycles(c) for c in table[row].values())
        print('%s: %d estimated cycles, %d instructions' %
              (row, total, sum(c[0] for c in table[row].values())))
        print('%-40s %10s %7s %10s %8s %8s' % ('function', 'est.cycles', 'share', 'insns', 'reads',
                                             'blocks'))
        for name, c in sorted(table[row].items(), key=lambda kv: -cycles(kv[1])):
            if cycles(c) * 1000 < total * MIN_PER_MILLE:
                break
            print('%-40s %10d %6.1f%% %10d %8d %8d' % (name, cycles(c), 100.0 * cycles(c) / total,
                                                     c[0], c[1], c[2]))
    return status


if __name__ == '__main__':
    sys.exit(main())
