#!/usr/bin/env python3
"""tests/por/random_spec.py SEED: prints a small random spec that stresses
what --por's stubborn sets rely on (tests/por/fuzz.py runs it with --por off
and on). The same SEED gives the same spec everywhere.

What it mixes, each a case where a dependency table or an enabling set can
be too small: guards whose evaluation can fail (an index held in a cell, out
of range; a division by a cell; `none` used as a value) before or after a
key conjunct (`x == 1`, `x < 2`, `e == ea`, `f != 0`); indices held in one
cell (`a[i]`), nested (`a[c[i]]`), parameters with arithmetic
(`a[(q + 1) % N]`); records; optional values; quantifiers in guards;
actions with two parameters; asserts, locals and if/else in bodies;
constant and computed writes (the values table); scalarsets (symmetry);
invariants, reachables, terminal predicates and constraints; cycles of
independent actions (counters modulo their range)."""
import random
import sys

seed = int(sys.argv[1])
R = random.Random(seed)

N = R.randint(2, 3)              # array size, index type 0..N-1
K = R.randint(1, 3)              # value range 0..K
NX = R.randint(1, 3)             # counters x0..
NF = R.randint(1, 2)             # flags f0..
OPT = R.random() < 0.4           # o: 0..K?
REC = R.random() < 0.4           # r: record
SYM = R.random() < 0.25          # a scalarset P of 2
ENUM = R.random() < 0.5          # e: enum
RISK = R.uniform(0.03, 0.3)    # how often a form that may fail is drawn
locals_made = [0]


def risk():
    return R.random() < RISK

xs = ["x%d" % k for k in range(NX)]
fs = ["f%d" % k for k in range(NF)]
members = ["ea", "eb", "ec"]


def lit():
    return str(R.randint(0, K))


def index(params):
    """An index into [0..N-1]: constant, parameter, arithmetic on it, or
    held in a cell (which may hold a value out of range)."""
    if risk():  # i0 and c[] may hold N; x0.. may be past N - 1
        return R.choice(["i0", "c[i0]", R.choice(xs), "c[%s]" % R.choice(xs)])
    choices = [lambda: str(R.randrange(N)), lambda: "c[%d]" % R.randrange(N),
               lambda: "i0 % N", lambda: "c[i0 % N]"]
    if "q" in params:
        choices += [lambda: "q", lambda: "(q + 1) % N", lambda: "c[q]", lambda: "q"]
    return R.choice(choices)()


def atom(params, depth):
    choices = [lambda: R.choice(xs), lambda: "a[%s]" % index(params), lambda: "i0",
               lambda: "c[%s]" % index(params), lambda: lit()]
    if "q" in params:
        choices.append(lambda: "q")
    if REC:
        choices.append(lambda: "r.u")
    if OPT and risk():
        choices.append(lambda: "o")          # none used as a value: a run-time error
    if depth < 1 and R.random() < 0.2:
        choices.append(lambda: "(sum k: 0..N-1 :: a[k])")
        choices.append(lambda: "(count k: 0..N-1 :: a[k] > %s)" % lit())
    return R.choice(choices)()


def int_expr(params, depth=0):
    t = R.random()
    if depth >= 2 or t < 0.55:
        return atom(params, depth)
    if t < 0.8:
        op = R.choice(["+", "-", "+", "*"])
        return "(%s %s %s)" % (int_expr(params, depth + 1), op, int_expr(params, depth + 1))
    if t < 0.9:
        return "(%s %s %s)" % (int_expr(params, depth + 1), R.choice(["/", "%"]),
                               atom(params, depth + 1) if risk() else "(%s + 1)" % R.choice(xs))
    return "(%s ? %s : %s)" % (bool_expr(params, depth + 1), int_expr(params, depth + 1),
                               int_expr(params, depth + 1))


def key(params):
    """A comparison of one cell against a constant (a key conjunct)."""
    c = [lambda: "%s %s %s" % (R.choice(xs), R.choice(["==", "!=", "<", "<=", ">", ">="]), lit()),
         lambda: "%s %s %d" % (R.choice(fs), R.choice(["==", "!="]), R.randint(0, 1)),
         lambda: "i0 %s %d" % (R.choice(["==", "<", ">="]), R.randint(0, N)),
         lambda: "a[%d] %s %s" % (R.randrange(N), R.choice(["==", ">"]), lit()),
         lambda: "b0", lambda: "!b0"]
    if ENUM:
        c.append(lambda: "e %s %s" % (R.choice(["==", "!=", "<", ">="]), R.choice(members)))
    if REC:
        c.append(lambda: "r.u %s %s" % (R.choice(["==", "<="]), lit()))
        c.append(lambda: "r.v")
    if OPT:
        c.append(lambda: "o %s %s" % (R.choice(["==", "!="]), R.choice(["none", lit()])))
    return R.choice(c)()


