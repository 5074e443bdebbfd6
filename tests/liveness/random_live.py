#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/liveness/random_live.py SEED [--sym]: prints a small random spec with
temporal properties and fairness, and (imported by tests/liveness/fuzz.py)
decides every property instance of it without mcgen.

The spec is built from a small tree of expressions that this module both
writes as .mc text and evaluates itself, so the state graph and the
verdicts below owe nothing to mcgen's compiler or runtime:

- variables: one to three counters `x0: 0..R` (R from 1 to 3), and with a
  process type P = 0..N-1 (N from 1 to 3) an array of counters `c: [P] 0..R`
  and an array of flags `f: [P] bool`; every state starts at the defaults
  (0, false). With --sym, P is `scalarset(N)`: every expression then treats
  the processes alike (no constants of P, no arithmetic on them), as the
  compiler demands, so that the properties and fairness are symmetric;
- actions: two to five, some with a parameter `p: P`; a guard of up to two
  atoms, a body of one or two assignments, every value brought into its
  range with `%` (no run-time errors);
- properties: one to four, each of a form drawn from [] P, <> P, P ~> Q,
  []<> P, <>[] P, over atoms of the variables, some with `forall p: P`;
- fairness: each action weak, strong or neither, per binding, and now and
  then a group `(A | B)`.

