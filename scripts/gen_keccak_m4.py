#!/usr/bin/env python3
"""Writes src/crypto/m4/keccak_f1600.S: Keccak-f[1600] (FIPS 202 §3.3, Alg. 7, nr = 24)
in Thumb-2 assembly for the Cortex-M4F (ARMv7E-M), with the C prototype of
pqpan_keccak_f1600 (include/pqpan/sha3.h): lanes in, lanes out, in the standard layout.

Method (everything below is derived here from FIPS 202; no other code was used):
- Bit interleaving (Keccak implementation overview v3.2, §2.1): each 64-bit lane is kept
  as two 32-bit words, its even bits and its odd bits, so a 64-bit rotation is two 32-bit
  rotations: ROL64 by 2k rotates both words by k; ROL64 by 2k+1 swaps them, the new even
  word being the odd one rotated by k+1 and the new odd word the even one rotated by k.
- Every 32-bit rotation is folded into the flexible second operand (ROR #n) of an EOR or
  BIC (ARMv7-M ARM, A5.3.2 / A7.4.2 "Shifts applied to a register"), never executed on its
  own: each stored word v carries a fixed "frame" f (true value = ROR(v, f)), and so does
  each of theta's D words (solve_d_frames): the frames are chosen so that every D word is
  one EOR of two parities with the unshifted one already in the D word's frame, and chi
  computes each output in the frame of its first BIC operand, so the frame of a lane
  position is the same in every round.
- theta's column parities for the next round are accumulated while chi's outputs are
  stored (5 registers per half; row 0's outputs are computed into them, so each parity
  is kept in the frame of its row-0 word), and D lives in FPU registers s0..s9 (VMOV,
  no memory). Each round starts with theta's D (the permutation's entry computes only the
  parities, so the last round computes no D that nothing reads). theta computes the D
  words of the round's first row straight into that row's chi input registers, and up
  to two D words the next row needs into r12 and lr; a D word moved into r12 or lr for
  one chi input stays there for the next row that needs it (each row uses the words it
  finds there first and moves last those the next row needs; the row order and the
  words kept come from a search over both, carry_plan): 27 D moves per round instead of
  50.
- Two rounds per loop pass: the state -> a buffer on the stack -> the state, except for
  17 words kept in FPU registers s15..s31 for the whole permutation (copied there on
  entry, stored on exit; VMOV between a core and an FPU register is 1 cycle and touches
  no memory, where an LDR is 2: Cortex-M4 TRM, Arm DDI 0439B, FPU instruction timings and
  Table 3-1; secondary source for VMOV: https://compendium.i-0.nl/docs/data-operations/fpu_reg). A word can stay in one register only if
  every round reads it (as a chi input) no later than it writes it (as a chi output):
  28 of the 50 positions qualify in the order the rounds run (FPU_RESIDENT). s16..s31
  are callee-saved (AAPCS §5.1.2.1), hence the VPUSH / VPOP.
- The buffer holds its 33 words in the order the second round of a pass reads them, and
  that round POPs them (one POP per row, the lowest register from the lowest address:
  Arm DDI 0403E §A7.7, POP); one SUB per pass puts sp back. Below sp are only words already
  read, so an exception's stacking there loses nothing. The first round writes the
  buffer with STR at fixed offsets from sp.
- The entry reads the 50 words of the state with LDM (row 0's 10 straight into the 10
  column parities), copying the FPU-resident ones to their registers as they pass.
- The round-constant pointer lives in a stack slot above the buffer (lr holds D words):
  the pass's first iota loads it and advances it past the pass's 4 words (LDR
  post-indexed, STR back), the other three address their word below it; the first one
  also compares it with the table's end (ADR, no load), and the BNE that ends the pass
  uses those flags (no instruction of the rounds sets flags).
- The sponge (src/crypto/sha3.c with src/crypto/m4/sponge_m4.c) keeps its state in this
  form between permutations and converts only the lanes it absorbs or squeezes;
  pqpan_keccak_f1600 converts all 25 lanes on entry and exit around the same rounds.
- The sponge's conversions of whole lanes (pqpan_keccak_m4_extract and _absorb) are
  written here too, so that each lane's frames are immediates taken from FRAMES: the
  code is unrolled over the 24 lanes a rate can hold, entered through a TBH on the first
  lane and left by a SUBS/BEQ after each lane (no table load, no loop branch per lane).
  A build at -Os (__OPTIMIZE_SIZE__, which gcc defines when it preprocesses the .S with
  -Os) gets one loop per function instead: each word's frame read from the 50-byte table
  and applied by ROR by register (absorb also subtracts it from 32), for a fraction of
  the unrolled code's size (docs/M4.md's code-size table: crypto/sha3 of the asm builds).
Usage: scripts/gen_keccak_m4.py > src/crypto/m4/keccak_f1600.S
       scripts/gen_keccak_m4.py --selftest   (runs the round code on a model of the
       registers and checks it against a plain Keccak-f[1600])"""
import functools
import itertools
import random
import re
import sys

# rho offsets (FIPS 202 §3.2.2, Table 2) by lane index x + 5y.
RHO = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39,
       41, 45, 15, 21, 8, 18, 2, 61, 56, 14]
MASK32 = 0xFFFFFFFF
C = ["r1", "r2", "r3", "r4", "r5"]        # chi inputs of one half-plane
ACC = ["r7", "r8", "r9", "r10", "r11"]    # theta column parities of the next round
T, TMP, T2 = "r6", "r12", "lr"


def rc_bit(t):
    """rc(t) of FIPS 202 §3.2.5, Alg. 5 (LFSR x^8 + x^6 + x^5 + x^4 + 1)."""
    if t % 255 == 0:
        return 1
    r = [1, 0, 0, 0, 0, 0, 0, 0]
    for _ in range(t % 255):
        r = [0] + r
        r[0] ^= r[8]
        r[4] ^= r[8]
        r[5] ^= r[8]
        r[6] ^= r[8]
        r = r[:8]
    return r[0]


def round_constant(ir):
    """RC of round ir (FIPS 202 §3.2.5, Alg. 6, l = 6)."""
    rc = 0
    for j in range(7):
        rc |= rc_bit(j + 7 * ir) << ((1 << j) - 1)
    return rc