def risky(params, depth):
    """A conjunct whose evaluation may fail, or read through an index."""
    c = [lambda: "a[%s] %s %s" % (index(params), R.choice(["==", ">", "<="]), lit()),
         lambda: "a[c[%s]] == %s" % (index(params), lit()),
         lambda: "%s / %s %s %s" % (int_expr(params, depth + 1),
                                    R.choice(xs + ["i0", "a[0]"]) if risk() else "(i0 + 1)",
                                    R.choice(["==", ">"]), lit()),
         lambda: "(exists k: 0..N-1 :: a[k] == %s)" % lit(),
         lambda: "(forall k: 0..N-1 :: a[(k + %s) %% N] <= %s)" % (R.choice(["0", "1", "i0"]),
                                                               R.choice(xs)),
         lambda: "%s %s %s" % (int_expr(params, depth + 1), R.choice(["==", "<", "!="]),
                               int_expr(params, depth + 1))]
    if OPT and risk():
        c.append(lambda: "o + 0 %s %s" % (R.choice(["==", ">"]), lit()))
    return R.choice(c)()


def bool_expr(params, depth=0):
    t = R.random()
    if depth >= 2 or t < 0.4:
        return key(params)
    if t < 0.7:
        return risky(params, depth)
    if t < 0.85:
        return "(%s %s %s)" % (bool_expr(params, depth + 1), R.choice(["&&", "||", "->"]),
                               bool_expr(params, depth + 1))
    return "!(%s)" % bool_expr(params, depth + 1)


def guard(params):
    if R.random() < 0.3:
        # A conjunct that may fail between two keys: the first can be made
        # false to skip it, the second is false while the first may fail.
        return "%s && %s && %s" % (key(params), risky(params, 0), key(params))
    n = R.choice([1, 1, 2, 2, 3])
    parts = []
    for _ in range(n):
        t = R.random()
        parts.append(key(params) if t < 0.5 else risky(params, 0) if t < 0.85
                     else "(%s)" % bool_expr(params, 1))
    R.shuffle(parts)
    return " && ".join(parts)


def assign(params):
    t = R.random()
    x = R.choice(xs)
    if t < 0.2:
        return "%s = %s;" % (x, lit())
    if t < 0.32:
        return "%s = (%s + 1) %% %d;" % (x, x, K + 1)
    if t < 0.4:
        if risk():
            return "%s = %s;" % (x, int_expr(params))      # may be out of range
        return "%s = (%s) %% %d;" % (x, int_expr(params), K + 1)  # may be negative
    if t < 0.5:
        return "a[%s] = %s;" % (index(params), R.choice([lit(), "(a[%s] + 1) %% %d"
                                                          % (index(params), K + 1)]))
    if t < 0.57:
        return "c[%s] = %s;" % (index(params), R.choice([str(R.randint(0, N - 1 + risk())),
                                                          "q" if "q" in params else "0",
                                                          "(c[0] + 1) %% %d" % (N + risk())]))
    if t < 0.64:
        return "i0 = %s;" % R.choice([str(R.randint(0, N - 1 + risk())),
                                      "(i0 + 1) %% %d" % (N + risk()), "c[%d]" % R.randrange(N)])
    if t < 0.72:
        return "%s = %d;" % (R.choice(fs), R.randint(0, 1))
    if t < 0.78:
        return "b0 = %s;" % R.choice(["!b0", "true", "false", bool_expr(params, 1)])
    if t < 0.84 and ENUM:
        return "e = %s;" % R.choice(members + ["e == ea ? eb : ec"])
    if t < 0.9 and OPT:
        return "o = %s;" % R.choice(["none", lit(), lit(), R.choice(xs)])
    if REC:
        return R.choice(["r.u = %s;" % R.choice([lit(), "(r.u + 1) %% %d" % (K + 1)]),
                        "r.v = !r.v;", "r = R { u: %s, v: %s };" % (lit(), R.choice(["true", "false"]))])
    return "%s = %s;" % (x, lit())


def stmts(params, depth=0):
    out = []
    for _ in range(R.randint(1, 3)):
        t = R.random()
        if t < 0.65 or depth >= 1:
            out.append(assign(params))
        elif t < 0.8:
            s = "if %s { %s }" % (bool_expr(params, 1), " ".join(stmts(params, depth + 1)))
            if R.random() < 0.6:
                s += " else { %s }" % " ".join(stmts(params, depth + 1))
            out.append(s)
        elif t < 0.9:
            out.append("assert %s;" % bool_expr(params, 1))
        else:
            locals_made[0] += 1
            v = "l%d" % locals_made[0]
            out.append("var %s: 0..%d = %s; %s = %s;" % (v, K, R.choice([lit(), R.choice(xs)]),
                                                        R.choice(xs), v))
    return out