The oracle (decide) follows docs/LANGUAGE.md ("Temporal properties and
fairness") in its own way: the graph by a breadth-first search over tuples;
a state without successors repeats; for each instance the allowed states
and sources of its form (liveness.c's header lists them), then the
strongly connected components by Kosaraju's two passes (not Tarjan's, nor
the union-find of the runtime), each judged against every constraint: weak
c needs an edge inside taken by c or a state inside where c is disabled;
strong c an edge inside taken by c, or else the states where c is enabled
are removed and what is left decomposed again (recursively). check_lasso
then replays a reported lasso step by step through this module's own
successor function and checks that it is a fair behaviour violating the
instance."""
import random
import sys

FORMS = ['always', 'eventually', 'leadsto', 'always_eventually', 'eventually_always']


class Spec:
    """A random spec: its text (text()), and its semantics (initial,
    successors, instances, constraints)."""

    def __init__(self, seed, sym=False):
        self.r = random.Random(seed)
        r = self.r
        self.sym = sym
        big = r.random() < 0.4  # graphs of hundreds to thousands of states
        self.big = big
        self.N = r.randint(1, 3 + big) if not sym else r.randint(2, 3 + big)
        self.has_procs = sym or big or r.random() < 0.7
        self.counters = []  # (name, R)
        for i in range(r.randint(1, 3) if not sym else r.randint(1, 2)):
            self.counters.append(('x%d' % i, r.randint(1, 3 + big)))
        self.CR = r.randint(1, 3)  # c: [P] 0..CR
        self.actions = []
        for i in range(r.randint(2 + 2 * big, 5 + 2 * big)):
            self.actions.append(self.make_action('a%d' % i))
        self.props = []
        for i in range(r.randint(1, 3)):
            self.props.append(self.make_property('p%d' % i))
        self.fair = self.make_fairness()

    # ---- expressions: ('kind', ...) trees, written and evaluated below

    def rng(self, name):
        for n, R in self.counters:
            if n == name:
                return R
        return self.CR

    def int_leaf(self, p):
        r = self.r
        choices = [('var', n) for n, _ in self.counters]
        if self.has_procs:
            idx = self.proc_index(p)
            if idx is not None:
                choices.append(('c', idx))
        if not choices:
            return ('const', r.randint(0, 2))
        return r.choice(choices)

    def proc_index(self, p):
        """An index into the arrays: the parameter, or (not under symmetry) a
        constant or the parameter shifted."""
        r = self.r
        opts = []
        if p:
            opts.append(('param',))
            if not self.sym and self.N > 1:
                opts.append(('shift', 1))
        if not self.sym:
            opts.append(('pconst', r.randint(0, self.N - 1)))
        return r.choice(opts) if opts else None

    def atom(self, p):
        r = self.r
        kind = r.random()
        if self.has_procs and kind < 0.3:
            idx = self.proc_index(p)
            if idx is not None:
                return ('flag', idx) if r.random() < 0.6 else ('not', ('flag', idx))
        leaf = self.int_leaf(p)
        op = r.choice(['==', '!=', '<'])
        hi = self.rng(leaf[1]) if leaf[0] == 'var' else self.CR if leaf[0] == 'c' else 2
        return (op, leaf, ('const', r.randint(0, hi)))

    def pred(self, p, atoms=None):
        r = self.r
        n = atoms if atoms is not None else r.randint(0, 2)
        if n == 0:
            return ('true',)
        e = self.atom(p)
        for _ in range(n - 1):
            e = (r.choice(['&&', '||']), e, self.atom(p))
        return e

    def quant_pred(self):
        """A predicate for a property without a binder: under symmetry it
        must not name a process, so a quantifier over all of them."""
        r = self.r
        if self.sym and self.has_procs and r.random() < 0.6:
            return (r.choice(['forall', 'exists']), self.pred(True, r.randint(1, 2)))
        return self.pred(False, r.randint(1, 2))

    def make_assign(self, p):
        r = self.r
        targets = [('var', n) for n, _ in self.counters]
        if self.has_procs:
            idx = self.proc_index(p)
            if idx is not None:
                targets += [('c', idx), ('flag', idx)]
        t = r.choice(targets)
        if t[0] == 'flag':
            val = r.choice([('not', ('flag', t[1])), ('true',), ('false',), self.atom(p)])
            return (t, val)
        R = self.rng(t[1]) if t[0] == 'var' else self.CR
        kind = r.random()
        if kind < (0.7 if self.big else 0.4):
            val = ('mod', ('add', t, ('const', r.randint(1, R))), R + 1)
        elif kind < 0.7:
            val = ('const', r.randint(0, R))
        else:
            val = ('mod', self.int_leaf(p), R + 1)
        return (t, val)

    def make_action(self, name):
        r = self.r
        p = self.has_procs and r.random() < 0.6
        guard = self.pred(p, r.randint(0, 1) if self.big else None)
        body = [self.make_assign(p) for _ in range(r.randint(1, 2))]
        # Each target once: the body's assignments are sequential, but a
        # second write of the same cell would make the first pointless.
        seen, uniq = set(), []
        for t, v in body:
            if repr(t) not in seen:
                seen.add(repr(t))
                uniq.append((t, v))
        return {'name': name, 'param': p, 'guard': guard, 'body': uniq}

    def make_property(self, name):
        r = self.r
        form = 'always' if r.random() < 0.1 else r.choice(FORMS[1:])
        binder = self.has_procs and r.random() < 0.4
        if binder:
            P = self.pred(True, r.randint(1, 2))
            Q = self.pred(True, r.randint(1, 2))
        else:
            P, Q = self.quant_pred(), self.quant_pred()
        return {'name': name, 'form': form, 'binder': binder, 'P': P, 'Q': Q}

    def make_fairness(self):
        r = self.r
        fair = []
        for a in self.actions:
            x = r.random()
            if x < 0.35:
                fair.append(('weak', [a['name']]))
            elif x < 0.55:
                fair.append(('strong', [a['name']]))
        if len(self.actions) >= 2 and r.random() < 0.3:
            pair = r.sample([a['name'] for a in self.actions], 2)
            fair.append((r.choice(['weak', 'strong']), pair))
        return fair

    # ---- the text

    def idx_text(self, idx):
        if idx[0] == 'param':
            return 'p'
        if idx[0] == 'shift':
            return '(p + %d) %% N' % idx[1]
        return str(idx[1])

    def etext(self, e):
        k = e[0]
        if k == 'const':
            return str(e[1])
        if k == 'var':
            return e[1]
        if k == 'c':
            return 'c[%s]' % self.idx_text(e[1])
        if k == 'flag':
            return 'f[%s]' % self.idx_text(e[1])
        if k == 'true':
            return 'true'
        if k == 'false':
            return 'false'
        if k == 'not':
            return '!%s' % self.etext(e[1])
        if k == 'add':
            return '(%s + %s)' % (self.etext(e[1]), self.etext(e[2]))
        if k == 'mod':
            return '(%s %% %d)' % (self.etext(e[1]), e[2])
        if k in ('forall', 'exists'):
            return '(%s p: P :: %s)' % (k, self.etext(e[1]))
        return '(%s %s %s)' % (self.etext(e[1]), k, self.etext(e[2]))

    def text(self):
        out = ['model rlive;', '']
        if self.has_procs:
            out.append('const N = %d;' % self.N)
            out.append('type P = %s;' % ('scalarset(N)' if self.sym else '0..N-1'))
        for n, R in self.counters:
            out.append('var %s: 0..%d;' % (n, R))
        if self.has_procs:
            out.append('var c: [P] 0..%d;' % self.CR)
            out.append('var f: [P] bool;')
        out.append('')
        for a in self.actions:
            head = 'action %s%s' % (a['name'], '(p: P)' if a['param'] else '')
            if a['guard'] != ('true',):
                head += ' when %s' % self.etext(a['guard'])
            stmts = ' '.join('%s = %s;' % (self.etext(t), self.etext(v)) for t, v in a['body'])
            out.append('%s { %s }' % (head, stmts))
        out.append('')
        for pr in self.props:
            b = 'forall p: P :: ' if pr['binder'] else ''
            P, Q = self.etext(pr['P']), self.etext(pr['Q'])
            body = {'always': '[] %s' % P, 'eventually': '<> %s' % P,
                    'leadsto': '%s ~> %s' % (P, Q), 'always_eventually': '[]<> %s' % P,
                    'eventually_always': '<>[] %s' % P}[pr['form']]
            out.append('property %s: %s%s;' % (pr['name'], b, body))
        for kind, names in self.fair:
            items = names[0] if len(names) == 1 else '(%s)' % ' | '.join(names)
            out.append('fair %s %s;' % (kind, items))
        return '\n'.join(out) + '\n'

    # ---- the semantics. A state: a tuple of the counters, then c, then f.

    def initial(self):
        s = [0] * len(self.counters)
        if self.has_procs:
            s += [0] * self.N + [False] * self.N
        return tuple(s)

    def slot(self, e, p):
        """The index in the state tuple of a cell expression."""
        k = e[0]
        if k == 'var':
            return [n for n, _ in self.counters].index(e[1])
        base = len(self.counters) + (0 if k == 'c' else self.N)
        idx = e[1]
        i = p if idx[0] == 'param' else (p + idx[1]) % self.N if idx[0] == 'shift' else idx[1]
        return base + i

    def ev(self, e, s, p):
        k = e[0]
        if k == 'const':
            return e[1]
        if k in ('var', 'c', 'flag'):
            return s[self.slot(e, p)]
        if k == 'true':
            return True
        if k == 'false':
            return False
        if k == 'not':
            return not self.ev(e[1], s, p)
        if k == 'add':
            return self.ev(e[1], s, p) + self.ev(e[2], s, p)
        if k == 'mod':
            return self.ev(e[1], s, p) % e[2]
        if k == 'forall':
            return all(self.ev(e[1], s, q) for q in range(self.N))
        if k == 'exists':
            return any(self.ev(e[1], s, q) for q in range(self.N))
        a, b = self.ev(e[1], s, p), self.ev(e[2], s, p)
        return {'==': a == b, '!=': a != b, '<': a < b, '&&': a and b, '||': a or b}[k]

    def bindings(self, a):
        return list(range(self.N)) if a['param'] else [None]

    def apply(self, a, p, s):
        """The successor of s by action a with parameter p, or None."""
        if not self.ev(a['guard'], s, p):
            return None
        t = list(s)
        for tgt, val in a['body']:  # sequential: each reads the state so far
            t[self.slot(tgt, p)] = self.ev(val, tuple(t), p)
        return tuple(t)

    def successors(self, s):
        out = []
        for a in self.actions:
            for p in self.bindings(a):
                t = self.apply(a, p, s)
                if t is not None:
                    out.append(((a['name'], p), t))
        return out

    def instances(self):
        """(name, form, P(s), Q(s)) per instance, in the checker's order."""
        out = []
        for pr in self.props:
            for p in (range(self.N) if pr['binder'] else [None]):
                name = pr['name'] if p is None else '%s(p=%s)' % (pr['name'], self.pname(p))
                out.append((name, pr['form'],
                            lambda s, e=pr['P'], q=p: self.ev(e, s, q),
                            lambda s, e=pr['Q'], q=p: self.ev(e, s, q)))
        return out

    def pname(self, p):
        return 'P_%d' % (p + 1) if self.sym else str(p)

    def constraints(self):
        """[(strong, set of (action, binding))] as liveness.c expands them."""
        cons = []
        by_name = {a['name']: a for a in self.actions}
        for kind, names in self.fair:
            strong = kind == 'strong'
            if len(names) == 1 and by_name[names[0]]['param']:
                for p in range(self.N):
                    cons.append((strong, {(names[0], p)}))
            else:
                rules = set()
                for n in names:
                    for p in self.bindings(by_name[n]):
                        rules.add((n, p))
                cons.append((strong, rules))
        return cons


# ---- the oracle

def graph(spec):
    init = spec.initial()
    index = {init: 0}
    states, edges = [init], []
    i = 0
    while i < len(states):
        out = []
        for rule, t in spec.successors(states[i]):
            if t not in index:
                index[t] = len(states)
                states.append(t)
            out.append((rule, index[t]))
        edges.append(out)
        i += 1
    return states, edges


def sccs(nodes, edges):
    """Kosaraju over the subgraph of `nodes` (a set): a list of lists."""
    order, seen = [], set()
    for root in sorted(nodes):
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter([w for _, w in edges[root] if w in nodes]))]
        while stack:
            v, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                order.append(v)
            elif nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, iter([w for _, w in edges[nxt] if w in nodes])))
    rev = {v: [] for v in nodes}
    for v in nodes:
        for _, w in edges[v]:
            if w in nodes:
                rev[w].append(v)
    comps, done = [], set()
    for root in reversed(order):
        if root in done:
            continue
        comp, todo = [], [root]
        done.add(root)
        while todo:
            v = todo.pop()
            comp.append(v)
            for u in rev[v]:
                if u not in done:
                    done.add(u)
                    todo.append(u)
        comps.append(comp)
    return comps