def rol32(x, k):
    k %= 32
    return ((x << k) | (x >> (32 - k))) & MASK32 if k else x


def ror32(x, k):
    return rol32(x, 32 - k % 32)


def interleave(lane):
    even = sum(((lane >> (2 * i)) & 1) << i for i in range(32))
    odd = sum(((lane >> (2 * i + 1)) & 1) << i for i in range(32))
    return even, odd


def deinterleave(even, odd):
    return sum((((even >> i) & 1) << (2 * i)) | (((odd >> i) & 1) << (2 * i + 1)) for i in range(32))


def rho_half(r, h):
    """Half of the source lane and ROR amount giving half h of ROL64(lane, r)."""
    if r % 2 == 0:
        return h, (32 - r // 2) % 32
    if h == 0:
        return 1, (32 - (r + 1) // 2) % 32
    return 0, (32 - (r - 1) // 2) % 32


def chi_inputs(y, h):
    """(lane, half, ROR) of the 5 chi inputs of output row y, half h (pi: FIPS 202 §3.2.3,
    A'[x, y] = A[(x + 3y) mod 5, x])."""
    out = []
    for x in range(5):
        lane = (x + 3 * y) % 5 + 5 * x
        hs, s = rho_half(RHO[lane], h)
        out.append((lane, hs, s))
    return out


def d_word(lane, half):
    """Index in s0..s9 of the D word theta XORs into half `half` of lane `lane`: its
    column's (FIPS 202 §3.2.1, D[x] for x = lane mod 5)."""
    return 2 * (lane % 5) + half


def row_d_words(y, h):
    return [d_word(lane, hs) for lane, hs, _ in chi_inputs(y, h)]


# --- frames -------------------------------------------------------------------------
# Each D word d is kept in a frame g[d] too (true D = ROR(stored, g[d])), and so is each
# chi input computed from it: b = Dg ^ ROR(a, F[w] - g[d]) is the theta'd word in frame
# g[d], its rho'd value ROR(b, rho amount + g[d]). chi's output x is computed in the frame
# of its input x + 2 (the first BIC operand, unshifted), which fixes the frame F of every
# stored word from g. theta's D words are computed from the parities (each kept in the
# frame of its row-0 word) by one EOR whose first operand is unshifted, so g[d] must be
# the frame of one of its two parity terms, less 1 for ROL64's odd term; a choice per D
# word makes every g[d] equal some g[d'] plus a constant, which has a solution when the
# constants sum to 0 mod 32 around every cycle. No ROR is then executed on its own.

def parity_source(h, x):
    """(D word, rho ROR) of chi input x + 2 of row 0, half h: the frame of row 0's output
    x, which is the frame of column x's parity of half h, is g[that D word] + the ROR."""
    lane, hs, s = chi_inputs(0, h)[(x + 2) % 5]
    return d_word(lane, hs), s


def d_terms(d):
    """The two parity terms of D word d (FIPS 202 §3.2.1: D[x] = C[x-1] ^ ROL64(C[x+1], 1),
    interleaved: even word = Ce[x-1] ^ ROL32(Co[x+1], 1), odd word = Co[x-1] ^ Ce[x+1])
    as (half, column, extra ROR)."""
    x, h = d // 2, d % 2
    if h == 0:
        return [(0, (x - 1) % 5, 0), (1, (x + 1) % 5, 31)]
    return [(1, (x - 1) % 5, 0), (0, (x + 1) % 5, 0)]


def solve_d_frames():
    """The frame of each D word, for the first choice (in counting order) of the unshifted
    parity term of every D word whose equations g[d] = g[src] + constant close around
    every cycle; each cycle's first D word is put at frame 0."""
    for choice in range(1 << 10):
        edge = {}
        for d in range(10):
            half, col, extra = d_terms(d)[(choice >> d) & 1]
            src, s = parity_source(half, col)
            edge[d] = (src, (s + extra) % 32)  # g[d] = g[src] + s + extra
        g = {}
        for d in range(10):  # one root per cycle at frame 0
            path = []
            while d not in path and d not in g:
                path.append(d)
                d = edge[d][0]
            if d not in g:
                g[d] = 0
        while len(g) < 10:
            for d in range(10):
                if d not in g and edge[d][0] in g:
                    g[d] = (g[edge[d][0]] + edge[d][1]) % 32
        if all(g[d] == (g[edge[d][0]] + edge[d][1]) % 32 for d in range(10)):
            return [g[d] for d in range(10)]
    raise ValueError("no frames")


D_FRAME = solve_d_frames()


def rho_frame(y, h, x):
    """ROR taking chi input x of row (y, h), as computed (frame of its D word), to its
    rho'd value."""
    lane, hs, s = chi_inputs(y, h)[x]
    return (s + D_FRAME[d_word(lane, hs)]) % 32


# Frame of each stored word 2 * lane + half: that of its row's chi input x + 2.
FRAMES = [rho_frame(w // 2 // 5, w % 2, (w // 2 % 5 + 2) % 5) for w in range(50)]
# The frame of the running column parity x of half h: that of row 0's word, which is
# computed straight into the parity register.
PARITY_FRAMES = [[FRAMES[2 * x + h] for x in range(5)] for h in range(2)]


# --- the order of the rows, and which D words stay in r12 and lr ------------------------
# A D word is moved from s0..s9 into r12 or lr (DREGS) for each chi input that needs it;
# the two registers keep up to two D words from one row to the next, so a row that finds
# its D word there needs no move. Rows run half 0 then half 1 (the even parities wait in
# s10..s14), row 0 first in each (its outputs start the parities); the other rows, and
# the words kept, in the order that saves the most moves.
DREGS = [TMP, T2]


def theta_plan(carries):
    """The order theta computes the D words in, and the register of each: `carries` (a
    tuple of at most 2 D words, kept for the next row) go to DREGS in that order; the
    other first-row words go to their chi input's register C[x] (chi's first row then
    needs no move); the others go through T. The even parities sit in C until used, so a
    D word may go to C[x] only once every D word reading the even parity of column x is
    computed; the first order (in itertools' order) that allows it. None if none does."""
    first = row_d_words(*FIRST_ROW)
    rest = [(d, T) for d in range(10) if d not in first and d not in carries]
    kept = [(d, DREGS[i]) for i, d in enumerate(carries)]
    for order in itertools.permutations(x for x in range(5) if first[x] not in carries):
        plan = rest + kept + [(first[x], C[x]) for x in order]
        done = set()
        ok = True
        for d, reg in plan:
            done.add(d)
            if reg in C:  # overwrites the even parity of column C.index(reg)
                readers = [e for e in range(10) if (0, C.index(reg)) in [t[:2] for t in d_terms(e)]]
                ok = ok and all(e in done for e in readers)
        if ok:
            return plan
    return None


FIRST_ROW = (0, 0)
# The word sets theta can leave in DREGS.
THETA_KEPT = [kept for k in (1, 2) for kept in itertools.combinations(range(10), k)
              if theta_plan(kept) is not None]


@functools.lru_cache(maxsize=None)
def row_step(cin, need):
    """The words a row can leave in DREGS for the next one, given the words cin it finds
    there and the set `need` of its D words: any set of at most 2 words from need | cin
    such that the moves fit: a word kept from cin holds its register for the whole row,
    so keeping 2 leaves none for the moves; a word not in cin must be one of the row's
    moves (made last, into a register of its own)."""
    pool = sorted(need | cin)
    outs = [()] + [(a,) for a in pool] + list(itertools.combinations(pool, 2))
    steps = []
    for cout in outs:
        pinned = set(cout) & cin
        fresh = set(cout) - cin
        if fresh - need:
            continue
        if len(pinned) == 2 and need - cin:
            continue
        if len(fresh) > 2 - len(pinned):
            continue
        steps.append(frozenset(cout))
    return tuple(steps)


def carry_plan(rows):
    """(hits, chain) for rows: chain[0] the D words theta puts in DREGS (in register
    order), chain[i] those row i leaves there for row i + 1 (none after the last row);
    hits the chi inputs that find their D word there (dynamic programming over the words
    kept after each row)."""
    best = {frozenset(kept): (0, [kept]) for kept in THETA_KEPT}
    for i, row in enumerate(rows[1:], start=1):
        need = frozenset(row_d_words(*row))
        nxt = {}
        for cin, (hits, chain) in best.items():
            h = hits + len(need & cin)
            for cout in (row_step(cin, need) if i + 1 < len(rows) else [frozenset()]):
                if cout not in nxt or h > nxt[cout][0]:
                    nxt[cout] = (h, chain + [cout])
        best = nxt
    return max(best.values(), key=lambda v: v[0])


def choose_rows():
    """(moves saved, row order, kept words) of the row order that saves the most D moves."""
    top = None
    for p0 in itertools.permutations(range(1, 5)):
        for p1 in itertools.permutations(range(1, 5)):
            rows = [FIRST_ROW] + [(y, 0) for y in p0] + [(0, 1)] + [(y, 1) for y in p1]
            hits, chain = carry_plan(rows)
            if top is None or hits > top[0]:
                top = (hits, rows, chain)
    return top


_, ROWS, CARRY = choose_rows()
POS = {row: i for i, row in enumerate(ROWS)}


def read_row(w):
    """The row (y, h) that reads word w as a chi input."""
    for h in range(2):
        for y in range(5):
            for lane, hs, _ in chi_inputs(y, h):
                if 2 * lane + hs == w:
                    return y, h
    raise ValueError(w)


def write_row(w):
    return w // 2 // 5, w % 2


# Words that stay in FPU registers: read no later than written in every round (in the
# order ROWS runs them), the first 17 of those, in s15..s31.
FPU_FIRST = 15
FPU_RESIDENT = [w for w in range(50) if POS[read_row(w)] <= POS[write_row(w)]][:32 - FPU_FIRST]
SREG = {w: FPU_FIRST + i for i, w in enumerate(FPU_RESIDENT)}


def e_layout():
    """Slots of the stack buffer: the round that reads it pops its words in the order it
    uses them (each row's with one POP, which loads the lowest register from the lowest
    address: Arm DDI 0403E §A7.7), so they sit in that order: row after row, within a
    row in the order of their chi input registers."""
    order = []
    for row in ROWS:
        order += [w for w in (2 * lane + hs for lane, hs, _ in chi_inputs(*row)) if w not in SREG]
    assert sorted(order) == [w for w in range(50) if w not in SREG]
    return {w: i for i, w in enumerate(order)}


# The stack buffer holds the other words; the frame keeps sp 8-byte aligned below the
# 36 + 64 pushed bytes.
EIDX = e_layout()
PUSHED = 36 + 64
RC_SLOT = 4 * len(EIDX)  # the round-constant pointer, above the buffer
FRAME = RC_SLOT + 4 + (-(RC_SLOT + 4 + PUSHED)) % 8


def shifted(reg, amount):
    amount %= 32
    return f"{reg}, ror #{amount}" if amount else reg


def addr(buf, word):
    return f"[r0, #{4 * word}]" if buf == "A" else f"[sp, #{4 * EIDX[word]}]"


def load_word(out, reg, buf, word):
    if word in SREG:
        out.append(f"vmov {reg}, s{SREG[word]}")
    elif buf == "E":
        out.append(f"pop {{{reg}}}")
    else:
        out.append(f"ldr {reg}, {addr(buf, word)}")


def store_word(out, reg, buf, word):
    if word in SREG:
        out.append(f"vmov s{SREG[word]}, {reg}")
    else:
        out.append(f"str {reg}, {addr(buf, word)}")


def theta_d(out, carries):
    """D = C[x-1] ^ ROL64(C[x+1], 1) (FIPS 202 §3.2.1) into s0..s9, each word d in frame
    D_FRAME[d], from the even parities in s10..s14 and the odd ones in ACC (each in the
    frame of its row-0 word): one EOR each, its unshifted operand the parity whose frame
    the D word takes; registers and order as theta_plan."""
    for x in range(5):
        out.append(f"vmov {C[x]}, s{10 + x}")
    parity = [C, ACC]
    for d, r in theta_plan(carries):
        terms = []
        for half, col, extra in d_terms(d):
            terms.append((parity[half][col], (PARITY_FRAMES[half][col] + extra - D_FRAME[d]) % 32))
        terms.sort(key=lambda t: t[1] != 0)
        assert terms[0][1] == 0
        out.append(f"eor {r}, {terms[0][0]}, {shifted(*terms[1])}")
        out.append(f"vmov s{d}, {r}")


def save_even_parities(out):
    for x in range(5):
        out.append(f"vmov s{10 + x}, {ACC[x]}")


def state_in(out):
    """Entry: the state's 50 words read in order with LDM (the lowest register from the
    lowest address: Arm DDI 0403E §A7.7), row 0's 10 straight into the column parities
    (even parity x in r(2x+1), odd in r(2x+2): each in the frame of its row-0 word, as
    the rounds leave them), the others 3 at a time into r11, r12, lr and XORed in; each
    FPU-resident word copied to its register as it passes. Then the even parities to
    s10..s14 and the odd ones to ACC, where the rounds expect them."""
    par = {(h, x): f"r{2 * x + h + 1}" for h in range(2) for x in range(5)}
    out.append("ldm r0!, {r1-r10}")
    for w in range(10):
        if w in SREG:
            out.append(f"vmov s{SREG[w]}, r{w + 1}")
    temps = ["r11", "r12", "lr"]
    for start in range(10, 50, len(temps)):
        words = list(range(start, min(start + len(temps), 50)))
        out.append(f"ldm r0!, {{{', '.join(temps[:len(words)])}}}")
        for w, r in zip(words, temps):
            if w in SREG:
                out.append(f"vmov s{SREG[w]}, {r}")
            h, x = w % 2, w // 2 % 5
            frame = FRAMES[w] - PARITY_FRAMES[h][x]
            out.append(f"eor {par[h, x]}, {par[h, x]}, {shifted(r, frame)}")
    out.append("sub r0, r0, #200")
    for x in range(5):
        out.append(f"vmov s{10 + x}, {par[0, x]}")
    for x in reversed(range(5)):  # r10 -> r11 first: each source is read before it is written
        out.append(f"mov {ACC[x]}, {par[1, x]}")


def load_inputs(out, src, ins):
    """A row's chi input words into C[x]: from the stack buffer with one POP (its words
    are next there, e_layout), else one LDR each (neighbouring loads pipeline on the
    Cortex-M4, TRM Table 3-1 note), then the FPU-resident ones."""
    words = [2 * lane + hs for lane, hs, _ in ins]
    mem = [x for x in range(5) if words[x] not in SREG]
    if src == "E" and mem:
        out.append(f"pop {{{', '.join(C[x] for x in mem)}}}")
    else:
        for x in mem:
            load_word(out, C[x], src, words[x])
    for x in range(5):
        if x not in mem:
            load_word(out, C[x], src, words[x])


def first_row_inputs(out, src, held):
    """The first row's chi inputs, whose D words theta left in C[x] (or in the DREGS
    register `held` maps them to)."""
    for x, (lane, hs, _) in enumerate(chi_inputs(*FIRST_ROW)):
        w, d = 2 * lane + hs, d_word(lane, hs)
        if d in held:
            load_word(out, C[x], src, w)
            out.append(f"eor {C[x]}, {held[d]}, {shifted(C[x], FRAMES[w] - D_FRAME[d])}")
        else:
            load_word(out, T, src, w)
            out.append(f"eor {C[x]}, {C[x]}, {shifted(T, FRAMES[w] - D_FRAME[d])}")


def row_moves(held, row, cout):
    """The order of a row's chi inputs and the DREGS register each one's D word is read
    from, with the moves from s0..s9 they need, given `held` (word -> register) on entry
    and the words `cout` to leave there: the inputs whose word is held first, then the
    others through a register not kept, the fresh words of cout last, each into a
    register of its own. Returns ([(x, register, move?)], held on exit)."""
    ds = row_d_words(*row)
    pinned = {d: r for d, r in held.items() if d in cout}
    free = [r for r in DREGS if r not in pinned.values()]
    fresh = [d for d in ds if d in cout and d not in held]
    order = [x for x in range(5) if ds[x] in held]
    order += [x for x in range(5) if ds[x] not in held and ds[x] not in fresh]
    order += [ds.index(d) for d in fresh]
    steps = []
    for x in order:
        d = ds[x]
        if d in held:
            steps.append((x, held[d], False))
        else:
            k = fresh.index(d) if d in fresh else 0
            steps.append((x, free[k], True))
    out_held = dict(pinned)
    for k, d in enumerate(fresh):
        out_held[d] = free[k]
    assert set(out_held) == set(cout)
    return steps, out_held


def one_round(out, src, dst):
    """theta's D (from the parities in s10..s14 and ACC), then rho, pi, chi, iota of one
    round from src to dst, leaving the next round's parities; advances the round-constant
    pointer (iota)."""
    theta_d(out, CARRY[0])
    held = {d: DREGS[k] for k, d in enumerate(CARRY[0])}
    start = len(out)
    for i, (y, h) in enumerate(ROWS):
        ins = chi_inputs(y, h)
        if i == 0:
            first_row_inputs(out, src, held)
        else:
            cout = CARRY[i]
            load_inputs(out, src, ins)
            steps, held = row_moves(held, (y, h), cout)
            for x, reg, move in steps:
                lane, hs, _ = ins[x]
                w, d = 2 * lane + hs, d_word(lane, hs)
                if move:
                    out.append(f"vmov {reg}, s{d}")
                out.append(f"eor {C[x]}, {reg}, {shifted(C[x], FRAMES[w] - D_FRAME[d])}")
        e = [rho_frame(y, h, x) for x in range(5)]
        for x in range(5):
            x1, x2 = (x + 1) % 5, (x + 2) % 5
            # chi (§3.2.4): b[x] ^ (~b[x+1] & b[x+2]), in the frame of b[x+2]; row 0
            # straight into the parity register (its frame is that parity's)
            r = ACC[x] if y == 0 else T
            out.append(f"bic {r}, {C[x2]}, {shifted(C[x1], e[x1] - e[x2])}")
            out.append(f"eor {r}, {r}, {shifted(C[x], e[x] - e[x2])}")
            if x == 0 and y == 0:  # iota (§3.2.5): the table holds RC in lane 0's frames
                iota(out, r, rc_slot(out[start:]), 2 * (src == "E") + h)
            w = 2 * (x + 5 * y) + h
            store_word(out, r, dst, w)
            if y != 0:
                out.append(f"eor {ACC[x]}, {ACC[x]}, {shifted(T, FRAMES[w] - PARITY_FRAMES[h][x])}")
        if (y, h) == ROWS[4]:
            save_even_parities(out)
    if src == "E":  # the POPs moved sp over the buffer; the words below it are all read
        out.append(f"sub sp, sp, #{4 * len(EIDX)}")


def rc_slot(lines):
    """The offset from sp of the round-constant pointer's slot (above the buffer) after
    `lines`, whose POPs moved sp up."""
    popped = sum(len(line[5:-1].split(",")) for line in lines if line.startswith("pop {"))
    return RC_SLOT - 4 * popped


def iota(out, r, slot, k):
    """r ^= round-constant word k (0..3) of the loop pass: the pointer is kept on the
    stack (r12 and lr hold D words) and advanced past the pass's 4 words by the first
    load, which the others then address below it; ACC[1] is free at this point (row 0's
    output 1 is computed later), and T too."""
    out.append(f"ldr {ACC[1]}, [sp, #{slot}]")
    if k == 0:
        out.append(f"ldr {T}, [{ACC[1]}], #16")
        out.append(f"str {ACC[1]}, [sp, #{slot}]")
    else:
        out.append(f"ldr {T}, [{ACC[1]}, #-{16 - 4 * k}]")
    out.append(f"eor {r}, {r}, {T}")
    if k == 0:  # the loop's test, for the BNE at the end of the pass
        loop_test(out, ACC[1], T)


def loop_test(out, pointer, tmp):
    """Sets the flags for the BNE that ends the loop pass: pointer (past this pass's round
    constants) against the table's end (ADR, PC-relative: no load; Arm DDI 0403E §A7.7).
    Nothing in the rounds sets flags (no S-suffixed instruction), so they last until the
    BNE."""
    out.append(f"adr {tmp}, .Lrc_end")
    out.append(f"cmp {pointer}, {tmp}")


def rc_words():
    words = []
    for ir in range(24):
        even, odd = interleave(round_constant(ir))
        words += [rol32(even, FRAMES[0]), rol32(odd, FRAMES[1])]
    return words


UNSHUFFLE = [(1, "r3"), (2, "r4"), (4, "r5"), (8, "r6")]  # shift, mask register


def swap_step(out, x, shift, mask, tmp="r12"):
    """The bit swap x ^= t ^ (t << shift), t = (x ^ (x >> shift)) & mask (an involution;
    the four steps move the even bits of a word to its low half, the odd bits high)."""
    out.append(f"eor {tmp}, {x}, {x}, lsr #{shift}")
    out.append(f"and {tmp}, {tmp}, {mask}")
    out.append(f"eor {x}, {x}, {tmp}")
    out.append(f"eor {x}, {x}, {tmp}, lsl #{shift}")


def conversion_setup(out):
    out.append("mov r1, r0")
    out.append("adr r2, .Lframes")
    out.append("add r11, r2, #50")
    out.append("mov r3, #0x22222222")
    out.append("mov r4, #0x0c0c0c0c")
    out.append("mov r5, #0x00f000f0")
    out.append("mov r6, #0x0000ff00")


def interleave_in(out):
    """Each lane: its two 32-bit halves unshuffled and packed into (even, odd), each
    word rotated into its frame (ROL by the frame = ROR by 32 - frame)."""
    conversion_setup(out)
    out.append(".Lin:")
    out.append("ldrd r7, r8, [r1]")
    for shift, mask in UNSHUFFLE:
        swap_step(out, "r7", shift, mask)
        swap_step(out, "r8", shift, mask)
    out.append("pkhbt r9, r7, r8, lsl #16")
    out.append("pkhtb r10, r8, r7, asr #16")
    for reg in ("r9", "r10"):
        out.append("ldrb r12, [r2], #1")
        out.append("rsb r12, r12, #32")
        out.append(f"ror {reg}, {reg}, r12")
    out.append("strd r9, r10, [r1], #8")
    out.append("cmp r2, r11")
    out.append("bne .Lin")


def interleave_out(out):
    conversion_setup(out)
    out.append(".Lout:")
    out.append("ldrd r9, r10, [r1]")
    for reg in ("r9", "r10"):
        out.append("ldrb r12, [r2], #1")
        out.append(f"ror {reg}, {reg}, r12")
    out.append("pkhbt r7, r9, r10, lsl #16")
    out.append("pkhtb r8, r10, r9, asr #16")
    for shift, mask in reversed(UNSHUFFLE):
        swap_step(out, "r7", shift, mask)
        swap_step(out, "r8", shift, mask)
    out.append("strd r7, r8, [r1], #8")
    out.append("cmp r2, r11")
    out.append("bne .Lout")


def permute_program():
    """pqpan_keccak_m4_permute: the rounds on a state already interleaved and framed."""
    out = []
    out.append("push {r4-r11, lr}")
    out.append("vpush {s16-s31}")
    out.append(f"sub sp, sp, #{FRAME}")
    state_in(out)
    out.append("adr r12, .Lrc")
    out.append(f"str r12, [sp, #{RC_SLOT}]")
    out.append(".Lrounds:")
    one_round(out, "A", "E")
    one_round(out, "E", "A")
    out.append("bne.w .Lrounds")  # flags from loop_test
    fpu_words_out(out)
    out.append(f"add sp, sp, #{FRAME}")
    out.append("vpop {s16-s31}")
    out.append("pop {r4-r11, pc}")
    return out


def fpu_words_out(out):
    for w in FPU_RESIDENT:
        out.append(f"vstr s{SREG[w]}, {addr('A', w)}")


def f1600_program():
    """pqpan_keccak_f1600: standard lanes in and out around pqpan_keccak_m4_permute."""
    out = ["push {r0, r4-r11, lr}"]
    interleave_in(out)
    out.append("bl pqpan_keccak_m4_permute")
    out.append("ldr r0, [sp]")
    interleave_out(out)
    out.append("pop {r0, r4-r11, pc}")
    return out


# --- the sponge's whole lanes in and out (src/crypto/sha3.c) ---------------------------

# Lanes a sponge's rate can hold: a rate below the 200-byte state, a multiple of 8 bytes
# (pqpan_keccak_init; FIPS 202 §4 takes r < b = 1600 bits), so lanes 0..23.
RATE_LANES = 24
SWAP_MASKS = {1: "#0x22222222", 2: "#0x0c0c0c0c", 4: "#0x00f000f0", 8: "#0x0000ff00"}
LANES_STACK = 20


def lanes_entry(out, name):
    """Saves r4-r7 and lr, returns at once when count (r3) is 0, else jumps to the code of
    lane `first` (r2, public) through a TBH table (Arm DDI 0403E §A7.7, TBB/TBH; the table
    follows the instruction, offsets in halfwords)."""
    out.append("push {r4-r7, lr}")
    out.append("cmp r3, #0")
    out.append(f"beq.w .L{name}_done")
    out.append("tbh [pc, r2, lsl #1]")
    out.append(f".L{name}_table:")
    for lane in range(RATE_LANES):
        out.append(f".hword (.L{name}_{lane} - .L{name}_table) / 2")


def lane_exit(out, name, lane):
    """After lane `lane`: returns when it was the count-th lane (no loop; the frames are
    immediates of each lane's code)."""
    if lane + 1 < RATE_LANES:
        out.append("subs r3, r3, #1")
        out.append(f"beq.w .L{name}_done")


def byte_pairs(out, dst, lo, hi, tmp):
    """dst = bytes 0 and 2 of register lo[0] rotated right by lo[1] in its bytes 0 and 2,
    those of hi[0] rotated by hi[1] in its bytes 1 and 3 (rotations 0, 8, 16 or 24): two
    UXTB16 and an ORR (Arm DDI 0403E §A7.7, UXTB16)."""
    for reg, (src, rot) in ((dst, lo), (tmp, hi)):
        out.append(f"uxtb16 {reg}, {src}" + (f", ror #{rot}" if rot else ""))
    out.append(f"orr {dst}, {dst}, {tmp}, lsl #8")


def lane_out(out, rot_e, rot_o):
    """One lane out of the even word r4 and the odd word r5, already rotated out of their
    frames but for rot_e and rot_o (0, 8, 16 or 24, taken by the UXTB16s): the bytes
    paired, the swaps of shift 4, 2, 1, PKHBT / PKHTB into lane bits 0..31 and 32..63,
    two unaligned STR at r1."""
    byte_pairs(out, "r6", ("r4", rot_e), ("r5", rot_o), "r2")
    byte_pairs(out, "r7", ("r4", (rot_e + 8) % 32), ("r5", (rot_o + 8) % 32), "lr")
    for shift in (4, 2, 1):
        swap_step(out, "r6", shift, SWAP_MASKS[shift], "r2")
        swap_step(out, "r7", shift, SWAP_MASKS[shift], "lr")
    out.append("pkhbt r4, r6, r7, lsl #16")
    out.append("pkhtb r5, r7, r6, asr #16")
    out.append("str r4, [r1], #4")
    out.append("str r5, [r1], #4")


def lane_in(out):
    """One lane in: two unaligned LDR at r1, the swaps of shift 1, 2, 4, PKHBT / PKHTB and
    the UXTB16 pairs, leaving the even word in r4 and the odd word in r5 (not yet in their
    frames)."""
    out.append("ldr r4, [r1], #4")
    out.append("ldr r5, [r1], #4")
    for shift in (1, 2, 4):
        swap_step(out, "r4", shift, SWAP_MASKS[shift], "r2")
        swap_step(out, "r5", shift, SWAP_MASKS[shift], "lr")
    out.append("pkhbt r6, r4, r5, lsl #16")
    out.append("pkhtb r7, r5, r4, asr #16")
    byte_pairs(out, "r4", ("r6", 0), ("r7", 0), "r2")
    byte_pairs(out, "r5", ("r6", 8), ("r7", 8), "lr")


def extract_program():
    """pqpan_keccak_m4_extract(state, out, first, count): lanes first .. first + count - 1
    written at out (any alignment) in the standard layout, 8 bytes each little endian
    (FIPS 202 §3.1.2, B.1). Per lane: each word rotated out of its frame (ROR by the
    frame; a multiple of 8 goes into the UXTB16s instead), the bytes of the even word e
    and the odd word o paired by UXTB16 as (e0, o0, e2, o2) and (e1, o1, e3, o3), each
    16-bit half's bits put back in order by the swaps of shift 4, 2, 1, the halves joined
    by PKHBT / PKHTB into lane bits 0..31 and 32..63, two unaligned STR (Arm DDI 0403E
    §A3.2.1)."""
    out = []
    lanes_entry(out, "ext")
    for lane in range(RATE_LANES):
        out.append(f".Lext_{lane}:")
        out.append(f"ldrd r4, r5, [r0, #{8 * lane}]")
        fe, fo = FRAMES[2 * lane], FRAMES[2 * lane + 1]
        rot_e, rot_o = (fe if fe % 8 == 0 else 0), (fo if fo % 8 == 0 else 0)
        for reg, frame in (("r4", fe), ("r5", fo)):
            if frame % 8:
                out.append(f"ror {reg}, {reg}, #{frame}")
        lane_out(out, rot_e, rot_o)
        lane_exit(out, "ext", lane)
    out.append(".Lext_done:")
    out.append("pop {r4-r7, pc}")
    return out


def absorb_program():
    """pqpan_keccak_m4_absorb(state, in, first, count): the 8 little-endian bytes
    in[8 i ..] (any alignment) XORed into lane first + i for i < count. Per lane: two
    unaligned LDR, the swaps of shift 1, 2, 4 (each 16-bit half's even bits in its low
    byte, odd bits in its high byte), PKHBT / PKHTB into (e0, o0, e2, o2) and
    (e1, o1, e3, o3), UXTB16 pairs into the even word e and the odd word o, each XORed
    into the state rotated into its frame (ROL by the frame, the EOR's ROR #(32 - frame);
    no shift for frame 0)."""
    out = []
    lanes_entry(out, "abs")
    for lane in range(RATE_LANES):
        out.append(f".Labs_{lane}:")
        lane_in(out)
        out.append(f"ldrd r6, r7, [r0, #{8 * lane}]")
        out.append(f"eor r6, r6, {shifted('r4', (32 - FRAMES[2 * lane]) % 32)}")
        out.append(f"eor r7, r7, {shifted('r5', (32 - FRAMES[2 * lane + 1]) % 32)}")
        out.append(f"strd r6, r7, [r0, #{8 * lane}]")
        lane_exit(out, "abs", lane)
    out.append(".Labs_done:")
    out.append("pop {r4-r7, pc}")
    return out


def lanes_loop_entry(out, name):
    """The -Os variants' entry: saves r4-r7 and lr, returns at once when count (r3) is 0,
    points r0 at lane first (r2, public) and r12 at its two frames in the table."""
    out.append("push {r4-r7, lr}")
    out.append("cmp r3, #0")
    out.append(f"beq .L{name}_done")
    out.append("add r0, r0, r2, lsl #3")
    out.append("ldr r12, =pqpan_keccak_m4_frames")
    out.append("add r12, r12, r2, lsl #1")
    out.append(f".L{name}_loop:")


def lanes_loop_exit(out, name):
    out.append("subs r3, r3, #1")
    out.append(f"bne .L{name}_loop")
    out.append(f".L{name}_done:")
    out.append("pop {r4-r7, pc}")


def extract_loop_program():
    """pqpan_keccak_m4_extract at -Os: extract_program's steps in a loop over the lanes,
    each word rotated out of its frame by ROR by register (the frame read from the table),
    so that the UXTB16s take the fixed rotations 0 and 8."""
    out = []
    lanes_loop_entry(out, "ext")
    out.append("ldrd r4, r5, [r0], #8")
    for reg in ("r4", "r5"):
        out.append("ldrb r2, [r12], #1")
        out.append(f"ror {reg}, {reg}, r2")
    lane_out(out, 0, 0)
    lanes_loop_exit(out, "ext")
    return out


def absorb_loop_program():
    """pqpan_keccak_m4_absorb at -Os: absorb_program's steps in a loop over the lanes, each
    word rotated into its frame by ROR by register of 32 - frame (ROR by 32 leaves a word
    as it is) before its EOR."""
    out = []
    lanes_loop_entry(out, "abs")
    lane_in(out)
    for reg in ("r4", "r5"):
        out.append("ldrb r2, [r12], #1")
        out.append("rsb r2, r2, #32")
        out.append(f"ror {reg}, {reg}, r2")
    out.append("ldrd r6, r7, [r0]")
    out.append("eor r6, r6, r4")
    out.append("eor r7, r7, r5")
    out.append("strd r6, r7, [r0], #8")
    lanes_loop_exit(out, "abs")
    return out


PERMUTE_STACK = PUSHED + FRAME
F1600_STACK = 40 + PERMUTE_STACK


def emit_function(name, lines):
    print(f"    .global {name}")
    print(f"    .type {name}, %function")
    print("    .align 2")
    print("    .thumb_func")
    print(f"{name}:")
    for line in lines:
        print(line if line.endswith(":") else "    " + line)
    print(f"    .size {name}, .-{name}")


def emit():
    print("/* Keccak-f[1600] (FIPS 202 §3.3) for the Cortex-M4F, generated by")
    print(" * scripts/gen_keccak_m4.py (read its docstring for the method); do not edit.")
    print(" * void pqpan_keccak_m4_permute(uint64_t state[25]): the permutation on the sponge's")
    print(f" * interleaved, framed state (src/crypto/m4/sponge_m4.c), {PERMUTE_STACK} bytes of stack, a leaf;")
    print(" * void pqpan_keccak_f1600(uint64_t lanes[25]): the same on standard lanes, converting")
    print(f" * on entry and exit, {F1600_STACK} bytes with its call;")
    print(" * void pqpan_keccak_m4_extract(const uint64_t state[25], uint8_t *out, unsigned first,")
    print(" *                              unsigned count) and")
    print(" * void pqpan_keccak_m4_absorb(uint64_t state[25], const uint8_t *in, unsigned first,")
    print(f" *                             unsigned count): the sponge's whole lanes out and in, {LANES_STACK} bytes")
    print(f" * each, first + count <= {RATE_LANES}. The lines below give scripts/bench_m4.sh the frames")
    print(" * gcc's -fcallgraph-info cannot see. */")
    print(f"@ callgraph-frame pqpan_keccak_m4_permute {PERMUTE_STACK}")
    print(f"@ callgraph-frame pqpan_keccak_f1600 {F1600_STACK}")
    print(f"@ callgraph-frame pqpan_keccak_m4_extract {LANES_STACK}")
    print(f"@ callgraph-frame pqpan_keccak_m4_absorb {LANES_STACK}")
    print("    .syntax unified")
    print("    .thumb")
    print("    .cpu cortex-m4")
    print("    .fpu fpv4-sp-d16")
    print('    .section .text.pqpan_keccak_m4,"ax",%progbits')
    emit_function("pqpan_keccak_m4_permute", permute_program())
    emit_function("pqpan_keccak_f1600", f1600_program())
    print("    .align 2")
    print(".Lrc: @ RC[ir] interleaved, each word in lane 0's frame (FIPS 202 §3.2.5)")
    words = rc_words()
    for i in range(0, len(words), 4):
        print("    .word " + ", ".join(f"0x{w:08x}" for w in words[i:i + 4]))
    print(".Lrc_end:")
    print("    .global pqpan_keccak_m4_frames")
    print("pqpan_keccak_m4_frames: @ frame (ROR) of each interleaved word 2 * lane + half")
    print(".Lframes:")
    for i in range(0, 50, 10):
        print("    .byte " + ", ".join(str(f) for f in FRAMES[i:i + 10]))
    print("    .size pqpan_keccak_m4_frames, 50")
    for size_build, programs in ((False, (extract_program, absorb_program)),
                                 (True, (extract_loop_program, absorb_loop_program))):
        print("#else" if size_build else "#if !defined(__OPTIMIZE_SIZE__)")
        for name, program in zip(("extract", "absorb"), programs):
            print(f'    .section .text.pqpan_keccak_m4_{name},"ax",%progbits')
            emit_function(f"pqpan_keccak_m4_{name}", program())
            if size_build:
                print("    .ltorg")
    print("#endif")


# --- self test: the round code run on a model of the registers -------------------------

def keccak_reference(lanes):
    a = list(lanes)
    m64 = (1 << 64) - 1

    def rol64(v, n):
        return ((v << n) | (v >> (64 - n))) & m64 if n else v
    for ir in range(24):
        c = [a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20] for x in range(5)]
        d = [c[(x - 1) % 5] ^ rol64(c[(x + 1) % 5], 1) for x in range(5)]
        a = [a[i] ^ d[i % 5] for i in range(25)]
        b = [0] * 25
        for x in range(5):
            for y in range(5):
                b[y + 5 * ((2 * x + 3 * y) % 5)] = rol64(a[x + 5 * y], RHO[x + 5 * y])
        a = [b[i] ^ (~b[(i % 5 + 1) % 5 + 5 * (i // 5)] & b[(i % 5 + 2) % 5 + 5 * (i // 5)]) for i in range(25)]
        a[0] ^= round_constant(ir)
    return a


def run_model(lines, regs, mem_a, mem_e, rc_base):
    def val(operand):
        m = re.fullmatch(r"(\w+)(?:, ror #(\d+))?(?:, lsl #(\d+))?", operand.strip())
        v = regs[m.group(1)]
        if m.group(2):
            v = ror32(v, int(m.group(2)))
        return v

    def mem(operand):
        m = re.fullmatch(r"\[(\w+)\], #(\d+)", operand.strip())
        if m:  # post-indexed: the round-constant pointer
            assert m.group(1) != "sp"
            i = (regs[m.group(1)] - rc_base) // 4
            regs[m.group(1)] += int(m.group(2))
            return "rc", i
        m = re.fullmatch(r"\[(\w+), #(-?\d+)\]", operand.strip())
        base, off = m.group(1), int(m.group(2))
        if base == "r0":
            return mem_a, off // 4
        if base == "sp":
            return mem_e, (regs["sp"] + off) // 4
        return "rc", (regs[base] - rc_base + off) // 4
    rc = rc_words()
    for line in lines:
        op, _, rest = line.partition(" ")
        args = [s.strip() for s in re.split(r",(?![^\[]*\])", rest)]
        if op == "ldm":  # from the state (r0, whose base the model puts at 0) or the stack buffer
            m = re.fullmatch(r"(\w+)(!?), \{(.*)\}", rest)
            base, where = m.group(1), mem_a if m.group(1) == "r0" else mem_e
            names = []
            for item in m.group(3).split(","):
                lo, _, hi = item.strip().partition("-")
                names += [f"r{i}" for i in range(int(lo[1:]), int(hi[1:]) + 1)] if hi else [lo]
            for k, reg in enumerate(names):
                regs[reg] = where[regs[base] // 4 + k]
            if m.group(2):
                regs[base] += 4 * len(names)
        elif op == "pop":  # from the stack buffer, whose base the model puts at 0
            for reg in (r.strip() for r in rest.strip("{}").split(",")):
                regs[reg] = mem_e[regs["sp"] // 4]
                regs["sp"] += 4
        elif op in ("ldr", "vldr"):
            where, i = mem(", ".join(args[1:]))
            regs[args[0]] = rc[i] if where == "rc" else where[i]
        elif op in ("str", "vstr"):
            where, i = mem(args[1])
            where[i] = regs[args[0]]
        elif op == "vmov":
            regs[args[0]] = regs[args[1]]
        elif op in ("eor", "bic"):
            a = regs[args[1]]
            b = val(", ".join(args[2:]))
            regs[args[0]] = a ^ b if op == "eor" else a & ~b & MASK32
        elif op == "ror":
            regs[args[0]] = ror32(regs[args[1]], int(args[2].lstrip("#")))
        elif op == "mov":
            regs[args[0]] = regs[args[1]]
        elif op in ("adr", "cmp"):  # the loop's test: the model runs the passes itself
            continue
        elif op in ("add", "sub"):
            sign = 1 if op == "add" else -1
            regs[args[0]] = regs[args[1]] + sign * int(args[2].lstrip("#"))
        else:
            raise ValueError(line)


def selftest():
    rng = random.Random(1)
    lanes = [rng.getrandbits(64) for _ in range(25)]
    mem_a = [0] * 50
    for i, lane in enumerate(lanes):
        even, odd = interleave(lane)
        mem_a[2 * i] = rol32(even, FRAMES[2 * i])
        mem_a[2 * i + 1] = rol32(odd, FRAMES[2 * i + 1])
    mem_e = [0] * 50
    regs = {"sp": 0, "r0": 0}
    out = []
    state_in(out)
    run_model(out, regs, mem_a, mem_e, 0)
    mem_e[RC_SLOT // 4] = 0  # the round-constant pointer (the model's table base is 0)
    for _ in range(12):
        out = []
        one_round(out, "A", "E")
        one_round(out, "E", "A")
        run_model(out, regs, mem_a, mem_e, 0)
    for w in FPU_RESIDENT:
        mem_a[w] = None  # the words must come back from their registers
    out = []
    fpu_words_out(out)
    run_model(out, regs, mem_a, mem_e, 0)
    got = [deinterleave(ror32(mem_a[2 * i], FRAMES[2 * i]), ror32(mem_a[2 * i + 1], FRAMES[2 * i + 1]))
           for i in range(25)]
    want = keccak_reference(lanes)
    zero = keccak_reference([0] * 25)
    # FIPS 202 example values: Keccak-f[1600] of the all-zero state, first lane.
    ok = got == want and zero[0] == 0xF1258F7940E1DDE7
    print("selftest", "ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    if sys.argv[1:] == ["--selftest"]:
        sys.exit(selftest())
    emit()