out = ["model r%d;" % seed, "const N = %d;" % N]
out += ["var %s: 0..%d;" % (x, K) for x in xs]
out += ["var %s: 0..1;" % f for f in fs]
out += ["var b0: bool;", "var a: [0..N-1] 0..%d;" % K, "var c: [0..N-1] 0..N;",
        "var i0: 0..N;"]
if ENUM:
    out.append("var e: enum { %s };" % ", ".join(members))
if OPT:
    out.append("var o: 0..%d?;" % K)
if REC:
    out.append("type R = record { u: 0..%d, v: bool };" % K)
    out.append("var r: R;")
SET = R.random() < 0.3           # sv: set<0..N-1>, and a parameter `v in sv`
if SET:
    out.append("var sv: set<0..N-1>;")
if SYM:
    out += ["type P = scalarset(2);", "var s: [P] 0..%d;" % K, "var own: P?;"]

if R.random() < 0.3:
    out.append("init { %s }" % " ".join(assign([]) for _ in range(R.randint(1, 2))))
elif R.random() < 0.2:
    out.append("init (q: 0..1) { %s = q; }" % R.choice(xs))

# Processes: each a program counter pc<t> over S steps, one action per step
# (the key conjunct `pc<t> == s`, often first, sometimes after a conjunct that
# may fail), cycling back (cycles of independent steps: the proviso), with
# free actions besides.
T = R.randint(1, 3)
S = R.randint(2, 3)
out += ["var pc%d: 0..%d;" % (t, S - 1) for t in range(T)]


def action(name, pc, step):
    params, plist = [], []
    t = R.random()
    if t < 0.3:
        params, plist = ["q"], ["q: 0..N-1"]
    elif t < 0.4:
        params, plist = ["q", "w"], ["q: 0..N-1", "w: bool"]
    head = "action %s%s" % (name, "(%s)" % ", ".join(plist) if plist else "")
    body = stmts(params)
    if "w" in params:
        body = ["if w { %s } else { %s }" % (" ".join(body), assign(params))]
    g = guard(params) if pc is None or R.random() < 0.35 else None
    if pc is not None:
        body.append("pc%d = %d;" % (pc, R.choice([(step + 1) % S, (step + 1) % S, 0])))
        k = "pc%d == %d" % (pc, step)
        g = k if g is None else R.choice(["%s && %s" % (k, g), "%s && %s" % (g, k)])
    if "w" in params and R.random() < 0.5:
        g = "(w || %s) && %s" % (key(params), g)
    out.append("%s when %s { %s }" % (head, g, " ".join(body)))


for t in range(T):
    for step in range(S):
        action("p%ds%d" % (t, step), t, step)
for n in range(R.randint(1, 3)):
    action("t%d" % n, None, 0)
if SET:
    # Adds an element (an enabling the guard of `v in sv` does not name),
    # takes one out under a key.
    out.append("action put(q: 0..N-1) when %s { sv.add(q); %s }" % (key(["q"]), assign(["q"])))
    out.append("action take(v in sv) when %s { sv.remove(v); %s }"
               % (key([]), R.choice(["assert %s;" % key([]), assign([]), "a[v] = %s;" % lit()])))

if SYM:
    # Each process p its own counter, and a shared owner: symmetric.
    out.append("action grab(p: P) when own == none && s[p] < %d { own = p; }" % K)
    out.append("action work(p: P) when own == p { s[p] = s[p] + 1; own = none; }")
    if R.random() < 0.5:
        out.append("action drop(p: P) when s[p] == %d && %s { s[p] = 0; }" % (K, key([])))
    if R.random() < 0.4:
        out.append("invariant sym_inv: (count p: P :: s[p] == %d) < 2 || %s;" % (K, key([])))

t = R.random()
if t < 0.45:
    out.append("invariant inv: !(%s && %s == %d);" % (key([]), R.choice(xs), R.randint(1, K)))
elif t < 0.6:
    out.append("invariant inv: %s;" % bool_expr([], 1))
if R.random() < 0.25:
    out.append("reachable seen: %s && %s == %d;" % (key([]), R.choice(xs), R.randint(1, K)))
if R.random() < 0.15:
    out.append("terminal done: %s;" % key([]))
if R.random() < 0.15:
    out.append("constraint small: %s;" % key([]))
print("\n".join(out))
