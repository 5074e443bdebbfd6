#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# tests/odpor/classic_spec.py KIND SIZE...: prints one of the DPOR
# literature's classic benchmarks at the given size, in the encoding of
# tests/odpor/specs/ (lastzero3.mc, indexer12.mc, readers_writers.mc: see
# their headers), with the header lines tests/odpor/run.sh reads:
#   lastzero N      lastzero(N): thread 0 looks for the last zero of
#                   array[0..N], thread j sets array[j] = array[j-1] + 1;
#                   no hand count (run.sh's brute force counts the traces
#                   where it can, N <= 5)
#   indexer N       indexer(N), N >= 12: N threads insert 4 messages each
#                   into a hash table of 128 slots (no brute force: 4 N
#                   events a run or more)
#   readers R W     R readers each read x once, W writers each write x once
# The hand counts are in the header each prints.
import sys


def lastzero(n):
    out = [
        "// lastzero(%d), printed by tests/odpor/classic_spec.py (see" % n,
        "// tests/odpor/specs/lastzero3.mc for the program and the encoding).",
        "//",
        "// No hand count: run.sh's brute force counts the traces.",
        "//",
        "// ODPOR-RUN-ARGS: --no-deadlock",
    ]
    if n > 5:
        out.append("// ODPOR-NO-BRUTE: too many interleavings")
    out += [
        "model lastzero%d;" % n,
        "",
        "const N = %d;" % n,
        "type Idx = 0..N;",
        "type W   = 1..N;",
        "type Pc  = enum { start, loaded, done };",
        "",
        "var array: [Idx] Idx;",
        "var i:     Idx;",
        "var found: bool;",
        "var pc:    [W] Pc;",
        "var reg:   [W] Idx;",
        "",
        "init { i = N; }",
        "",
        "action look(k: Idx) when !found && i == k {",
        "  if array[k] == 0 {",
        "    found = true;",
        "  } else {",
        "    i = k - 1;",
        "  }",
        "}",
        "",
    ]
    for j in range(1, n + 1):
        out.append("action load%d when pc[%d] == start  { reg[%d] = array[%d]; pc[%d] = loaded; }"
                   % (j, j, j, j - 1, j))
        out.append("action store%d when pc[%d] == loaded { array[%d] = reg[%d] + 1; pc[%d] = done; }"
                   % (j, j, j, j, j))
    return out


def indexer(n):
    # Which messages hash to the same slot, and that the loser's next slot
    # is free: the hand count below rests on both.
    home = {}
    for t in range(n):
        for m in range(1, 5):
            home.setdefault(7 * (11 * m + t) % 128, []).append(t)
    clashes = sorted(h for h, ts in home.items() if len(ts) > 1)
    assert all(len(home[h]) == 2 and (h + 1) % 128 not in home for h in clashes)
    out = [
        "// indexer(%d), printed by tests/odpor/classic_spec.py (see" % n,
        "// tests/odpor/specs/indexer12.mc for the program and the encoding).",
        "//",
        "// Hand count: %d slots (%s) are the home of two messages each, of"
        % (len(clashes), ", ".join(map(str, clashes))),
        "// two threads; no other message hashes there nor to the slot after,",
        "// where the loser's cas goes next. Each such slot is a race of two cas",
        "// either way round, independent of the others: 2^%d = %d traces."
        % (len(clashes), 2 ** len(clashes)),
        "//",
        "// ODPOR-RUN-ARGS: --no-deadlock",
        "// ODPOR-TRACES: %d" % 2 ** len(clashes),
        "// ODPOR-NO-BRUTE: %d events a run or more" % (4 * n),
        "model indexer%d;" % n,
        "",
        "const N    = %d;" % n,
        "const SIZE = 128;",
        "const MAX  = 4;",
        "",
        "type Thr  = 0..N-1;",
        "type Slot = 0..SIZE-1;",
        "",
        "var table: [Slot] 0..%d;   // 0: empty" % (44 + n),
        "var m:     [Thr] 0..MAX;   // messages inserted",
        "var pos:   [Thr] Slot;     // the slot the next cas tries",
        "",
        "init { %s }" % " ".join("pos[%d] = %d;" % (t, 7 * (11 + t) % 128) for t in range(n)),
        "",
    ]
    for t in range(n):
        out += [
            "action cas%d(h: Slot) when m[%d] < MAX && pos[%d] == h {" % (t, t, t),
            "  if table[h] == 0 {",
            "    table[h] = (m[%d] + 1) * 11 + %d;" % (t, t),
            "    m[%d] = m[%d] + 1;" % (t, t),
            "    pos[%d] = ((m[%d] + 1) * 11 + %d) * 7 %% SIZE;" % (t, t, t),
            "  } else {",
            "    pos[%d] = (h + 1) %% SIZE;" % t,
            "  }",
            "}",
            "",
        ]
    return out


def readers(r, w):
    fact = 1
    for k in range(2, w + 1):
        fact *= k
    traces = fact * (w + 1) ** r
    return [
        "// readers-writers(%d, %d), printed by tests/odpor/classic_spec.py:" % (r, w),
        "// %d readers each read x once, %d writers each write their name into x" % (r, w),
        "// once (tests/odpor/specs/readers_writers.mc is readers-writers(3, 2)).",
        "//",
        "// Hand count: the writers' order (%d! = %d), and for each reader the gap"
        % (w, fact),
        "// of that order it reads in (%d + 1 = %d): %d * %d^%d = %d traces."
        % (w, w + 1, fact, w + 1, r, traces),
        "//",
        "// ODPOR-RUN-ARGS: --no-deadlock",
        "// ODPOR-TRACES: %d" % traces,
        "model readers_writers_%d_%d;" % (r, w),
        "",
        "type Reader = scalarset(%d);" % r,
        "type Writer = scalarset(%d);" % w,
        "",
        "var x:     Writer?;",
        "var seen:  [Reader] Writer?;",
        "var read:  [Reader] bool;",
        "var wrote: [Writer] bool;",
        "",
        "action reading(r: Reader) when !read[r] {",
        "  seen[r] = x;",
        "  read[r] = true;",
        "}",
        "",
        "action writing(w: Writer) when !wrote[w] {",
        "  x = w;",
        "  wrote[w] = true;",
        "}",
    ]


kind, sizes = sys.argv[1], [int(a) for a in sys.argv[2:]]
lines = {"lastzero": lastzero, "indexer": indexer, "readers": readers}[kind](*sizes)
print("\n".join(lines))
