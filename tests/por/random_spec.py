#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/por/random_spec.py SEED: prints a small random spec that stresses
what --por's stubborn sets rely on (tests/por/fuzz.py runs it with --por off,
on and the default). The same SEED gives the same spec everywhere.

Two kinds of spec, drawn from the seed:
- a trap spec (most seeds): every expression of the random part is total
  (indices reduced modulo their range, divisions by a non-zero operand,
  computed writes brought into range, no random asserts or invariants), and
  one to three traps are planted, each a violation reachable only along
  some interleavings: the one violation a reduction must not lose, so that
  a wrong reduction shows as "ok" against a violation, not as another
  violation met first;
- a wild spec: forms that may fail drawn anywhere, at a rate drawn per
  spec (RISK), with random asserts and invariants.

The traps, each the shape of a wrong --por on verdict once found by hand or
of an assumption the tables make:
- guard: `K1 && RISKY && K2` (tests/por/specs/guard_fails.mc): RISKY may
  fail (an index held in a cell, nested `a[c[k]]`, a division or remainder
  by a cell, an optional that may be none), a mover rule makes it fail, a
  hider rule makes K1 false, K2 is false (its cell never or rarely given
  the value);
- in: an action `take(v in COLL)` over a set, a multiset, or an element of
  an array of sets (at a constant index or one held in a cell), whose body
  fails (an assert, an assignment out of range), a rule adding the element
  and a rule making take's key false (tests/por/specs/in_param.mc);
- body: a write out of range, an index or a division that fails in a body;
- assert: an assert in a body over cells other rules write;
- inv: an invariant that fails in one combination of values;
and the movers, hiders and adders are either actions of their own or
statements slipped into the random actions' bodies (the steps of
processes).

The random part mixes, each a case where a dependency table or an enabling
set can be too small: key conjuncts (`x == 1`, `x < 2`, `e == ea`,
`f != 0`, ordered keys on a range that does not start at 0); indices held
in one cell (`a[i]`), nested (`a[c[i]]`), parameters with arithmetic
(`a[(q + 1) % N]`); records (written field by field and whole); optional
values; quantifiers in guards; actions with two parameters; asserts, locals
and if/else in bodies; constant and computed writes (the values table);
scalarsets (symmetry); invariants, reachables, terminal predicates and
constraints; processes with program counters and cells of their own
(independent steps: what a reduction prunes) cycling back (the proviso);
constants N and K that fuzz.py may change with -D; in about a third of the
specs (DYN), indices held in a cell of the index's range (`a[j0]`,
`a[j1 - 1]`, nested `a[d[j0]]`) that bodies move and then use, loops, and
traps on them (`a[c[j0]]`, a queue's head()).

In half the specs (REWRITE, drawn from a stream of its own), one or two
more traps of the shape of tests/por/specs/index_rewritten.mc: an action
writes an index cell (an element of an array of indices or of records at
an index held in a cell, a field, in a loop's earlier iteration, an extern
C result: tests/por/specs/porfz.{h,c}) and then reads or writes through it
(directly, shifted, in a fn)."""
import random
import sys

seed = int(sys.argv[1])
R = random.Random(seed)

N = R.randint(2, 3)              # array size, index type 0..N-1 (const N)
K = R.randint(1, 3)              # value range 0..K (const K)
NX = R.randint(1, 3)             # shared counters x0..
NF = R.randint(1, 2)             # flags f0..
OPT = R.random() < 0.4           # o: 0..K?
REC = R.random() < 0.4           # r: record
SYM = R.random() < 0.25          # a scalarset P of 2
ENUM = R.random() < 0.5          # e: enum
OFS = R.random() < 0.4           # y: LO..LO+2, a range not from 0
LO = R.choice([-2, -1, 1, 2])
TRAP = R.random() < 0.75         # a trap spec (above) or a wild one
RISK = 0.0 if TRAP else R.uniform(0.03, 0.3)   # how often a form that may fail is drawn
# Indices held in cells of the index's own range (j0, j1 - 1, d[j0]),
# written and then used in one body, loops: drawn apart (from a stream of
# their own, so that a spec without them is the one the generator gave
# before they were added: the seeds that find the reverted fixes stay).
DYN = random.Random("dyn%d" % seed).random() < 0.35
locals_made = [0]

xs = ["x%d" % k for k in range(NX)]
fs = ["f%d" % k for k in range(NF)]
members = ["ea", "eb", "ec"]
own = []                         # the cells of the process whose action is drawn


def risk():
    return RISK > 0 and R.random() < RISK


def X():
    """A counter: the drawing process's own most of the time (steps of
    different processes on their own cells are independent)."""
    if own and R.random() < 0.7:
        return R.choice(own)
    return R.choice(xs)


def lit():
    return str(R.randint(0, K))


def into_k(e):
    """e brought into 0..K whatever its sign (a trap spec's computed write)."""
    return "((%s) %% (K + 1) + K + 1) %% (K + 1)" % e


def index(params):
    """An index into [0..N-1]: constant, parameter, arithmetic on it, or
    held in a cell (which may hold a value out of range)."""
    if risk():  # i0 and c[] may hold N; x0.. may be past N - 1
        return R.choice(["i0", "c[i0]", X(), "c[%s]" % X()])
    choices = [lambda: str(R.randrange(N)), lambda: "c[%d] %% N" % R.randrange(N),
               lambda: "i0 % N", lambda: "c[i0 % N] % N", lambda: "%s %% N" % X()]
    if DYN:  # held in one cell of the index's own range (the checker resolves
        # the element in the state at hand), shifted, nested
        choices += [lambda: "j0", lambda: "j0", lambda: "j1 - 1", lambda: "d[j0]",
                    lambda: "d[%d]" % R.randrange(N)]
    if "q" in params:
        choices += [lambda: "q", lambda: "(q + 1) % N", lambda: "c[q] % N", lambda: "q"]
    return R.choice(choices)()


def atom(params, depth):
    choices = [lambda: X(), lambda: "a[%s]" % index(params), lambda: "i0",
               lambda: "c[%s]" % index(params), lambda: lit()]
    if "q" in params:
        choices.append(lambda: "q")
    if REC:
        choices.append(lambda: "r.u")
    if OFS:
        choices.append(lambda: "(y - %d)" % LO)
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
                               atom(params, depth + 1) if risk() else "(%s + 1)" % X())
    return "(%s ? %s : %s)" % (bool_expr(params, depth + 1), int_expr(params, depth + 1),
                               int_expr(params, depth + 1))


