#!/usr/bin/env python3
"""Prints the loop body of pqpan_keccak_f1600 (src/crypto/sha3.c): two Keccak-f[1600]
rounds (FIPS 202 §3.2), state a -> e -> a, with lane complementing.

Lane (x, y) is variable a<x+5y>. theta (§3.2.1), rho (§3.2.2, offsets of Table 2) and
pi (§3.2.3) are fused into one expression per lane, chi (§3.2.4) follows row by row, iota
(§3.2.5) last. Lane complementing (Bertoni, Daemen, Peeters, Van Assche, Van Keer,
"Keccak implementation overview" v3.2, §2.2): the lanes of COMPLEMENTED are kept
inverted between rounds, which turns most of chi's NOTs into AND/OR choices; the caller
inverts them on entry and exit. This script tracks which values are inverted through
theta, rho and pi and picks, for each chi output, the form that needs the fewest NOTs.
Usage: scripts/gen_keccak_rounds.py > body.txt (then paste into the loop)."""
import sys

RHO = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39,
       41, 45, 15, 21, 8, 18, 2, 61, 56, 14]  # by lane index x + 5y
COMPLEMENTED = {(1, 0), (2, 0), (3, 1), (2, 2), (2, 3), (0, 4)}
inv = [[int((x, y) in COMPLEMENTED) for y in range(5)] for x in range(5)]
# theta XORs D[x] = C[x-1] ^ rot(C[x+1]) into column x; C[x] is inverted when column x
# holds an odd number of inverted lanes, so D[x] flips the inversion of column x when
# exactly one of columns x-1, x+1 is odd.
odd = [sum(inv[x]) % 2 for x in range(5)]
d_inv = [odd[(x - 1) % 5] ^ odd[(x + 1) % 5] for x in range(5)]
nots = 0


def chi_output(out, k, inv_in, done_not, emit):
    """out = b[k] ^ (~b[k+1] & b[k+2]) stored with inversion inv_out."""
    global nots
    k1, k2 = (k + 1) % 5, (k + 2) % 5
    f0, f1, f2 = inv_in[k], inv_in[k1], inv_in[k2]

    def neg(j):
        global nots
        if j not in done_not:
            done_not.add(j)
            emit(f"n{j} = ~b{j};")
            nots += 1
        return f"n{j}"
    # (expression, its value is ~T if 1 else T, input it must invert or None)
    forms = {
        (1, 0): [(lambda: f"(b{k1} & b{k2})", 0, None)],
        (0, 1): [(lambda: f"(b{k1} | b{k2})", 1, None)],
        (0, 0): [(lambda: f"({neg(k1)} & b{k2})", 0, k1), (lambda: f"(b{k1} | {neg(k2)})", 1, k2)],
        (1, 1): [(lambda: f"(b{k1} & {neg(k2)})", 0, k2), (lambda: f"({neg(k1)} | b{k2})", 1, k1)],
    }[(f1, f2)]
    x, y = out
    want = inv[x][y]

    def cost(form):
        return int(form[2] is not None and form[2] not in done_not) + int((f0 ^ form[1]) != want)
    expr, t_inv, _ = min(forms, key=cost)
    e = expr()
    if (f0 ^ t_inv) == want:
        return f"b{k} ^ {e}"
    nots += 1
    return f"~(b{k} ^ {e})"


def round_lines(s, t, rc):
    lines = []
    for x in range(5):
        lines.append(f"c{x} = {s}{x} ^ {s}{x + 5} ^ {s}{x + 10} ^ {s}{x + 15} ^ {s}{x + 20};")
    for x in range(5):
        lines.append(f"d{x} = c{(x + 4) % 5} ^ ROL64(c{(x + 1) % 5}, 1);")
    for y in range(5):
        inv_in = []
        for x in range(5):
            # pi: B[x][y] = A[(x + 3y) mod 5][x], i.e. lane (X, x) with 2X + 3x = y mod 5
            src_x = ((y - 3 * x) * 3) % 5
            i = src_x + 5 * x
            inv_in.append(inv[src_x][x] ^ d_inv[src_x])
            val = f"{s}{i} ^ d{src_x}"
            lines.append(f"b{x} = {val};" if RHO[i] == 0 else f"b{x} = ROL64({val}, {RHO[i]});")
        done_not = set()
        for x in range(5):
            lines.append(f"{t}{x + 5 * y} = " + chi_output((x, y), x, inv_in, done_not, lines.append) + ";")
    lines.append(f"{t}0 ^= {rc};")
    return lines


body = round_lines("a", "e", "round_constants[r]") + round_lines("e", "a", "round_constants[r + 1]")
for line in body:
    print("        " + line)
print(f"NOTs per two rounds: {nots}; complemented lanes: "
      f"{sorted(x + 5 * y for x, y in COMPLEMENTED)}", file=sys.stderr)
