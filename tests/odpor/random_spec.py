#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# tests/odpor/random_spec.py SEED: prints a small random spec for
# tests/odpor/run.sh: 2 or 3 threads of 2 or 3 steps on 1 to 3 shared
# variables, each step one action on the thread's own program counter,
# some with a guard on a shared variable (a thread may block for good),
# some with a second action for the same step (a nondeterministic choice),
# sometimes an invariant. The same SEED gives the same spec everywhere.
import random
import sys

seed = int(sys.argv[1])
r = random.Random(seed)
T, V, S = r.randint(2, 3), r.randint(1, 3), r.randint(2, 3)
out = ["model rand%d;" % seed]
out += ["var x%d: 0..2;" % v for v in range(V)]
out += ["var pc%d: 0..%d;" % (t, S) for t in range(T)]
for t in range(T):
    for s in range(S):
        guard = "pc%d == %d" % (t, s)
        if r.random() < 0.35:
            guard += " && x%d %s %d" % (r.randrange(V), r.choice(["==", "!="]), r.randint(0, 2))
        body = []
        kind, v = r.random(), r.randrange(V)
        if kind < 0.4:
            body.append("x%d = %d;" % (v, r.randint(0, 2)))
        elif kind < 0.7:
            body.append("x%d = (x%d + 1) %% 3;" % (v, v))
        elif kind < 0.85:
            body.append("x%d = x%d;" % (v, r.randrange(V)))
        nxt = S if r.random() < 0.2 and s > 0 else s + 1
        body.append("pc%d = %d;" % (t, nxt))
        out.append("action t%ds%d when %s { %s }" % (t, s, guard, " ".join(body)))
        if r.random() < 0.2:
            out.append("action t%ds%dalt when pc%d == %d { x%d = 2; pc%d = %d; }"
                       % (t, s, t, s, r.randrange(V), t, nxt))
if r.random() < 0.3:
    out.append("invariant inv: x0 != 2 || x%d != 2;" % r.randrange(V))
print("\n".join(out))
