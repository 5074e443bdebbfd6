#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Rumur's test suite through mcgen's Murphi front end (tests/murphi/run.sh).

Usage: tests/murphi/suite.py BUILD_DIR [FILE.m ...]

Every model of the suite's rumur-tests/ (or the files given) is compiled
with BUILD_DIR/mcgen (the generated C under -Werror) and its checker run; the outcome its `-- key: value`
directives state (the suite's README.md; Rumur's tests/tests.py) must come
out:

  rumur_exit_code: 1     mcgen must reject the model: exit 1, an error
                         naming FILE:LINE:COL
  checker_exit_code: 1   the checker must find an error (exit 1); without
                         it the model must verify (exit 0)
  checker_output: RE     a regular expression on Rumur's output: checked on
                         the checker's; as Rumur's wording is not mcgen's, a
                         miss is an XFAIL saying so, never a FAIL
  rumur_flags: [...]     Rumur's options: `--deadlock-detection off` is the
                         checker's --no-deadlock, `--bound N` its
                         --max-depth N; the others (SMT, value types,
                         packing, sandbox, threads, traces) change no
                         verdict and have no counterpart

Each model is checked with partial-order reduction off, on and by default
(auto): the verdicts must agree, and the reduced run may not have more
states.
Where the suite's recorded Rumur counts (rumur-counts.txt, written by
record.sh) have the model, the run with symmetry and reduction off must give
the same states and rules fired (the checker's transitions).

Outcomes: PASS; FAIL (a wrong verdict, a crash, a count that differs);
XFAIL, with the reason: a construct mcgen refuses by name ("not supported by
mcgen's Murphi front end"), a checker_output in Rumur's wording, or a file
listed in known.txt (NAME: reason) because mcgen cannot honour its
directives. A file listed in known.txt that passes is a FAIL (the list must
stay true). The closing lines list every XFAIL with its reason, then
`N passed, N failed`. Exit 1 on any FAIL.

Then the classic protocols of protocols/ (German is tests/oracle/german.m),
which must verify with Rumur's recorded counts; the models of models/, for
what Rumur does not read (multisets), with their hand counts
(`-- expect_states: N`, `-- expect_transitions: N`, explained in the file's
comment); and the Murphi twins of
tests/oracle/ against the Rumur output recorded beside each (NAME.rumur.txt,
its RUMUR-ARGS; NAME.symmetry.rumur.txt, Rumur's exhaustive symmetry
reduction, against the checker's own wherever it keeps symmetry on): the
verdict, and the states and rules fired of a run without error.

Without the suite (tools/suite-dir murphi finds none) it says so loudly and runs
only protocols/ and the twins: Rumur's tests are skipped, not passed.
"""

import ast
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
REFUSAL = "not supported by mcgen's Murphi front end"
TIMEOUT = 120


def directives(path):
    """The `-- key: value` lines at the top of a model."""
    out = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"^--\s*(\w+)\s*:\s*(.*)$", line)
            if m:
                out[m.group(1)] = m.group(2).strip()
    return out


def output_regex(expr):
    """The regular expression of a checker_output directive, as Rumur's
    test driver evaluates it outside XML mode, single-threaded; None when
    it checks nothing there."""
    if expr.startswith("None if"):
        m = re.match(r"None if [^e]*?else (.*)$", expr)
        if not m:
            return None
        expr = m.group(1)
    elif re.search(r"\bif xml else None$", expr):
        return None
    m = re.match(r"re\.compile\((r'(?:[^'\\]|\\.)*')(\s*,\s*re\.MULTILINE)?\)$", expr)
    if not m:
        return None
    return re.compile(ast.literal_eval(m.group(1)), re.MULTILINE if m.group(2) else 0)


def rumur_flags(expr):
    """Rumur's options as a list (the SMT helpers give none)."""
    if not expr.startswith("["):
        return []
    try:
        return ast.literal_eval(expr)
    except (ValueError, SyntaxError):
        return []


def checker_args(flags):
    """The checker's options for Rumur's, or a string saying which Rumur
    option has no counterpart."""
    args = []
    i = 0
    while i < len(flags):
        f = flags[i]
        value = flags[i + 1] if i + 1 < len(flags) else None
        if "=" in f:
            f, value = f.split("=", 1)
            i -= 1
        if f == "--deadlock-detection":
            if value == "off":
                args.append("--no-deadlock")
            i += 2
        elif f == "--bound":
            if not (value or "").isdigit():
                return "Rumur's --bound %s (a bad bound is Rumur's option error)" % value
            args += ["--max-depth", value]
            i += 2
        elif f in ("--max-errors", "--threads", "--value-type", "--pack-state", "--sandbox",
                   "--counterexample-trace", "--scalarset-schedules", "--symmetry-reduction"):
            i += 2
        else:
            i += 1
    return args


def known_reasons():
    out = {}
    path = os.path.join(HERE, "known.txt")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                m = re.match(r"^([\w.-]+\.m):\s*(.*)$", line)
                if m:
                    out[m.group(1)] = m.group(2)
    return out


def recorded_counts():
    """NAME -> (states, rules fired) of rumur-counts.txt."""
    out = {}
    path = os.path.join(HERE, "rumur-counts.txt")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                p = line.split()
                if len(p) >= 4 and not line.startswith("#") and p[1] == "0":
                    out[p[0]] = (int(p[2]), int(p[3]))
    return out


def run(cmd, **kw):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                              timeout=TIMEOUT, **kw)
    except subprocess.TimeoutExpired:
        return None


def report_num(text, key):
    m = re.search(r"^%s:\s+(\d+)" % key, text, re.MULTILINE)
    return int(m.group(1)) if m else None


def first_error(text):
    for line in text.splitlines():
        if "error" in line:
            return line
    return text.splitlines()[0] if text else "(no message)"


def has_assume(path):
    """Whether the model has a top-level assume (a line that starts with it)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        return any(re.match(r"assume\b", line, re.IGNORECASE) for line in f)


def compare_counts(exe, path, args, rumur, work):
    """Why the checker's states and transitions, symmetry and reduction off,
    are not Rumur's (None if they are). Rumur drops a state that breaks an
    assume without counting it, where mcgen keeps it as a constraint state
    (docs/murphi.md): there only the transitions must be equal, and mcgen's
    states at least Rumur's."""
    args = [a for a in args if a != "--no-deadlock"]
    r = run([exe, "--por", "off", "--symmetry", "off", "--no-deadlock", "--progress", "0"] + args,
            cwd=work)
    got = (report_num(r.stdout, "states"), report_num(r.stdout, "transitions")) if r else None
    if got == rumur:
        return None
    if got and has_assume(path) and got[1] == rumur[1] and got[0] >= rumur[0]:
        return None
    return "states and transitions %s, Rumur's %s (rumur-counts.txt)" % (got, rumur)


def rumur_answer(path):
    """(exit, states, rules fired) of a recorded Rumur run."""
    with open(path) as f:
        text = f.read()
    m = re.search(r"^\s*(\d+) states, (\d+) rules fired", text, re.MULTILINE)
    ok = "No error found" in text
    return (0 if ok else 1, int(m.group(1)), int(m.group(2))) if m else (0 if ok else 1, None, None)


def check_twin(mcgen, path, work):
    """A twin of tests/oracle/ against its recorded Rumur runs."""
    name = os.path.basename(path)[:-2]
    exe = os.path.join(work, name)
    c = run([mcgen, "--cflags", "-Werror", "-o", exe, path], cwd=work)
    if c is None or c.returncode != 0:
        return "FAIL", "rejected: " + (first_error(c.stderr) if c else "timed out")
    with open(path) as f:
        rargs = re.search(r"^-- RUMUR-ARGS:(.*)$", f.read(), re.MULTILINE).group(1)
    args = ["--no-deadlock"] if "--deadlock-detection off" in rargs else []
    for suffix, sym in (("rumur.txt", "off"), ("symmetry.rumur.txt", "on")):
        rec = os.path.join(os.path.dirname(path), "%s.%s" % (name, suffix))
        if not os.path.exists(rec):
            continue
        want, states, rules = rumur_answer(rec)
        r = run([exe, "--por", "off", "--symmetry", sym, "--progress", "0"] + args, cwd=work)
        if r is None:
            return "FAIL", "the checker did not finish (--symmetry %s)" % sym
        if sym == "on" and re.search(r"^symmetry:\s+off", r.stdout, re.MULTILINE):
            continue  # mcgen refused symmetry for this model: nothing to compare
        if r.returncode != want:
            return "FAIL", "--symmetry %s: exit %d, Rumur's %d (%s)" % (sym, r.returncode, want,
                                                                       os.path.basename(rec))
        got = (report_num(r.stdout, "states"), report_num(r.stdout, "transitions"))
        if want == 0 and got != (states, rules):
            return "FAIL", "--symmetry %s: states and transitions %s, Rumur's %s (%s)" % (
                sym, got, (states, rules), os.path.basename(rec))
    return "PASS", ""


def check_model(mcgen, path, work, counts):
    """(outcome, reason) of one model: PASS, FAIL or XFAIL. A model that
    Rumur's driver runs only with an SMT solver (its skip_reason), whose
    simplifications it needs to avoid a read of an undefined value, is an
    XFAIL where it fails."""
    outcome, why = check_directives(mcgen, path, work, counts)
    skip = directives(path).get("skip_reason", "")
    if outcome == "FAIL" and "SMT" in skip:
        return "XFAIL", "needs Rumur's SMT simplification, without which Rumur skips it (%s)" % why
    return outcome, why


def check_directives(mcgen, path, work, counts):
    name = os.path.basename(path)
    d = directives(path)
    exe = os.path.join(work, name[:-2])
    c = run([mcgen, "--cflags", "-Werror", "-o", exe, path], cwd=work)
    if c is None:
        return "FAIL", "mcgen did not finish in %d s" % TIMEOUT
    if "AddressSanitizer" in c.stderr or "runtime error:" in c.stderr:
        return "FAIL", "mcgen: sanitizer report"
    args = checker_args(rumur_flags(d.get("rumur_flags", "")))
    if isinstance(args, str):
        return "XFAIL", args
    if d.get("rumur_exit_code") == "1":
        if c.returncode == 1 and re.search(r"\.m:\d+:\d+: error: ", c.stderr):
            return "PASS", "rejected"
        if c.returncode == 0:
            return "FAIL", "accepted a model Rumur rejects"
        return "FAIL", "rejected without a FILE:LINE:COL error (exit %d)" % c.returncode
    if c.returncode != 0:
        if REFUSAL in c.stderr:
            return "XFAIL", first_error(c.stderr)
        return "FAIL", "rejected a model Rumur accepts: " + first_error(c.stderr)
    want = int(d.get("checker_exit_code", "0"))
    runs = {}
    for por in ("off", "on", "auto"):
        r = run([exe, "--por", por, "--progress", "0"] + args, cwd=work)
        if r is None:
            return "FAIL", "the checker did not finish in %d s (--por %s)" % (TIMEOUT, por)
        runs[por] = r
    off, on, auto = runs["off"], runs["on"], runs["auto"]
    if "--max-depth" in args and off.returncode == 3:
        off.returncode = 0  # Rumur's --bound: no error within the bound is a pass
    if "--max-depth" in args and on.returncode == 3:
        on.returncode = 0
    if off.returncode != want:
        line = next((l for l in off.stdout.splitlines() if l.startswith("result:")), "")
        return "FAIL", "checker exit %d, expected %d (%s)" % (off.returncode, want, line)
    if "--max-depth" in args and auto.returncode == 3:
        auto.returncode = 0
    for name_, r in (("on", on), ("auto", auto)):
        if r.returncode != off.returncode:
            return "FAIL", "--por %s exits %d, --por off %d" % (name_, r.returncode, off.returncode)
    s_on, s_off = report_num(on.stdout, "states"), report_num(off.stdout, "states")
    if s_on is not None and s_off is not None and s_on > s_off:
        return "FAIL", "--por on explores %d states, more than --por off's %d" % (s_on, s_off)
    key = name if os.path.basename(os.path.dirname(path)) != "protocols" else "protocols/" + name
    if key in counts and want == 0:
        why = compare_counts(exe, path, args, counts[key], work)
        if why:
            return "FAIL", why
    if "expect_states" in d:
        r = run([exe, "--por", "off", "--symmetry", "off", "--progress", "0"] + args, cwd=work)
        got = (report_num(r.stdout, "states"), report_num(r.stdout, "transitions")) if r else None
        want_counts = (int(d["expect_states"]), int(d.get("expect_transitions", "-1")))
        if got != want_counts:
            return "FAIL", "states and transitions %s, the hand count's %s" % (got, want_counts)
    regex = output_regex(d.get("checker_output", ""))
    if regex and not regex.search(off.stdout + off.stderr):
        return "XFAIL", "checker_output is Rumur's wording: %s" % regex.pattern
    return "PASS", ""


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build = os.path.abspath(sys.argv[1])
    mcgen = os.path.join(build, "mcgen")
    files = [os.path.abspath(f) for f in sys.argv[2:]]
    if not files:
        r = subprocess.run([os.path.join(ROOT, "tools", "suite-dir"), "murphi"], capture_output=True,
                           text=True)
        suite = r.stdout.strip()
        if r.returncode != 0 or not suite:
            print("################################################################")
            print("SKIP: RUMUR'S TEST SUITE NOT CHECKED: no Murphi suite found")
            print("      (looked for ../shared/suites/murphi/rumur-tests/ beside the")
            print("      repo root or a parent; or set MURPHI_DIR)")
            print("################################################################")
        else:
            tests = os.path.join(suite, "rumur-tests")
            files = sorted(os.path.join(tests, f) for f in os.listdir(tests) if f.endswith(".m"))
    known = known_reasons()
    counts = recorded_counts()
    results = []
    if not sys.argv[2:]:
        for sub in ("protocols", "models"):
            d = os.path.join(HERE, sub)
            files += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".m"))
        twins = os.path.join(ROOT, "tests", "oracle")
        files += sorted(os.path.join(twins, f) for f in os.listdir(twins) if f.endswith(".m"))
    with tempfile.TemporaryDirectory() as work:
        def one(path):
            sub = os.path.join(work, "%s-%s" % (os.path.basename(os.path.dirname(path)),
                                                os.path.basename(path)[:-2]))
            os.makedirs(sub, exist_ok=True)
            if os.path.dirname(path).endswith(os.path.join("tests", "oracle")):
                return path, check_twin(mcgen, path, sub)
            return path, check_model(mcgen, path, sub, counts)

        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            for path, (outcome, why) in pool.map(one, files):
                name = os.path.basename(path)
                folder = os.path.basename(os.path.dirname(path))
                if folder in ("protocols", "models", "oracle"):
                    name = folder + "/" + name
                if name in known:
                    if outcome == "PASS":
                        outcome, why = "FAIL", "passes, but known.txt lists it: " + known[name]
                    elif outcome == "FAIL":
                        outcome, why = "XFAIL", "%s (%s)" % (known[name], why)
                results.append((name, outcome, why))
                print("%s %s%s" % (outcome, name, ": " + why if why else ""), flush=True)
    xfails = [r for r in results if r[1] == "XFAIL"]
    if xfails:
        print("\nFiles mcgen cannot honour (%d):" % len(xfails))
        for name, _, why in xfails:
            print("  %s: %s" % (name, why))
    passed = sum(r[1] == "PASS" for r in results)
    failed = sum(r[1] == "FAIL" for r in results)
    print("\n%d xfail (listed above)" % len(xfails))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
