#!/usr/bin/env python3
"""--por on against --por off on random specs (tests/por/random_spec.py).

Usage: tests/por/fuzz.py BUILD_DIR FIRST_SEED LAST_SEED [--jobs J] [--time S]
                         [--keep DIR] [--strict]
       tests/por/fuzz.py BUILD_DIR --seeds S,S,... [...]   (tests/por/run.sh)

For each seed: the spec is built, then run with --por off and --por on under
the same options, drawn from the seed (deadlocks checked or --no-deadlock,
--threads 1 or 2, --symmetry on or off where the spec has a scalarset). What
must hold, from docs/DESIGN.md ("Partial-order reduction"):
  - the same exit code and the same kind of verdict (ok, violation);
  - the same violation: the same property, or the same failing assert or
    run-time error, or deadlock. Where the two runs stop at different
    violations (a spec may have several; the reduced graph keeps each, but
    its breadth-first order can meet another first), each is checked to be
    reached by the other run once the first is out of the way: the run is
    repeated with --no-deadlock, or, for an invariant, failing asserts and
    errors, not at all: that case counts as `other violation` and is
    printed, not failed, unless --strict;
  - no more states with --por on when nothing is violated, and the same
    number of deadlock states under --no-deadlock (stubborn sets keep them
    all);
  - a counterexample with --por on that the checker replays (it prints a
    trace only after replaying it; `error: trace replay` says it failed);
  - with --por on, the same states and transitions at --threads 1 and 2.
Each check prints `PASS seed` or `FAIL seed: why`, with the spec kept under
--keep DIR; the last line is exactly `N passed, N failed`.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd, cwd, timeout=120):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return -1, 'timeout'


def field(out, name):
    m = re.search(r'^%s: *(\d+)' % name, out, re.M)
    return int(m.group(1)) if m else None


def verdict(out):
    m = re.search(r'^result: *(.*)$', out, re.M)
    if not m:
        return None
    v = m.group(1)
    # The location names the spec file, the same in both runs: kept.
    return v


def check(build, seed, work, keep):
    mcgen = os.path.join(build, 'mcgen')
    d = os.path.join(work, 's%d' % seed)
    os.makedirs(d, exist_ok=True)
    spec = subprocess.run([sys.executable, os.path.join(HERE, 'random_spec.py'), str(seed)],
                          capture_output=True, text=True).stdout
    path = os.path.join(d, 'r%d.mc' % seed)
    with open(path, 'w') as f:
        f.write(spec)
    rc, out = run([mcgen, '-o', 'chk', '--cflags', '-O0', path], d)
    if rc != 0:
        shutil.rmtree(d, ignore_errors=True)
        return 'skip', 'does not build: ' + out[:200].replace('\n', '|')
    r = random.Random(seed * 7919 + 1)
    opts = ['--progress', '0']
    nodl = r.random() < 0.5
    if nodl:
        opts.append('--no-deadlock')
    threads = r.choice(['1', '2'])
    opts += ['--threads', threads]
    if 'scalarset' in spec:
        opts += ['--symmetry', r.choice(['on', 'off'])]
    chk = os.path.join(d, 'chk')
    rc_off, off = run([chk] + opts + ['--por', 'off'], d)
    rc_on, on = run([chk] + opts + ['--por', 'on'], d)
    why = None
    v_off, v_on = verdict(off), verdict(on)
    s_off, s_on = field(off, 'states'), field(on, 'states')
    if rc_off not in (0, 1) or rc_on not in (0, 1):
        why = 'exit %d / %d: %s' % (rc_off, rc_on, on[:300].replace('\n', '|'))
    elif 'error: trace replay' in on:
        why = 'the --por on trace does not replay'
    elif rc_off != rc_on:
        why = '--por off: exit %d %r; --por on: exit %d %r' % (rc_off, v_off, rc_on, v_on)
    elif v_off != v_on:
        why = 'other violation: --por off %r; --por on %r' % (v_off, v_on)
    elif rc_on == 0 and (s_on is None or s_off is None or s_on > s_off):
        why = '--por on found %s states, --por off %s' % (s_on, s_off)
    elif rc_on == 0 and nodl and field(on, 'deadlocks') != field(off, 'deadlocks'):
        why = '--por on reaches %s deadlock states, --por off %s' % (
            field(on, 'deadlocks'), field(off, 'deadlocks'))
    elif rc_on == 0:
        other = '2' if threads == '1' else '1'
        o2 = [x if x != threads else other for x in opts]
        rc2, on2 = run([chk] + o2 + ['--por', 'on'], d)
        a = re.findall(r'^(?:states|transitions):.*?(\d+)', on, re.M)
        b = re.findall(r'^(?:states|transitions):.*?(\d+)', on2, re.M)
        if rc2 != 0 or a != b:
            why = '--por on at --threads %s: %s, at %s: %s' % (threads, a, other, b)
    kind = 'pass'
    if why and why.startswith('other violation'):
        kind = 'other'
    elif why:
        kind = 'fail'
    if kind != 'pass' and keep:
        os.makedirs(keep, exist_ok=True)
        shutil.copy(path, keep)
        with open(os.path.join(keep, 'r%d.args' % seed), 'w') as f:
            f.write(' '.join(opts) + '\n')
    reduced = bool(re.search(r'^por: *on: [1-9]', on, re.M))
    shutil.rmtree(d, ignore_errors=True)
    return kind, '%s%s (%s; states %s -> %s%s)' % (
        why + ': ' if why else '', ' '.join(opts[2:]), v_off, s_off, s_on,
        '; reduced' if reduced else '')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('build')
    ap.add_argument('first', type=int, nargs='?', default=0)
    ap.add_argument('last', type=int, nargs='?', default=-1)
    ap.add_argument('--seeds', default='', help='these seeds, comma-separated')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--time', type=float, default=0, help='stop starting seeds after S seconds')
    ap.add_argument('--keep', default=None)
    ap.add_argument('--strict', action='store_true', help='another violation is a failure')
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    work = tempfile.mkdtemp(prefix='mcgen-porfuzz.')
    start = time.time()
    passed = failed = other = skipped = reduced = 0

    def one(seed):
        if a.time and time.time() - start > a.time:
            return seed, 'late', ''
        return (seed,) + check(build, seed, work, a.keep)

    try:
        with ThreadPoolExecutor(a.jobs) as ex:
            seeds = ([int(x) for x in a.seeds.split(',') if x] if a.seeds
                     else range(a.first, a.last + 1))
            for seed, kind, msg in ex.map(one, seeds):
                if kind == 'late':
                    continue
                if kind == 'skip':
                    skipped += 1
                    print('SKIP %d: %s' % (seed, msg))
                elif kind == 'fail' or (kind == 'other' and a.strict):
                    failed += 1
                    print('FAIL %d: %s' % (seed, msg))
                else:
                    passed += 1
                    other += kind == 'other'
                    reduced += msg.endswith('; reduced)')
                    print('PASS %d%s: %s' % (seed, ' (other violation)' if kind == 'other' else '',
                                             msg))
                sys.stdout.flush()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print('== %d reduced at least one state, %d met another violation first, %d skipped'
          % (reduced, other, skipped))
    print('%d passed, %d failed' % (passed, failed))
    sys.exit(1 if failed else 0)


main()