def fair_sets(nodes, edges, cons):
    """The fair components inside `nodes` (each a list), refined for strong
    fairness recursively."""
    found = []
    for comp in sccs(nodes, edges):
        cs = set(comp)
        if len(comp) == 1:
            v = comp[0]
            if edges[v] and all(w != v for _, w in edges[v]):
                continue  # one state, no self-loop, has successors: no cycle
        enabled = [set(r for r, _ in edges[v]) for v in comp]
        taken = set(r for v in comp for r, w in edges[v] if w in cs)
        unfair, cut = False, []
        for strong, rules in cons:
            if taken & rules:
                continue
            if not strong:
                if all(en & rules for en in enabled):
                    unfair = True
            elif any(en & rules for en in enabled):
                cut.append(rules)
        if unfair:
            continue
        if cut:
            rest = set(v for v, en in zip(comp, enabled) if not any(en & rules for rules in cut))
            found += fair_sets(rest, edges, cons)
        else:
            found.append(comp)
    return found


def reach(sources, allowed, edges):
    seen = set(s for s in sources if s in allowed)
    todo = list(seen)
    while todo:
        v = todo.pop()
        for _, w in edges[v]:
            if w in allowed and w not in seen:
                seen.add(w)
                todo.append(w)
    return seen


def decide(spec):
    """[(instance name, violated)] in the checker's order, and the graph."""
    states, edges = graph(spec)
    cons = spec.constraints()
    out = []
    everything = set(range(len(states)))
    for name, form, P, Q in spec.instances():
        p = [P(s) for s in states]
        if form == 'always':
            bad = not all(p)
        elif form == 'eventually_always':
            bad = any(any(not p[v] for v in c) for c in fair_sets(everything, edges, cons))
        elif form == 'always_eventually':
            bad = bool(fair_sets(set(v for v in everything if not p[v]), edges, cons))
        else:
            if form == 'eventually':
                allowed = set(v for v in everything if not p[v])
                sources = [0]
            else:
                q = [Q(s) for s in states]
                allowed = set(v for v in everything if not q[v])
                sources = [v for v in everything if p[v] and not q[v]]
            bad = bool(fair_sets(reach(sources, allowed, edges), edges, cons))
        out.append((name, bad))
    return out, states


