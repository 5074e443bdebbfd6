#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Random liveness specs (tests/liveness/random_live.py) against the
module's own fair-cycle oracle, at every liveness engine and reduction
setting.

Usage: tests/liveness/fuzz.py BUILD_DIR --seeds S,A-B,... [--jobs J]
                              [--settings NAME=ARGS;...] [--sym] [--keep DIR]

For each seed the spec is written and built once (mcgen -O0), then its
checker is run under each setting (default: the serial oracle engine, the
parallel engine at --threads 1, 2 and 4; with --sym the spec's processes
are a scalarset, which the checker does not reduce while it checks
liveness: `--symmetry on` is refused with a property), always with
--no-deadlock (a state without successors is a behaviour that repeats it,
not an error) and --report. What must hold:
  - the verdict of random_live.decide: exit 0 when every instance holds,
    else exit 1 naming the first violated instance in the spec's order
    (the checker checks the instances in that order and reports the first
    that fails);
  - the lasso is a fair behaviour that violates that instance, replayed
    through random_live's own successor function (check_lasso);
  - every setting gives the same trace length and loop start.
Each seed prints `PASS seed` or `FAIL seed: why` (the spec kept under
--keep DIR, default /tmp/mcgen-livefuzz-failed); the last line is exactly
`N passed, N failed`.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import random_live  # noqa: E402

DEFAULT = ('serial=--liveness-engine serial --threads 1;'
           't1=--threads 1;t2=--threads 2;t4=--threads 4')


def seeds(text):
    out = []
    for part in text.split(','):
        if '-' in part:
            a, b = part.split('-')
            out += range(int(a), int(b) + 1)
        elif part:
            out.append(int(part))
    return out


def settings(text):
    out = []
    for item in text.split(';'):
        if item.strip():
            name, args = item.split('=', 1)
            out.append((name.strip(), args.split()))
    return out


def state_tuple(spec, d):
    s = [d[n] for n, _ in spec.counters]
    if spec.has_procs:
        s += list(d['c']) + list(d['f'])
    return tuple(s)


def binding(v):
    if v is None:
        return None
    if isinstance(v, str):  # a scalarset element: P_1 is 0
        return int(v.rsplit('_', 1)[1]) - 1
    return v


def lasso(spec, viol):
    trace = []
    for step in viol['trace']:
        params = step.get('params') or {}
        trace.append((step['action'], binding(params.get('p')), state_tuple(spec, step['state'])))
    return trace


def run(cmd, cwd, timeout=300):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return -1, 'timeout'


def check_seed(build, seed, sets, sym, keep):
    spec = random_live.Spec(seed, sym)
    verdicts, _ = random_live.decide(spec)
    bad = [name for name, v in verdicts if v]
    want = bad[0] if bad else None
    d = tempfile.mkdtemp(prefix='livefuzz%d.' % seed)
    why = None
    try:
        src = os.path.join(d, 'r.mc')
        with open(src, 'w') as f:
            f.write(spec.text())
        code, out = run([os.path.join(build, 'mcgen'), '--cflags', '-O0', '-o', 'chk', 'r.mc'], d)
        if code != 0:
            why = 'mcgen failed: ' + out.strip().splitlines()[-1] if out.strip() else 'mcgen failed'
        shapes = {}
        for name, args in (sets if why is None else []):
            rep = os.path.join(d, name + '.json')
            code, out = run(['./chk', '--no-deadlock', '--report', rep] + args, d)
            expect = 1 if want else 0
            if code != expect:
                why = '%s: exit %d, the oracle says %s' % (name, code, want or 'all hold')
                break
            if not want:
                continue
            with open(rep) as f:
                report = json.load(f)
            viol = report['violations'][0]
            if viol['name'] != want:
                why = '%s: %s reported, the oracle says %s first' % (name, viol['name'], want)
                break
            ls = viol.get('loop_start')
            err = random_live.check_lasso(spec, want, lasso(spec, viol), ls,
                                          bool(viol.get('stutter')))
            if err:
                why = '%s: lasso: %s' % (name, err)
                break
            shapes[name] = (len(viol['trace']), ls)
        if why is None and len(set(shapes.values())) > 1:
            why = 'lasso shapes differ (steps, loop start): %s' % shapes
    finally:
        if why and keep:
            os.makedirs(keep, exist_ok=True)
            shutil.copy(os.path.join(d, 'r.mc'), os.path.join(keep, 'r%d.mc' % seed))
        shutil.rmtree(d, ignore_errors=True)
    return seed, why


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('build')
    ap.add_argument('--seeds', required=True)
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--settings')
    ap.add_argument('--sym', action='store_true')
    ap.add_argument('--keep', default='/tmp/mcgen-livefuzz-failed')
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    sets = settings(a.settings or DEFAULT)
    passed = failed = 0
    with ThreadPoolExecutor(a.jobs) as ex:
        for seed, why in ex.map(lambda s: check_seed(build, s, sets, a.sym, a.keep), seeds(a.seeds)):
            if why:
                failed += 1
                print('FAIL %d: %s' % (seed, why), flush=True)
            else:
                passed += 1
                print('PASS %d' % seed, flush=True)
    print('%d passed, %d failed' % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
