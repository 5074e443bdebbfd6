#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""--por on and the default (--por auto) against --por off on random specs
(tests/por/random_spec.py).

Usage: tests/por/fuzz.py BUILD_DIR FIRST_SEED LAST_SEED [--jobs J] [--time S]
                         [--keep DIR] [--strict]
       tests/por/fuzz.py BUILD_DIR --seeds S,A-B,... [...]   (tests/por/run.sh)

For each seed: the spec is built (with -D N or K one larger, now and then),
then run with --por off, --por on and without --por under the same
options, drawn from the seed (deadlocks checked or --no-deadlock,
--threads 1 or 2, --symmetry on or off where the spec has a scalarset, and
now and then --max-states or --max-depth). What must hold, from
docs/DESIGN.md ("Partial-order reduction"):
  - the same exit code and the same kind of verdict (ok, violation);
  - the same violation: the same property, or the same failing assert or
    run-time error, or deadlock. Where the two runs stop at different
    violations (a spec may have several; the reduced graph keeps each, but
    its breadth-first order can meet another first), the case counts as
    `other violation` and is printed, not failed, unless --strict; where
    one of them is a deadlock, both run again with --no-deadlock and must
    agree (or differ only so);
  - no more states with --por on when nothing is violated, and the same
    number of deadlock states under --no-deadlock (stubborn sets keep them
    all);
  - a counterexample with --por on that the checker replays (it prints a
    trace only after replaying it; `error: trace replay` says it failed);
  - with --por on, the same states and transitions at --threads 1 and 2;
  - the default: --por off's verdict, and exactly --por on's run where its
    summary says `por: on` (where it also says the reduction retired at a
    depth, only no more states than --por off: it expanded fully from
    there, --por on did not), --por off's where it says why it is off;
  - under --max-depth: the default is off (`por: off (--max-depth bounds
    the search)`) with --por off's verdict and counts (--por on is not
    compared: a reduced state at the bound may hide a violation);
  - under --max-states: an exhaustive "ok" of one run and a violation of
    the other never meet, and --por off exhaustive within the bound means
    --por on is too.
Each check prints `PASS seed` or `FAIL seed: why`, with the spec kept under
--keep DIR (and its mcgen -D and checker options in rSEED.args); the last
line is exactly `N passed, N failed`.
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


def counts(out):
    return re.findall(r'^(?:states|transitions):.*?(\d+)', out, re.M)


def por_line(out):
    m = re.search(r'^por: *(.*)$', out, re.M)
    return m.group(1) if m else None


def compare(off, on, rc_off, rc_on, what):
    """--por off against another run of the same options: the reason they
    differ, or None; 'other violation: ...' when both found a violation but
    not the same one."""
    v_off, v_on = verdict(off), verdict(on)
    if rc_off not in (0, 1, 3) or rc_on not in (0, 1, 3):
        return 'exit %d / %d (%s): %s' % (rc_off, rc_on, what, on[:300].replace('\n', '|'))
    if 'error: trace replay' in on:
        return 'the %s trace does not replay' % what
    if rc_off != rc_on:
        return '--por off: exit %d %r; %s: exit %d %r' % (rc_off, v_off, what, rc_on, v_on)
    if v_off != v_on:
        return 'other violation: --por off %r; %s %r' % (v_off, what, v_on)
    return None