def check_lasso(spec, name, trace, loop_start, stutter):
    """Why the reported lasso is not a fair behaviour violating instance
    `name` (None: it is one). trace: [(action, binding or None, state
    tuple)], the first an initial state."""
    inst = [i for i in spec.instances() if i[0] == name]
    if not inst:
        return 'no instance %s' % name
    _, form, P, Q = inst[0]
    states = [t[2] for t in trace]
    if states[0] != spec.initial():
        return 'the trace does not start at the initial state'
    by_name = {a['name']: a for a in spec.actions}
    for i in range(1, len(trace)):
        a, p, s = trace[i]
        if spec.apply(by_name[a], p, states[i - 1]) != s:
            return 'step %d (%s) is not a transition' % (i, a)
    if form == 'always':
        return None if not P(states[-1]) else '[] P: the last state satisfies P'
    if loop_start is None or loop_start < 0 or loop_start >= len(states):
        return 'no loop'
    cyc_states = states[loop_start:]
    if stutter:
        if spec.successors(states[-1]):
            return 'stutter at a state with successors'
        cyc_states = [states[-1]]
        cyc_rules = set()
    else:
        if len(states) - 1 <= loop_start or states[-1] != states[loop_start]:
            return 'the cycle does not close at loop_start'
        cyc_states = states[loop_start:-1]
        cyc_rules = set((trace[i][0], trace[i][1]) for i in range(loop_start + 1, len(trace)))
    enabled = [set(r for r, _ in spec.successors(s)) for s in cyc_states]
    for strong, rules in spec.constraints():
        if cyc_rules & rules:
            continue
        if not strong and not all(en & rules for en in enabled):
            continue
        if strong and not any(en & rules for en in enabled):
            continue
        return 'the cycle is unfair to %s' % sorted(rules, key=str)
    if form == 'eventually':
        return None if not any(P(s) for s in states) else '<> P: P holds on the lasso'
    if form == 'always_eventually':
        return None if not any(P(s) for s in cyc_states) else '[]<> P: P holds on the cycle'
    if form == 'eventually_always':
        return None if any(not P(s) for s in cyc_states) else '<>[] P: P holds on the cycle'
    # P ~> Q: some position with P && !Q, and !Q from there on, cycle included.
    for i, s in enumerate(states):
        if P(s) and not Q(s):
            rest = states[i:] + cyc_states
            if not any(Q(t) for t in rest):
                return None
    return 'P ~> Q: no position where P holds and Q never does after'


if __name__ == '__main__':
    sys.stdout.write(Spec(int(sys.argv[1]), '--sym' in sys.argv[2:]).text())