def key(params):
    """A comparison of one cell against a constant (a key conjunct)."""
    c = [lambda: "%s %s %s" % (X(), R.choice(["==", "!=", "<", "<=", ">", ">="]), lit()),
         lambda: "%s %s %d" % (R.choice(fs), R.choice(["==", "!="]), R.randint(0, 1)),
         lambda: "i0 %s %d" % (R.choice(["==", "<", ">="]), R.randint(0, N)),
         lambda: "a[%d] %s %s" % (R.randrange(N), R.choice(["==", ">"]), lit()),
         lambda: "b0", lambda: "!b0"]
    if DYN:
        c += [lambda: "j0 %s %d" % (R.choice(["==", "!=", "<", ">"]), R.randrange(N)),
              lambda: "d[%d] == %d" % (R.randrange(N), R.randrange(N)),
              lambda: "j1 %s %d" % (R.choice(["==", "<=", ">"]), R.randint(1, N))]
    if ENUM:
        c.append(lambda: "e %s %s" % (R.choice(["==", "!=", "<", ">="]), R.choice(members)))
    if REC:
        c.append(lambda: "r.u %s %s" % (R.choice(["==", "<="]), lit()))
        c.append(lambda: "r.v")
    if OPT:
        c.append(lambda: "o %s %s" % (R.choice(["==", "!="]), R.choice(["none", lit()])))
    if OFS:
        c.append(lambda: "y %s %d" % (R.choice(["==", "<", "<=", ">", ">=", "!="]),
                                      LO + R.randint(0, 2)))
    return R.choice(c)()


def init_key():
    """A key that holds in the initial state (unless an init block writes
    its cell): the guard of a trap's helper, enabled from the start."""
    c = [lambda: "%s == 0" % R.choice(xs), lambda: "%s != 1" % R.choice(fs), lambda: "!b0",
         lambda: "i0 < %d" % R.randint(1, N), lambda: "a[%d] <= %s" % (R.randrange(N), lit()),
         lambda: "true", lambda: "true"]
    if ENUM:
        c.append(lambda: "e %s" % R.choice(["== ea", "< eb", "!= ec"]))
    if REC:
        c.append(lambda: "!r.v")
    if OPT:
        c.append(lambda: "o == none")
    return R.choice(c)()


