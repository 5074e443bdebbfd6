#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every checker option with every other, against the serial run.

Usage: tests/matrix/run.py [BUILD_DIR]    (default: build, from the repo root)

Each check prints `PASS name` or `FAIL name: why`; the last line is exactly
`N passed, N failed`, and the exit status is non-zero on a failure.

1. The option matrix. For each spec of specs/, tests/e2e/specs, tests/dve,
   tests/por/specs/shortest*.mc, four BEEM instances and two MCC nets (when ../shared/suites is there; a
   NOTE when not), the answer-changing options are taken in every
   combination: deadlocks checked or not, --symmetry on or off (specs with
   a scalarset), --max-states 1|7|100, --max-depth 3, --por off|on and
   the default (auto), --liveness on|off (specs with properties). Each combination runs once
   serially (--threads 1), the reference, then under a sample of the engine
   options (--threads 1|2|4, --order fixed|free, --disk, --compact-set,
   --fingerprint 128, --report), the same sample for a spec at every run.
   What must hold, from docs/DESIGN.md:
   - the exit code is 0 to 3, and agrees with the summary's `result:` line
     and the report's `verdict` and `exit_code`; the report parses, is
     valid against docs/schema/report.schema.json (tests/schema/validate.py),
     its counts are the summary's; a violation other than a reachable has a
     trace no longer than the depth (a failing step ends one step further);
   - a refusal (exit 2) says `error:`, and the reference refuses too;
   - fixed order gives the reference's exit code, counts, violation and
     trace, step for step; free order its exit code, violation and trace
     length, and its counts when the search ran to its end or stopped at
     --max-depth (at a --max-states stop only the states: the transitions
     depend on the race; inside a violation's level either order may stop
     first, exit 1 or 3);
   - a --max-states N stop has exactly N states;
   - --por on: the verdict of the exhaustive run without it, and no more
     states when nothing is violated;
   - the default (--por auto) is, run for run, the serial --por on where
     its report says the reduction was on, the serial --por off where off
     (with the reason): the same exit code, counts and trace length, and
     the report's por_mode says which mode was asked for; except the
     trace where the reduction had a hand in it (the report's
     shortest_trace): when the default's second search of the full graph
     gave it ("shortest"), it is --por off's violation and trace, step for
     step, and --por on's says it may not be the shortest; when that
     search stopped ("may-not-be-shortest", at a bound), it is --por on's;
   - with a scalarset, symmetry on and off agree on the verdict.
2. Exports. Specs that violate each kind of property (an invariant, a
   deadlock, an assert, a run-time error, no initial state, a reachable,
   liveness with a cycle and with a stutter) and one without violation, run
   as their header says (RUN-ARGS), with every combination of --graph,
   --dot and --tests, each absent, written, past its cap (--graph 1 state,
   --tests 1 step, --dot 6 states) or on a full disk (/dev/full), --tests also covering accepting
   states, and --report to a file or /dev/full. Whatever the exports do,
   the exit code is the header's EXPECT-EXIT and the `result:` line and the
   report's verdict and exit_code say the same; each export asked for is in
   the report's `exports`, in the order graph, tests, dot, written exactly
   when its file is there (never on /dev/full; past its cap only when the
   graph, the paths or, for --dot, the violation's path alone fit in it;
   not at all only after a run-time error of the spec in the graph), the
   path alone drawn only by --dot, and one not written has its warning on
   stderr and its `export:` line in the summary; a report on /dev/full is
   a warning.
3. Signals. adding.2 (836,838 states; BEEM) runs --no-deadlock under a
   random engine (threads, order, --disk, --compact-set, --checkpoint every
   0.001 to 0.01 minutes) and gets SIGINT or SIGTERM at a random moment:
   exit 3 with a report that says `interrupted` and the signal, or, when
   the run ended first, the uninterrupted counts. A checkpointed run is
   resumed, under another random engine and perhaps interrupted again,
   until it ends: with exactly the uninterrupted counts.