def check(build, seed, work, keep):
    mcgen = os.path.join(build, 'mcgen')
    d = os.path.join(work, 's%d' % seed)
    os.makedirs(d, exist_ok=True)
    spec = subprocess.run([sys.executable, os.path.join(HERE, 'random_spec.py'), str(seed)],
                          capture_output=True, text=True).stdout
    path = os.path.join(d, 'r%d.mc' % seed)
    with open(path, 'w') as f:
        f.write(spec)
    if 'extern "porfz.h"' in spec:  # its C, beside it
        for name in ('porfz.h', 'porfz.c'):
            shutil.copy(os.path.join(HERE, 'specs', name), d)
    r = random.Random(seed * 7919 + 1)
    # -D: a larger N or K than the spec's (its constants are written for
    # the smaller ones, so a larger one stays in range).
    defs = []
    if r.random() < 0.15:
        c = r.choice(['N', 'K'])
        v = int(re.search(r'^const %s = (\d+);' % c, spec, re.M).group(1))
        defs = ['-D', '%s=%d' % (c, v + 1)]
    rc, out = run([mcgen, '-o', 'chk', '--cflags', '-O0'] + defs + [path], d)
    if rc != 0:
        shutil.rmtree(d, ignore_errors=True)
        return 'skip', 'does not build: ' + out[:200].replace('\n', '|')
    opts = ['--progress', '0']
    nodl = r.random() < 0.5
    if nodl:
        opts.append('--no-deadlock')
    threads = r.choice(['1', '2'])
    opts += ['--threads', threads]
    if 'scalarset' in spec:
        opts += ['--symmetry', r.choice(['on', 'off'])]
    bound = r.random()
    if bound < 0.1:
        opts += ['--max-states', str(r.randint(5, 60))]
    elif bound < 0.2:
        opts += ['--max-depth', str(r.randint(1, 8))]
    depth_bound = '--max-depth' in opts
    chk = os.path.join(d, 'chk')
    rc_off, off = run([chk] + opts + ['--por', 'off'], d)
    rc_on, on = run([chk] + opts + ['--por', 'on'], d)
    rc_def, dflt = run([chk] + opts, d)
    why = None
    v_off, v_on = verdict(off), verdict(on)
    s_off, s_on = field(off, 'states'), field(on, 'states')
    bounded = rc_off == 3 or rc_on == 3
    if depth_bound:
        # --por on is not compared: a reduced state at the bound may hide
        # what the full search meets there. The default must be --por off.
        if not re.search(r'^por: *off \(--max-depth bounds the search\)$', dflt, re.M):
            why = 'the default under --max-depth: %r' % por_line(dflt)
        elif rc_def != rc_off or verdict(dflt) != v_off or counts(dflt) != counts(off):
            why = 'the default under --max-depth: exit %d %r %s; --por off: exit %d %r %s' % (
                rc_def, verdict(dflt), counts(dflt), rc_off, v_off, counts(off))
    elif bounded:
        # --max-states: each run is a part of its graph. What must hold: an
        # exhaustive "ok" of one and a violation of the other do not meet.
        if (rc_off == 0 and rc_on == 1) or (rc_off == 1 and rc_on == 0):
            why = '--max-states: --por off exit %d %r; --por on exit %d %r' % (
                rc_off, v_off, rc_on, v_on)
        elif rc_off == 0 and rc_on != 0:
            why = '--por off is exhaustive within the bound (%s states), --por on exit %d' % (
                s_off, rc_on)
        elif rc_on == 1 and rc_off == 1 and v_on != v_off:
            why = 'other violation: --por off %r; --por on %r' % (v_off, v_on)
        elif 'error: trace replay' in on:
            why = 'the --por on trace does not replay'
    else:
        why = compare(off, on, rc_off, rc_on, '--por on')
        if why and why.startswith('other violation') and not nodl and (
                'deadlock' in (v_off or '') or 'deadlock' in (v_on or '')):
            # One run met a deadlock first: without deadlocks, the rest of
            # the graph must give the same answer.
            o2 = opts + ['--no-deadlock']
            rc_off2, off2 = run([chk] + o2 + ['--por', 'off'], d)
            rc_on2, on2 = run([chk] + o2 + ['--por', 'on'], d)
            w2 = compare(off2, on2, rc_off2, rc_on2, '--por on --no-deadlock')
            if w2 and not w2.startswith('other violation'):
                why = w2
    if why is None and not depth_bound and not bounded:
        if rc_on == 0 and (s_on is None or s_off is None or s_on > s_off):
            why = '--por on found %s states, --por off %s' % (s_on, s_off)
        elif rc_on == 0 and nodl and field(on, 'deadlocks') != field(off, 'deadlocks'):
            why = '--por on reaches %s deadlock states, --por off %s' % (
                field(on, 'deadlocks'), field(off, 'deadlocks'))
    if why is None and not depth_bound:
        # The default (--por auto): --por on's run where it reduces, --por
        # off's where it says why not; either way --por off's verdict.
        p = por_line(dflt)
        same = on if p and p.startswith('on') else off
        # A default that retired the reduction expanded fully from that
        # depth on, where --por on went on reducing: --por off's verdict,
        # and no more states than --por off, are what it must give.
        retired = bool(p and re.search(r'; retired at depth \d+', p))
        w = compare(off, dflt, rc_off, rc_def, 'the default') if not bounded else None
        if w and not w.startswith('other violation'):
            why = w
        elif retired:
            s_def = field(dflt, 'states')
            if rc_def == 0 and (s_def is None or s_off is None or s_def > s_off):
                why = 'the default (retired) found %s states, --por off %s' % (s_def, s_off)
            elif w:
                why = w
        elif rc_def != (rc_on if same is on else rc_off) or verdict(dflt) != verdict(same) or \
                counts(dflt) != counts(same):
            why = 'the default (por: %s): exit %d %r %s; --por %s: %s' % (
                p, rc_def, verdict(dflt), counts(dflt), 'on' if same is on else 'off',
                counts(same))
        elif w:
            why = w
    if why is None and rc_on == 0 and not depth_bound:
        other = '2' if threads == '1' else '1'
        o2 = [x if x != threads else other for x in opts]
        rc2, on2 = run([chk] + o2 + ['--por', 'on'], d)
        if rc2 != 0 or counts(on) != counts(on2):
            why = '--por on at --threads %s: %s, at %s: %s' % (threads, counts(on), other,
                                                              counts(on2))
    kind = 'pass'
    if why and why.startswith('other violation'):
        kind = 'other'
    elif why:
        kind = 'fail'
    if kind != 'pass' and keep:
        os.makedirs(keep, exist_ok=True)
        shutil.copy(path, keep)
        if 'extern "porfz.h"' in spec:
            for name in ('porfz.h', 'porfz.c'):
                shutil.copy(os.path.join(HERE, 'specs', name), keep)
        with open(os.path.join(keep, 'r%d.args' % seed), 'w') as f:
            f.write(' '.join(defs + ['--'] + opts) + '\n')
    reduced = bool(re.search(r'^por: *on: [1-9]', on, re.M))
    shutil.rmtree(d, ignore_errors=True)
    return kind, '%s%s (%s; states %s -> %s%s)' % (
        why + ': ' if why else '', ' '.join(defs + opts[2:]), v_off, s_off, s_on,
        '; reduced' if reduced else '')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('build')
    ap.add_argument('first', type=int, nargs='?', default=0)
    ap.add_argument('last', type=int, nargs='?', default=-1)
    ap.add_argument('--seeds', default='', help='these seeds, comma-separated, or ranges A-B')
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
            seeds = range(a.first, a.last + 1)
            if a.seeds:  # 12,40-90
                seeds = [n for x in a.seeds.split(',') if x
                         for n in (range(int(x.split('-')[0]), int(x.split('-')[1]) + 1)
                                   if '-' in x else [int(x)])]
            for seed, kind, msg in ex.map(one, seeds):
                if kind == 'late':
                    continue
                if kind == 'skip':
                    # Every seed's spec is meant to build: one that does
                    # not is a generator's or mcgen's bug, and a run whose
                    # specs all fail to build (no runtime beside mcgen)
                    # must not pass with nothing checked.
                    skipped += 1
                    failed += 1
                    print('FAIL %d: %s' % (seed, msg))
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
    print('== %d reduced at least one state, %d met another violation first, %d did not build'
          % (reduced, other, skipped))
    print('%d passed, %d failed' % (passed, failed))
    sys.exit(1 if failed else 0)


main()