def risky(params, depth):
    """A conjunct whose evaluation may fail, or read through an index."""
    c = [lambda: "a[%s] %s %s" % (index(params), R.choice(["==", ">", "<="]), lit()),
         lambda: "a[c[%s]%s] == %s" % (index(params), "" if risk() else " % N", lit()),
         lambda: "%s / %s %s %s" % (int_expr(params, depth + 1),
                                    R.choice(xs + ["i0", "a[0]"]) if risk() else "(i0 + 1)",
                                    R.choice(["==", ">"]), lit()),
         lambda: "(exists k: 0..N-1 :: a[k] == %s)" % lit(),
         lambda: "(forall k: 0..N-1 :: a[(k + %s) %% N] <= %s)" % (R.choice(["0", "1", "i0"]),
                                                               X()),
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
    x = X()
    if t < 0.2:
        return "%s = %s;" % (x, lit())
    if t < 0.32:
        return "%s = (%s + 1) %% (K + 1);" % (x, x)
    if t < 0.4:
        if risk():
            return "%s = %s;" % (x, int_expr(params))      # may be out of range
        if TRAP:
            return "%s = %s;" % (x, into_k(int_expr(params)))
        return "%s = (%s) %% (K + 1);" % (x, int_expr(params))  # may be negative
    if t < 0.5:
        return "a[%s] = %s;" % (index(params), R.choice([lit(), "(a[%s] + 1) %% (K + 1)"
                                                          % index(params)]))
    if t < 0.57:
        return "c[%s] = %s;" % (index(params), R.choice([str(R.randint(0, N - 1 + risk())),
                                                          "q" if "q" in params else "0",
                                                          "(c[0] + 1) %% %d" % (N + risk())]))
    if t < 0.64:
        return "i0 = %s;" % R.choice([str(R.randint(0, N - 1 + risk())),
                                      "(i0 + 1) %% %d" % (N + risk()), "c[%d]" % R.randrange(N)])
    if DYN and t < 0.67:
        return R.choice(["j0 = %d;" % R.randrange(N), "j0 = (j0 + 1) % N;", "j0 = d[j0];",
                         "d[%s] = (d[%s] + 1) %% N;" % (index(params), index(params)),
                         "d[j0] = %d;" % R.randrange(N), "j1 = %d;" % R.randint(1, N),
                         "j1 = j0 + 1;"])
    if t < 0.7:
        return "%s = %d;" % (R.choice(fs), R.randint(0, 1))
    if t < 0.75:
        return "b0 = %s;" % R.choice(["!b0", "true", "false", bool_expr(params, 1)])
    if t < 0.8 and ENUM:
        return "e = %s;" % R.choice(members + ["e == ea ? eb : ec"])
    if t < 0.85 and OPT:
        return "o = %s;" % R.choice(["none", lit(), lit(), X()])
    if t < 0.9 and OFS:
        return "y = %s;" % R.choice([str(LO + R.randint(0, 2)), "(y - %d + 1) %% 3 + %d"
                                     % (LO, LO)])
    if REC:
        return R.choice(["r.u = %s;" % R.choice([lit(), "(r.u + 1) % (K + 1)"]),
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
        elif t < (0.85 if DYN else 0.9) and not TRAP:
            out.append("assert %s;" % bool_expr(params, 1))
        elif DYN and t < 0.9:
            out.append(R.choice([
                "j0 = %s; a[j0] = %s;" % (R.choice(["(j0 + 1) % N", "d[j0]", str(R.randrange(N))]),
                                          lit()),
                "%s = a[j0]; j0 = %s;" % (X(), R.choice(["(j0 + 1) % N", "d[0]"])),
                "for k: 0..N-1 { if a[k] %s %s { a[k] = %s; } }" % (R.choice(["==", ">"]), lit(),
                                                                    lit()),
                "for k: 0..N-1 { d[k] = (d[k] + %d) %% N; }" % R.randint(0, 1)]))
        else:
            locals_made[0] += 1
            v = "l%d" % locals_made[0]
            out.append("var %s: 0..K = %s; %s = %s;" % (v, R.choice([lit(), X()]), X(), v))
    return out


out = ["model r%d;" % seed, "const N = %d;" % N, "const K = %d;" % K]
out += ["var %s: 0..K;" % x for x in xs]
out += ["var %s: 0..1;" % f for f in fs]
out += ["var b0: bool;", "var a: [0..N-1] 0..K;", "var c: [0..N-1] 0..N;",
        "var i0: 0..N;"]
if DYN:
    out += ["var j0: 0..N-1;", "var j1: 1..N;", "var d: [0..N-1] 0..N-1;"]
if ENUM:
    out.append("var e: enum { %s };" % ", ".join(members))
if OPT:
    out.append("var o: 0..K?;")
if REC:
    out.append("type R = record { u: 0..K, v: bool };")
    out.append("var r: R;")
if OFS:
    out.append("var y: %d..%d;" % (LO, LO + 2))
SET = R.random() < 0.3           # sv: set<0..N-1>, and a parameter `v in sv`
if SET:
    out.append("var sv: set<0..N-1>;")
if SYM:
    out += ["type P = scalarset(2);", "var s: [P] 0..K;", "var own: P?;"]

init = []
if R.random() < 0.3:
    init += [assign([]) for _ in range(R.randint(1, 2))]
elif R.random() < 0.2:
    out.append("init (q: 0..1) { %s = q; }" % R.choice(xs))

# Processes: each a program counter pc<t> over S steps, one action per step
# (the key conjunct `pc<t> == s`, often first, sometimes after a conjunct that
# may fail), cycling back (cycles of independent steps: the proviso), with
# counters of its own (u<t>_<k>) and free actions besides.
T = R.randint(1, 3)
S = R.randint(2, 3)
out += ["var pc%d: 0..%d;" % (t, S - 1) for t in range(T)]
owns = [["u%d_%d" % (t, k) for k in range(R.randint(0, 2))] for t in range(T)]
out += ["var %s: 0..K;" % u for us in owns for u in us]

# ---------------------------------------------------------------------------
# Traps. Each adds declarations, actions, and statements for the random
# actions' bodies (`slip`); what no body took becomes an action of its own.
traps = []                       # actions
slip = []                        # statements to slip into random bodies
inits = []                       # initial writes
ntrap = [0]


def trap_guard():
    g = ntrap[0]
    # The hider's cell and K1, true at first.
    h = R.choice(["own", "new", "new", "pc"] if T else ["own", "new"])
    if h == "pc" and T:
        t = R.randrange(T)
        k1, hide = "pc%d == 0" % t, None     # the process's own steps hide it
    elif h == "own" and xs:
        x = R.choice(xs)
        k1, hide = "%s == 0" % x, "%s = %d;" % (x, R.randint(1, K))
    else:
        out.append("var hg%d: bool;" % g)
        k1, hide = "!hg%d" % g, "hg%d = true;" % g
    # The conjunct that may fail, and its mover.
    m = R.choice(["idx", "idx", "nested", "div", "mod", "opt" if OPT else "idx", "param"]
                 + (["dyn", "head"] if DYN else []))
    if m == "idx":
        out.append("var mg%d: 0..N;" % g)
        risky_ = "a[mg%d] %s %s" % (g, R.choice([">", "==", "!="]), lit())
        move = "mg%d = N;" % g
    elif m == "param":
        out.append("var mg%d: 0..N;" % g)
        risky_ = "a[(mg%d + q) %% (N + 1)] > %s" % (g, lit())   # fails for q = 1
        move = "mg%d = %s;" % (g, R.choice(["N", "N - 1"]))
    elif m == "nested":
        risky_ = "a[c[%d]] %s %s" % (R.randrange(N), R.choice([">", "<="]), lit())
        move = "c[%d] = N;" % R.randrange(N) if R.random() < 0.5 else "c[i0 % N] = N;"
    elif m == "dyn":             # c[j0] may hold N
        risky_ = "a[c[j0]] %s %s" % (R.choice([">", "<="]), lit())
        move = R.choice(["c[j0] = N;", "c[%d] = N;" % R.randrange(N)])
    elif m == "head":            # head() of an empty queue fails
        out.append("var qg%d: queue<0..N-1, 2>;" % g)
        inits.append("qg%d.push(%d);" % (g, R.randrange(N)))
        risky_ = "qg%d.head() %s %d" % (g, R.choice(["==", "!="]), R.randrange(N))
        move = "qg%d.clear();" % g
    elif m == "div":
        out.append("var mg%d: 0..2;" % g)
        risky_ = "%s / (1 - mg%d) %s %s" % (R.choice(xs + ["a[0]", "2"]), g,
                                            R.choice([">", "=="]), lit())
        move = "mg%d = 1;" % g
    elif m == "mod":
        out.append("var mg%d: 0..2;" % g)
        risky_ = "(%s + 1) %% (2 - mg%d) == 0" % (R.choice(xs + ["i0"]), g)
        move = "mg%d = 2;" % g
    else:
        out.append("var mg%d: 0..K?;" % g)
        inits.append("mg%d = %s;" % (g, lit()))
        risky_ = "mg%d %s %s" % (g, R.choice([">", "<", ">="]), lit())
        move = "mg%d = none;" % g
    # K2: false while the cell keeps its default, or a random key.
    t = R.random()
    if t < 0.65:
        out.append("var zg%d: 0..1;" % g)
        k2 = "zg%d == 1" % g
        if R.random() < 0.3:
            slip.append("zg%d = 0;" % g)     # written, never to 1
    elif t < 0.9:
        k2 = key([])
    else:
        k2 = None
    parts = [k1, risky_] + ([k2] if k2 else [])
    if R.random() < 0.2:
        parts.insert(1, key([]))
    params = ["q"] if m == "param" else []
    head = "action cg%d%s" % (g, "(q: 0..1)" if params else "")
    traps.append("%s when %s { %s }" % (head, " && ".join(parts), " ".join(stmts(params))))
    # The helpers: statements slipped into random bodies, or actions of
    # their own, one-shot on their own cells (independent of the rest, as
    # in guard_fails.mc: what a reduction takes alone) or under a key.
    helpers = [move] + ([hide] if hide else [])
    R.shuffle(helpers)           # which comes first decides ties between closures
    for s in helpers:
        t = R.random()
        if t < 0.3:
            slip.append(s)
        else:
            if " = " in s:
                once = "%s != %s" % tuple(s.rstrip(";").split(" = "))
            else:                # qg.clear();
                once = "!%s.empty()" % s.split(".")[0]
            traps.append("action %sg%d_%d when %s { %s }" % (
                "mv" if s == move else "hd", g, len(traps),
                once if t < 0.75 else init_key(), s))


def trap_in():
    g = ntrap[0]
    kind = R.choice(["set", "set", "mset", "arr", "arr_dyn", "rec"])
    if kind == "set":
        out.append("var sg%d: set<0..N-1>;" % g)
        coll = "sg%d" % g
    elif kind == "mset":
        out.append("var sg%d: multiset<0..N-1, 2>;" % g)
        coll = "sg%d" % g
    elif kind == "rec":
        out.append("type RS%d = record { n: 0..1, s: set<0..N-1> };" % g)
        out.append("var sg%d: RS%d;" % (g, g))
        coll = "sg%d.s" % g
    else:
        out.append("var sg%d: [0..1] set<0..N-1>;" % g)
        if kind == "arr":
            coll = "sg%d[%d]" % (g, R.randint(0, 1))
        else:
            out.append("var jg%d: 0..1;" % g)
            coll = "sg%d[jg%d]" % (g, g)
            slip.append("jg%d = %d;" % (g, R.randint(0, 1)))
    el = R.randrange(N)
    add = "%s.add(%d);" % (coll, el)
    if kind == "mset" and R.random() < 0.5:
        add = "if %s.count(%d) < 2 { %s }" % (coll, el, add)
    # take's key and what makes it false.
    if R.random() < 0.5 or not xs:
        out.append("var wg%d: 0..1;" % g)
        kw, other = "wg%d == 0" % g, "wg%d = 1;" % g
    else:
        x = R.choice(xs)
        kw, other = "%s == 0" % x, "%s = %d;" % (x, R.randint(1, K))
    fail = R.choice(["assert v != %d;" % el, "assert false;",
                     "%s = v + K + 1;" % R.choice(xs),
                     "assert %s;" % key([])])
    g2 = kw if R.random() < 0.7 else "%s && %s" % (kw, key([]))
    traps.append("action tg%d(v in %s) when %s { %s }" % (g, coll, g2, fail))
    for s in [add, other]:
        if R.random() < 0.5:
            slip.append(s)
        else:
            traps.append("action ag%d_%d when %s { %s }" % (g, len(traps), init_key(), s))
    if R.random() < 0.3:
        slip.append("%s.remove(%d);" % (coll, el))


def trap_body():
    g = ntrap[0]
    x = R.choice(xs)
    s = R.choice(["%s = %s + 1;" % (x, x),                      # out of range at K
                  "a[i0] = %s;" % lit(),                         # i0 == N
                  "%s = %s / (K - %s);" % (x, lit(), x),         # x == K
                  "c[%s] = N;" % R.choice(["0", "i0 % N"])])
    traps.append("action bg%d when %s { %s }" % (g, R.choice([key([]), init_key()]), s))


def trap_assert():
    slip.append("assert !(%s && %s);" % (key([]), key([])))


def trap_inv():
    out.append("invariant ig%d: !(%s && %s);" % (ntrap[0], key([]), key([])))


def trap_rewrite(g):
    """An index cell the action writes before it indexes through it
    (tests/por/specs/index_rewritten.mc): w{g} writes the holder of an
    index (an element of an array of indices or of records, at an index
    held in a cell; by a loop; through an extern C result) and then reads
    or writes aw{g} at that index, which its value in the expanded state
    does not give; u{g} writes the element w{g} really reaches, and a
    violation needs u{g} first (a write, or the value w{g} reads). Drawn
    from a stream of its own (RW), so every other part of the spec is the
    one the generator gave before this trap existed."""
    lines, acts = [], []
    T = RW.randint(1, N - 1)                     # the element really reached
    V, V2 = RW.sample(range(1, K + 1), 2) if K >= 2 else (1, 0)
    kind = RW.choice(["arr", "arr", "shift", "rec", "recfield", "loop", "ext", "fn"])
    lines += ["var aw%d: [0..N-1] 0..K;" % g, "var kw%d: 0..N-1;" % g,
              "var wd%d: bool;" % g, "var ud%d: bool;" % g, "var bw%d: bool;" % g]
    at = "dw%d[0]" % g                           # the index read after the write
    if kind == "shift":                          # an index cell plus a constant
        lines.append("var dw%d: [0..N-1] 1..N;" % g)
        write, at = "dw%d[kw%d] = %d;" % (g, g, T + 1), "dw%d[0] - 1" % g
    elif kind in ("rec", "recfield"):
        lines += ["type RW%d = record { i: 0..N-1, v: bool };" % g,
                  "var dw%d: [0..N-1] RW%d;" % (g, g)]
        write = ("dw%d[kw%d] = RW%d { i: %d, v: true };" % (g, g, g, T) if kind == "rec"
                 else "dw%d[kw%d].i = %d;" % (g, g, T))
        at = "dw%d[0].i" % g
    else:
        lines.append("var dw%d: [0..N-1] 0..N-1;" % g)
        write = "dw%d[kw%d] = %d;" % (g, g, T)
        if kind == "ext":                        # tests/por/specs/porfz.{h,c}
            write = "dw%d[kw%d] = pz_shift(%d, N);" % (g, g, T - 1)
    read = RW.random() < 0.35                    # w reads aw at the index
    if read:
        lines.append("var cw%d: 0..K;" % g)
        use = "cw%d = aw%d[%s];" % (g, g, at)
        if kind == "fn":
            lines.append("fn rd%d(): 0..K { return aw%d[%s]; }" % (g, g, at))
            use = "cw%d = rd%d();" % (g, g)
        bad = "cw%d == %d" % (g, V2)
        u = "aw%d[%d] = %d;" % (g, T, V2)
    else:
        use = "aw%d[%s] = %d;" % (g, at, V)
        bad = "aw%d[%d] == %d" % (g, T, V)
        u = "aw%d[%d] = %d;" % (g, T, V2)
    body = [write, use]
    if kind == "loop":                           # the second iteration's use
        body = ["for k: 0..1 { if k == 1 { %s } %s }" % (use, write)]
    body.insert(RW.randint(0, len(body)), "wd%d = true;" % g)
    acts.append("action w%d when !wd%d { %s }" % (g, g, " ".join(body)))
    acts.append("action u%d when !ud%d { ud%d = true; %s }" % (g, g, g, u))
    acts.append("action z%d when %s && ud%d && !bw%d { bw%d = true; }" % (g, bad, g, g, g))
    if RW.random() < 0.5:                        # an independent step beside them
        lines.append("var nw%d: 0..2;" % g)
        acts.append("action n%d when nw%d < 2 { nw%d = nw%d + 1; }" % (g, g, g, g))
    RW.shuffle(acts)
    lines.append("invariant iw%d: !bw%d;" % (g, g))
    return lines + acts, kind == "ext"


RW = random.Random("rw%d" % seed)
REWRITE = RW.random() < 0.5

if TRAP or R.random() < 0.3:
    for _ in range(R.choice([1, 1, 2, 3])):
        R.choice([trap_guard, trap_guard, trap_guard, trap_in, trap_in, trap_in, trap_body,
                  trap_assert, trap_inv])()
        ntrap[0] += 1
R.shuffle(slip)
if init or inits:
    out.append("init { %s }" % " ".join(inits + init))


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
    if slip and R.random() < 0.3:
        body.insert(R.randint(0, len(body)), slip.pop())
    g = guard(params) if pc is None or R.random() < 0.35 else None
    if pc is not None:
        body.append("pc%d = %d;" % (pc, R.choice([(step + 1) % S, (step + 1) % S, 0])))
        k = "pc%d == %d" % (pc, step)
        g = k if g is None else R.choice(["%s && %s" % (k, g), "%s && %s" % (g, k)])
    if "w" in params and R.random() < 0.5:
        g = "(w || %s) && %s" % (key(params), g)
    out.append("%s when %s { %s }" % (head, g, " ".join(body)))


for t in range(T):
    own[:] = owns[t]
    for step in range(S):
        action("p%ds%d" % (t, step), t, step)
own[:] = []
for n in range(R.randint(1, 3)):
    action("t%d" % n, None, 0)
for tr in traps:                 # among the random actions: the rule order breaks ties
    first = next(i for i, l in enumerate(out) if l.startswith("action "))
    out.insert(R.randint(first, len(out)), tr)
for n, s in enumerate(slip):
    out.append("action sl%d when %s { %s }" % (n, init_key(), s))
if SET:
    # Adds an element (an enabling the guard of `v in sv` does not name),
    # takes one out under a key.
    out.append("action put(q: 0..N-1) when %s { sv.add(q); %s }" % (key(["q"]), assign(["q"])))
    out.append("action take(v in sv) when %s { sv.remove(v); %s }"
               % (key([]), R.choice(["assert %s;" % key([]) if not TRAP else assign([]),
                                     assign([]), "a[v] = %s;" % lit()])))

if SYM:
    # Each process p its own counter, and a shared owner: symmetric.
    out.append("action grab(p: P) when own == none && s[p] < K { own = p; }")
    out.append("action work(p: P) when own == p { s[p] = s[p] + 1; own = none; }")
    if R.random() < 0.5:
        out.append("action drop(p: P) when s[p] == K && %s { s[p] = 0; }" % key([]))
    if R.random() < 0.4 and not TRAP:
        out.append("invariant sym_inv: (count p: P :: s[p] == K) < 2 || %s;" % key([]))

t = R.random()
if TRAP:
    pass
elif t < 0.45:
    out.append("invariant inv: !(%s && %s == %d);" % (key([]), R.choice(xs), R.randint(1, K)))
elif t < 0.6:
    out.append("invariant inv: %s;" % bool_expr([], 1))
if R.random() < 0.25:
    out.append("reachable seen: %s && %s == %d;" % (key([]), R.choice(xs), R.randint(1, K)))
if R.random() < 0.15:
    out.append("terminal done: %s;" % key([]))
if R.random() < 0.15:
    out.append("constraint small: %s;" % key([]))
if REWRITE:
    ext = False
    for g in range(RW.choice([1, 1, 2])):
        lines, e = trap_rewrite(g)
        out += lines
        ext |= e
    if ext:
        out.insert(1, 'extern "porfz.h" sources "porfz.c";')
        out.insert(2, "extern fn pz_shift(x: 0..N-1, n: 1..N): 0..N-1;")
print("\n".join(out))