Environment: MATRIX_SAMPLE (engine combinations per reference, default 3),
MATRIX_SIGNALS (interrupted runs, default 8), MATRIX_SEED (default 1).
"""
import itertools
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'tests', 'schema'))
import validate  # noqa: E402  (the reports' schema, python3-jsonschema)
BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, 'build'))
MCGEN = os.path.join(BUILD, 'mcgen')
SAMPLE = int(os.environ.get('MATRIX_SAMPLE', '3'))
SIGNALS = int(os.environ.get('MATRIX_SIGNALS', '8'))
SEED = int(os.environ.get('MATRIX_SEED', '1'))
WORK = tempfile.mkdtemp(prefix='mcgen-matrix.')
passed = failed = 0


def result(name, why):
    global passed, failed
    if why:
        failed += 1
        print('FAIL %s: %s' % (name, why), flush=True)
    else:
        passed += 1
        print('PASS %s' % name, flush=True)


def suites_dir():
    d = ROOT
    while d != '/':
        d = os.path.dirname(d)
        if os.path.isfile(os.path.join(d, 'shared/suites/beem/beem_expected.csv')):
            return os.path.join(d, 'shared/suites')
    return None


class Run:
    """One checker run: exit code, summary figures, report."""

    def __init__(self, exe, opts, timeout=120):
        self.cmd = [exe, '--progress', '0'] + opts
        report = opts[opts.index('--report') + 1] if '--report' in opts else None
        if report and os.path.isfile(report):  # (never a device: --report /dev/full)
            os.unlink(report)
        try:
            # (in WORK: a violation's trail goes to the current directory)
            p = subprocess.run(self.cmd, capture_output=True, timeout=timeout, cwd=WORK)
            self.rc = p.returncode
            self.out = p.stdout.decode('utf-8', 'replace')
            self.err = p.stderr.decode('utf-8', 'replace')
        except subprocess.TimeoutExpired:
            self.rc, self.out, self.err = 'timeout', '', ''
        def figure(key):
            m = re.search(r'^%s:\s+(\d+)' % key, self.out, re.M)
            return int(m.group(1)) if m else None
        self.states, self.transitions, self.depth = (figure(k) for k in
                                                     ('states', 'transitions', 'depth'))
        m = re.search(r'^result: (\w+)', self.out, re.M)
        self.result = m.group(1) if m else None
        m = re.search(r'^violation: (.*)$', self.out, re.M)
        self.violation = m.group(1) if m else None
        self.report, self.report_error, self.schema_problems = None, None, []
        if report:
            try:
                with open(report, encoding='utf-8') as f:
                    self.report = json.load(f)
                self.schema_problems = validate.errors(report, '')
            except (OSError, ValueError) as e:
                self.report_error = str(e)

    def line(self):
        return ' '.join(os.path.basename(a) if a.startswith(WORK) else a for a in self.cmd)

    def trace(self):
        v = (self.report or {}).get('violations') or []
        return v[0].get('trace') if v else None


def sane(r):
    """What every run must satisfy on its own; None or why not."""
    if r.rc not in (0, 1, 2, 3):
        return 'exit %s: %s' % (r.rc, r.err.strip()[-200:])
    if r.rc == 2:
        return None if 'error' in r.err else 'exit 2 without an error message'
    want = {0: 'ok', 1: 'violation', 3: 'incomplete'}[r.rc]
    if r.result != want:
        return 'exit %d but result: %s' % (r.rc, r.result)
    if '--report' not in r.cmd:
        return None
    j = r.report
    if j is None:
        return 'the report does not parse: %s' % r.report_error
    if r.schema_problems is None or r.schema_problems:
        return 'the report is not valid against docs/schema/report.schema.json: %s' % (
            r.schema_problems[0] if r.schema_problems else 'it names no mcgen schema')
    if j.get('exit_code') != r.rc or j.get('verdict') != want:
        return 'report says %s/%s, exit %d' % (j.get('verdict'), j.get('exit_code'), r.rc)
    for k in ('states', 'transitions', 'depth'):
        if j.get(k) != getattr(r, k):
            return 'report %s %s, summary %s' % (k, j.get(k), getattr(r, k))
    v = j.get('violations') or []
    if r.rc == 1 and not v:
        return 'exit 1 and no violation in the report'
    if v and v[0].get('kind') not in ('reachable', 'no-initial-state', 'liveness'):
        tr = v[0].get('trace') or []
        if not tr:
            return 'a %s without a trace' % v[0].get('kind')
        steps = len(tr) - 1 - (tr[-1].get('state') is None)
        if steps > j['depth']:
            return 'a trace of %d steps, depth %d' % (steps, j['depth'])
    return None


def compare(ref, r, free, max_states):
    """r against the serial reference of the same answer options."""
    if ref.rc == 2 or r.rc == 2:
        return None if ref.rc == r.rc else 'exit %s, serially %s' % (r.rc, ref.rc)
    if r.rc != ref.rc:
        if free and max_states and {r.rc, ref.rc} == {1, 3}:
            return None  # the stop and the violation share a level
        return 'exit %s, serially %s' % (r.rc, ref.rc)
    # The default's shortest trace: in free order its second search may
    # stop at --max-states where the serial one did not (or the reverse),
    # showing the reduced trace instead of the full graph's.
    fell_back = [re.search(r'^trace:\s+MAY NOT BE', x.out, re.M) is not None for x in (ref, r)]
    if free and max_states and fell_back[0] != fell_back[1]:
        return None
    if r.violation != ref.violation:
        return 'violation %r, serially %r' % (r.violation, ref.violation)
    keys = ('states', 'transitions', 'depth')
    if free and r.rc == 1:
        keys = ()
    elif free and max_states:
        keys = ('states',)
    for k in keys:
        if getattr(r, k) != getattr(ref, k):
            return '%s %s, serially %s' % (k, getattr(r, k), getattr(ref, k))
    a, b = ref.trace(), r.trace()
    if a is not None and b is not None:
        if not free and a != b:
            return 'another trace than the serial one'
        if len(a) != len(b) and ref.report['violations'][0]['kind'] != 'liveness':
            return 'a trace of %d steps, serially %d' % (len(b), len(a))
    return None


def default_por(auto, on, off):
    """The default run against the serial --por on and --por off runs of the
    same answer options; None or why not."""
    j = auto.report
    if auto.rc == 2 or not j:  # refused (then so are the explicit modes)
        return None if off is None or off.rc == 2 else 'refused, exit %d with --por off' % off.rc
    if j.get('por_mode') != 'auto' or j.get('por') not in ('on', 'off'):
        return 'the report says por %s, por_mode %s' % (j.get('por'), j.get('por_mode'))
    if j['por'] == 'off' and not j.get('por_off_reason'):
        return 'the reduction is off by default, the report gives no por_off_reason'
    if j['por'] == 'off' and not re.search(r'^por:\s+off \(.+\)$', auto.out, re.M):
        return 'the reduction is off by default, the summary does not say why'
    same = on if j['por'] == 'on' else off
    if same is None or same.rc == 2:
        return 'por %s by default, but --por %s is refused' % (j['por'], j['por'])
    if (same.report or {}).get('por_mode') != j['por']:
        return '--por %s: the report says por_mode %s' % (j['por'], (same.report or {}).get('por_mode'))
    got = (auto.rc, auto.states, auto.transitions, auto.depth)
    want = (same.rc, same.states, same.transitions, same.depth)
    if got != want:
        return '(exit, states, transitions, depth) %s, --por %s gives %s' % (got, j['por'], want)
    st = j.get('shortest_trace')
    if st is None:
        if len(auto.trace() or []) != len(same.trace() or []):
            return 'a trace of %d steps, --por %s gives %d' % (
                len(auto.trace() or []), j['por'], len(same.trace() or []))
        return None
    # The reduction had a hand in the trace: --por on says its own may not
    # be the shortest, the default shows --por off's or, stopped, --por on's.
    ost = (same.report or {}).get('shortest_trace') or {}
    if ost.get('full_search') != 'not-run':
        return '--por on: shortest_trace %s' % ost
    if st.get('status') == 'shortest':
        if off is None or off.rc != 1 or auto.violation != off.violation or auto.trace() != off.trace():
            return 'the "shortest" trace is not --por off\'s (%s, %s)' % (
                auto.violation, off and off.violation)
        if not re.search(r'^trace:\s+the shortest, depth \d+: ', auto.out, re.M):
            return 'no trace: line for the shortest trace'
    elif st.get('status') == 'may-not-be-shortest' and st.get('full_bound_hit'):
        if auto.violation != same.violation or auto.trace() != same.trace():
            return 'the fallback trace is not --por on\'s'
        if not re.search(r'^trace:\s+MAY NOT BE THE SHORTEST: ', auto.out, re.M):
            return 'no warning that the trace may not be the shortest'
    else:
        return 'shortest_trace %s' % st
    return None


def engines(tag):
    out = []
    for th, order, disk, compact, fp, report in itertools.product(
            ('1', '2', '4'), ('fixed', 'free'), (0, 1), (0, 1), (0, 1), (0, 1)):
        if th == '1' and order == 'free':
            continue
        o = ['--threads', th] + (['--order', order] if th != '1' else [])
        o += ['--disk', os.path.join(WORK, tag + '.disk')] if disk else []
        o += ['--compact-set'] if compact else []
        o += ['--fingerprint', '128'] if fp else []
        o += ['--report', os.path.join(WORK, tag + '.v.json')] if report else []
        out.append((o, order == 'free' and th != '1'))
    return out


def matrix(spec):
    if spec.startswith(ROOT + '/'):
        name = os.path.relpath(spec, ROOT)
    else:  # a suite's model: BEEM's instance, or the MCC net's folder
        name = os.path.basename(spec if not spec.endswith('/model.pnml') else os.path.dirname(spec))
    tag = re.sub(r'[^A-Za-z0-9]', '_', name)
    exe = os.path.join(WORK, tag)
    p = subprocess.run([MCGEN, '-o', exe, spec], capture_output=True)
    if p.returncode:
        return result('matrix ' + name,
                      'mcgen exit %d: %s' % (p.returncode, p.stderr.decode()[-200:]))
    for probe in ([], ['--symmetry', 'off']):
        try:
            subprocess.run([exe, '--progress', '0', '--liveness', 'off', '--threads', '1'] + probe,
                           capture_output=True, timeout=10, cwd=WORK)
        except subprocess.TimeoutExpired:
            print('NOTE matrix %s: over 10 s, not run' % name)
            return
    base = Run(exe, ['--threads', '1', '--report', os.path.join(WORK, tag + '.json')])
    if base.rc == 2:
        return result('matrix ' + name, 'the default run is refused: ' + base.err.strip()[-200:])
    scalarset = re.search(r'^symmetry:\s+on', base.out, re.M) is not None
    live = bool(base.report and base.report['liveness'].get('properties'))
    answers = itertools.product(
        [['--symmetry', 'off'], []] if scalarset else [[]],
        [[], ['--no-deadlock']],
        [[]] + [['--max-states', n] for n in ('1', '7', '100')],
        [[], ['--max-depth', '3']],
        [['--por', 'off'], ['--por', 'on'], []],
        [[], ['--liveness', 'off']] if live else [[]])
    rnd = random.Random('%s/%d' % (name, SEED))
    menu = engines(tag)
    problems, exhaustive, modes, runs = [], {}, {}, 1
    for sym, dead, ms, md, por, lv in answers:
        ans = sym + dead + ms + md + por + lv
        ref = Run(exe, ['--threads', '1'] + ans + ['--report', os.path.join(WORK, tag + '.r.json')])
        runs += 1
        why = sane(ref)
        if why:
            problems.append('%s: %s' % (ref.line(), why))
            continue
        modes[(tuple(sym + dead + ms + md + lv), por[1] if por else 'auto')] = ref
        if ms and ref.rc == 3 and ref.report['bound_hit'] == 'max-states' and \
                ref.states != int(ms[1]):
            problems.append('%s: stopped at %s states' % (ref.line(), ref.states))
        if not ms and not md:
            exhaustive[tuple(sym + dead + por + lv)] = ref
        for eng, free in rnd.sample(menu, min(SAMPLE, len(menu))):
            r = Run(exe, eng + ans)
            runs += 1
            why = sane(r) or compare(ref, r, free, bool(ms))
            if why:
                problems.append('%s: %s' % (r.line(), why))
    for key, on in exhaustive.items():
        if 'on' not in key or on.rc == 2:
            continue
        off = exhaustive.get(tuple('off' if k == 'on' and key[i - 1] == '--por' else k
                                   for i, k in enumerate(key)))
        if off is None or off.rc == 2:
            continue
        if on.rc != off.rc:
            problems.append('%s: exit %d, %d without --por' % (on.line(), on.rc, off.rc))
        elif on.rc == 0 and on.states > off.states:
            problems.append('%s: %d states, %d without --por' % (on.line(), on.states, off.states))
    for (key, mode), auto in modes.items():
        if mode != 'auto':
            continue
        why = default_por(auto, modes.get((key, 'on')), modes.get((key, 'off')))
        if why:
            problems.append('%s: %s' % (auto.line(), why))
    if scalarset:
        for key, r in exhaustive.items():
            other = exhaustive.get(key[2:]) if key[:2] == ('--symmetry', 'off') else None
            if other and 2 not in (r.rc, other.rc) and r.rc != other.rc:
                problems.append('%s: exit %d, %d with symmetry' % (r.line(), r.rc, other.rc))
    more = ' (and %d more)' % (len(problems) - 3) if len(problems) > 3 else ''
    result('matrix %s (%d runs)' % (name, runs), '; '.join(problems[:3]) + more)


EXPORT_SPECS = ['specs/lost_update.mc', 'specs/philosophers.mc', 'specs/stop_and_wait.mc',
                'tests/e2e/specs/runtime_error.mc', 'tests/e2e/specs/no_initial_state.mc',
                'tests/e2e/specs/vacuous.mc', 'tests/e2e/specs/live_leadsto.mc',
                'tests/e2e/specs/live_stutter.mc', 'specs/two_phase.mc']
# Each export's modes: its options (PATH: its file). Past its cap, --dot
# still draws a violation's path of up to 6 states alone.
EXPORT_MODES = {
    'graph': {'none': [], 'ok': ['--graph', 'PATH'],
              'over': ['--graph', 'PATH', '--graph-max-states', '1'],
              'full': ['--graph', '/dev/full']},
    'tests': {'none': [], 'ok': ['--tests', 'PATH'],
              'accepting': ['--tests', 'PATH', '--tests-cover', 'accepting'],
              'over': ['--tests', 'PATH', '--tests-max-steps', '1'],
              'full': ['--tests', '/dev/full']},
    'dot': {'none': [], 'ok': ['--dot', 'PATH', '--dot-max-states', '100000'],
            'over': ['--dot', 'PATH', '--dot-max-states', '6'],
            'full': ['--dot', '/dev/full']},
}


def header(spec, key):
    with open(spec, encoding='utf-8') as f:
        return [m.group(1).strip() for m in re.finditer(r'^// %s:(.*)$' % key, f.read(), re.M)]


def export_written_ok(kind, mode, e, path, r):
    """Whether export e (the report's entry) is consistent with its mode and
    its file; None or why not."""
    if path == '/dev/full' and e['written']:
        return '%s on /dev/full: written' % kind
    exists = os.path.isfile(path)
    if path != '/dev/full' and e['written'] != exists:
        return '%s %s: written %s, the file %s' % (kind, mode, e['written'],
                                                   'is there' if exists else 'is not')
    if not e['written']:
        if not re.search(r'^warning: --%s %s not written: ' % (kind, re.escape(path)), r.err, re.M):
            return '%s %s: not written, no warning' % (kind, mode)
        if not re.search(r'^export: +--%s %s: NOT WRITTEN: ' % (kind, re.escape(path)), r.out, re.M):
            return '%s %s: not written, no export: line' % (kind, mode)
        if mode in ('ok', 'accepting') and 'fails at run time' not in e['error']:
            return '%s %s: not written: %s' % (kind, mode, e['error'])
        return None
    if mode == 'over':
        with open(path, encoding='utf-8') as f:
            text = f.read()
        if kind == 'dot':
            size = len(re.findall(r'^  s\d+ \[label=', text, re.M))
        elif kind == 'graph':
            size = json.loads(text)['nstates']
        else:
            size = sum(len(p['steps']) for p in json.loads(text)['paths'])
        cap = int(EXPORT_MODES[kind]['over'][-1])
        if size > cap:
            return '%s past its cap of %d written with %d' % (kind, cap, size)
    if e['trace_only'] != (e['error'] is not None) or (e['trace_only'] and kind != 'dot'):
        return '%s %s: written, trace_only %s, error %s' % (kind, mode, e['trace_only'], e['error'])
    return None


def exports_matrix(rel):
    spec = os.path.join(ROOT, rel)
    tag = 'x_' + re.sub(r'[^A-Za-z0-9]', '_', rel)
    exe = os.path.join(WORK, tag)
    p = subprocess.run([MCGEN, '-o', exe, spec], capture_output=True)
    if p.returncode:
        return result('exports ' + rel, 'mcgen exit %d: %s' % (p.returncode, p.stderr.decode()[-200:]))
    want = int(header(spec, 'EXPECT-EXIT')[0])
    args = ' '.join(header(spec, 'RUN-ARGS')).split()
    problems, runs = [], 0
    files = {k: os.path.join(WORK, '%s.%s' % (tag, k)) for k in EXPORT_MODES}
    report = os.path.join(WORK, tag + '.json')
    for modes in itertools.product(*(EXPORT_MODES[k] for k in EXPORT_MODES), ('file', 'full')):
        opts = list(args)
        for kind, mode in zip(EXPORT_MODES, modes):
            if os.path.exists(files[kind]):
                os.unlink(files[kind])
            opts += [files[kind] if a == 'PATH' else a for a in EXPORT_MODES[kind][mode]]
        opts += ['--report', report] if modes[-1] == 'file' else ['--report=/dev/full']
        r = Run(exe, opts)
        runs += 1
        why = sane(r)
        if not why and r.rc != want:
            why = 'exit %s, its header says %d' % (r.rc, want)
        if not why and modes[-1] == 'full' and \
                not re.search(r'^warning: the report /dev/full could not be written', r.err, re.M):
            why = 'a report on /dev/full, no warning'
        asked = [(k, m) for k, m in zip(EXPORT_MODES, modes) if m != 'none']
        if not why and r.report is not None:
            got = [(e.get('kind'), e.get('path')) for e in r.report.get('exports', [])]
            paths = [(k, '/dev/full' if m == 'full' else files[k]) for k, m in asked]
            if got != paths:
                why = 'the report\'s exports are %s, not %s' % (got, paths)
            for (kind, mode), e in zip(asked, r.report.get('exports', [])):
                why = why or export_written_ok(kind, mode, e, paths[asked.index((kind, mode))][1], r)
        if why:
            problems.append('%s: %s' % (r.line(), why))
    more = ' (and %d more)' % (len(problems) - 3) if len(problems) > 3 else ''
    result('exports %s (%d runs, exit %d)' % (rel, runs, want), '; '.join(problems[:3]) + more)


def interrupt(exe, opts, sig, delay):
    """Starts a run, sends sig after delay seconds; (exit code, report)."""
    report = os.path.join(WORK, 'sig.json')
    if os.path.exists(report):
        os.unlink(report)
    cmd = [exe, '--progress', '0', '--no-deadlock'] + opts + ['--report', report]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=WORK)
    if sig:
        time.sleep(delay)
        if p.poll() is None:
            p.send_signal(sig)
    try:
        _, err = p.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        return 'hang', None, ' '.join(cmd)
    try:
        with open(report, encoding='utf-8') as f:
            j = json.load(f)
    except (OSError, ValueError):
        j = None
    shown = ' '.join(cmd[4:]).replace(WORK + '/', '')  # after --progress 0 --no-deadlock
    return p.returncode, j, shown + ' ' + err.decode()[-200:]


def signals(suites):
    if not suites:
        print('NOTE: no BEEM suite (../shared/suites/beem): the signal checks NOT run')
        return
    exe = os.path.join(WORK, 'adding2')
    p = subprocess.run([MCGEN, '-o', exe, os.path.join(suites, 'beem/dve/adding.2.dve')],
                       capture_output=True)
    if p.returncode:
        return result('signals', 'mcgen failed on adding.2.dve')
    rc, ref, _ = interrupt(exe, ['--threads', '1'], None, 0)
    if rc != 0 or not ref or ref['states'] != 836838:  # BEEM's count
        return result('signals', 'the uninterrupted run: exit %s, %s' % (rc, ref and ref['states']))
    want = (ref['states'], ref['transitions'])
    rnd = random.Random(SEED)
    ck = os.path.join(WORK, 'ck')

    def engine():
        o = ['--threads', rnd.choice(['1', '2', '4'])]
        o += ['--order', rnd.choice(['fixed', 'free'])] if o[1] != '1' else []
        o += ['--disk', os.path.join(WORK, 'sig.disk')] if rnd.random() < 0.4 else []
        return o
    for i in range(SIGNALS):
        shutil.rmtree(ck, ignore_errors=True)
        opts = engine()
        compact = ['--compact-set'] if rnd.random() < 0.3 else []
        checkpoint = rnd.random() < 0.6
        if checkpoint:
            opts += ['--checkpoint', ck, '--checkpoint-every', rnd.choice(['0.001', '0.01'])]
        sig = rnd.choice([signal.SIGINT, signal.SIGTERM])
        delay = rnd.uniform(0.05, max(0.1, ref['time_s'] * 1.2))
        rc, j, line = interrupt(exe, opts + compact, sig, delay)
        name = 'signal %d (%s after %.2f s: %s)' % (i, sig.name, delay, line.split(' --report')[0])
        why = None
        if rc == 3:
            if not j or j.get('bound_hit') != 'interrupted' or j.get('signal') != sig.name:
                why = 'exit 3, report %s' % (j and {k: j.get(k) for k in ('bound_hit', 'signal')})
        elif rc == 0:
            if not j or (j['states'], j['transitions']) != want:
                why = 'ended with %s, not %s' % (j and (j['states'], j['transitions']), want)
        else:
            why = 'exit %s: %s' % (rc, line[-200:])
        rounds = 0
        while not why and rc == 3 and checkpoint and os.path.exists(os.path.join(ck, 'checkpoint')):
            # Resumed under another engine, interrupted again now and then.
            rounds += 1
            again = rounds < 4 and rnd.random() < 0.5
            rc, j, line = interrupt(exe, engine() + compact + ['--resume', ck, '--checkpoint', ck],
                                    sig if again else None, rnd.uniform(0.05, ref['time_s']))
            if rc == 3 and again and j and j.get('bound_hit') == 'interrupted':
                continue
            if rc != 0 or not j or (j['states'], j['transitions']) != want:
                why = 'resumed (%d): exit %s, %s, not %s: %s' % (
                    rounds, rc, j and (j['states'], j['transitions']), want, line[-200:])
        resumed = {0: '', 1: ', resumed once'}.get(rounds, ', resumed %d times' % rounds)
        result(name + resumed, why)


def main():
    if not os.access(MCGEN, os.X_OK):
        print('FAIL setup: no %s (make all first)' % MCGEN)
        print('0 passed, 1 failed')
        return 1
    suites = suites_dir()
    specs = sorted(os.path.join(ROOT, 'specs', f) for f in os.listdir(os.path.join(ROOT, 'specs'))
                   if f.endswith('.mc'))
    for d, ext in (('tests/e2e/specs', '.mc'), ('tests/dve', '.dve')):
        specs += sorted(os.path.join(ROOT, d, f) for f in os.listdir(os.path.join(ROOT, d))
                        if f.endswith(ext))
    # Violations the default reduces and then finds again in the full graph
    # for the shortest trace (no spec above has one that reduces).
    specs += [os.path.join(ROOT, 'tests/por/specs', f) for f in ('shortest.mc', 'shortest_sym.mc')]
    if suites:
        specs += [os.path.join(suites, 'beem/dve/%s.dve' % b)
                  for b in ('anderson.2', 'gear.1', 'leader_filters.1', 'bakery.2')]
        specs += [os.path.join(suites, 'mcc/models/%s/model.pnml' % n)
                  for n in ('TokenRing-PT-005', 'NQueens-PT-05')]
    else:
        print('NOTE: no ../shared/suites: the BEEM and MCC models NOT run')
    for spec in specs:
        matrix(spec)
    for spec in EXPORT_SPECS:
        exports_matrix(spec)
    signals(suites)
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    try:
        sys.exit(main())
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
