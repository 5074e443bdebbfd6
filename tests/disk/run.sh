#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# --disk, --checkpoint and --resume (docs/DESIGN.md, "Disk and checkpoints").
#
# Usage: tests/disk/run.sh [BUILD_DIR]   (default: build, from the repo root)
#
#   1. --disk gives the same output (verdict, counts, trace; times and memory
#      aside) as the run in RAM, for every spec of specs/ and tests/e2e/specs/
#      at --threads 1 and 2 (--order fixed: --disk runs in fixed order, and
#      the traces are compared), with blocks shrunk to 4 KiB (the test hook
#      MCRT_TEST_DISK_BLOCK) so that tiny models spill the log and cycle the
#      frontier through its file; and for BEEM models at the real block size
#      and at 4 KiB, their state counts checked against the BEEM suite's
#      (beem_expected.csv), one with a deadlock trace read back from disk.
#   2. A full disk (the test hook MCRT_TEST_DISK_LIMIT, and a real 1 MiB
#      tmpfs where mount works: as root; skipped loudly otherwise), a missing
#      DIR and a DIR that is a file: exit 3, "incomplete", the file and the
#      reason in the summary and in the report.
#   3. The crash test: a checkpointing run of adding.4 (3370680 states) is
#      killed with SIGKILL at random moments (at least 20 kills; runs
#      alternate --threads 1/2 and with/without --disk), resumed each time;
#      every run that ends gives exactly the uninterrupted run's counts and
#      verdict. SIGTERM writes a final checkpoint and exits 3; the resumed run
#      ends with the same counts.
#      The same kills and a SIGTERM with --compact-set (the compact set's
#      table has its own save and load).
#   4. A truncated, a bit-flipped and a cut-short checkpoint are refused
#      (exit 2, the file named), with either layout of the fingerprint set;
#      so are a checkpoint of another model and one resumed with options
#      that change the answer (each option named), one resumed in the other
#      layout (both named), one of the compact layout's earlier version
#      (both named), one of format 1 (both formats named), and
#      --checkpoint with liveness.
#   5. A checkpoint is bound to the build of the model that wrote it
#      (tests/disk/specs/, whose headers give the hand counts): resumed by
#      the checker rebuilt after each change (a -D constant, --cflags, the
#      spec's text, the -o name; the extern header, source and a file only
#      the source includes, each edited so that a fresh run finds a
#      violation the checkpoint holds already), or under each option that
#      changes the answer, it is refused naming the change; one of format 2
#      naming both formats. Rebuilt from the same inputs, or resumed with
#      other threads, --disk, --memory and output options, it gives the
#      hand-counted, uninterrupted counts.
# Each check prints `PASS name` or `FAIL name: why`; the last line is
# `N passed, N failed`. About three to five minutes on two loaded cores.
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
use_build_dir "${1:-}"
beem=$("$root/tools/suite-dir" beem) || beem=
unset MCGEN_RUNTIME CC MCRT_TEST_PAUSE MCRT_TEST_DISK_BLOCK MCRT_TEST_DISK_LIMIT

make_work disk
mounted=
cleanup() {
  [ -n "$mounted" ] && umount "$mounted" 2>/dev/null
  chmod -R u+w "$work" 2>/dev/null
  remove_work
}
trap cleanup EXIT

need_mcgen
need jq

excerpt_bytes=400

# What must not differ between two runs: stdout without times, memory and
# the lines --disk and --checkpoint add.
# The por: line too: at a stop its expansion counts may be higher with
# threads, which expand a whole window before its commit meets the stop
# (docs/DESIGN.md, "Sampling"); the states, transitions and trace are not.
normalize() {
  grep -vE '^(time|memory|bytes/state|disk|checkpoints|resumed|por): ' "$1" |
    sed -E 's/\([0-9.]+ s\)//g'
}

# build NAME SPEC [MCGEN-ARGS...]
build() {
  local name=$1 spec=$2
  shift 2
  (cd "$work" && timeout 120 "$mcgen" -o "$name" "$@" "$spec" >"build-$name.log" 2>&1)
}

# sigterm_paused DIR COMMAND...: COMMAND run in DIR and stopped by SIGTERM
# while its search is paused after its first expansion (the runtime's test
# hook, as in tests/cli/signals.sh: a fixed sleep would race with short
# runs); its output in DIR/term.out, its exit status returned.
sigterm_paused() {
  local dir=$1 pid
  shift
  rm -f "$dir/term.out" # (an earlier run's pause line would stop this one early)
  (cd "$dir" && MCRT_TEST_PAUSE=search exec "$@" >term.out 2>&1) &
  pid=$!
  for _ in $(seq 600); do
    grep -q '^mcrt-test-pause: search' "$dir/term.out" 2>/dev/null && break
    sleep 0.05
  done
  kill -TERM $pid
  wait $pid
}

# ---------------------------------------------------------------------------
# 1. --disk gives the same answers.

for spec in "$root"/specs/*.mc "$root"/tests/e2e/specs/*.mc; do
  name=$(basename "$spec" .mc)
  # shellcheck disable=SC2046
  if ! build "$name" "$spec" $(first_directive "$spec" MCGEN-ARGS); then
    grep -q "^// EXPECT-MCGEN" "$spec" || fail "disk-same-$name" "mcgen failed: $(excerpt "$work/build-$name.log")"
    continue
  fi
  read -r -a args <<<"$(first_directive "$spec" RUN-ARGS)"
  bad=
  for t in 1 2; do
    (cd "$work" && timeout 120 ./"$name" --por off --threads $t --order fixed "${args[@]}" >ram.out \
      2>ram.err)
    rc_ram=$?
    mkdir -p "$work/d"
    (cd "$work" && MCRT_TEST_DISK_BLOCK=4096 timeout 120 ./"$name" --por off --threads $t --order fixed \
      --disk d "${args[@]}" >disk.out 2>disk.err)
    rc_disk=$?
    if [ $rc_ram != $rc_disk ]; then
      bad="--threads $t: exit $rc_disk with --disk, $rc_ram without"
    elif ! diff <(normalize "$work/ram.out") <(normalize "$work/disk.out") >"$work/diff"; then
      bad="--threads $t: the outputs differ: $(excerpt "$work/diff")"
    elif ! grep -q '^disk: ' "$work/disk.out" && grep -q '^states: ' "$work/disk.out"; then
      bad="--threads $t: no disk line in the summary"
    elif [ -n "$(ls -A "$work/d")" ]; then
      bad="--threads $t: files left in DIR: $(ls "$work/d")"
    fi
    [ -n "$bad" ] && break
  done
  [ -z "$bad" ] && pass "disk-same-$name" || fail "disk-same-$name" "$bad"
done

# BEEM models: counts from the suite's own table; with and without --disk,
# at the real block size (4 MiB) and at 4 KiB, serial and threaded.
# name,model,instance,"parameters",states,...
beem_states() { sed -n "s/^$1,[^\"]*\"[^\"]*\",\([0-9]*\),.*/\1/p" "$beem/beem_expected.csv"; }
if [ -z "$beem" ] || [ ! -d "$beem/dve" ]; then
  skip beem "no BEEM suite found (tools/suite-dir beem; BEEM_DIR) (NOT TESTED HERE)"
else
  for m in adding.2 bakery.3 lamport.3; do
    want=$(beem_states "$m")
    if ! build "$m" "$beem/dve/$m.dve"; then
      fail "disk-beem-$m" "mcgen failed: $(excerpt "$work/build-$m.log")"
      continue
    fi
    bad=
    for run in "1 0" "2 0" "1 4096" "2 4096"; do
      set -- $run
      (cd "$work" && MCRT_TEST_DISK_BLOCK=$2 ./"$m" --por off --threads "$1" --no-deadlock --disk d \
        --report disk.json >disk.out 2>&1)
      rc=$?
      got=$(jq .states "$work/disk.json" 2>/dev/null)
      if [ $rc != 0 ] || [ "$got" != "$want" ]; then
        bad="--threads $1, block $2: exit $rc, $got states, BEEM says $want"
        break
      fi
      jq -e '.disk_bytes >= 0 and .ram_bytes_per_state > 0 and .disk_dir == "d"' \
        "$work/disk.json" >/dev/null || { bad="the report lacks the disk fields"; break; }
    done
    [ -z "$bad" ] && pass "disk-beem-$m ($want states)" || fail "disk-beem-$m" "$bad"
  done
  # adding.2 with deadlocks checked: a violation deep in the graph, its
  # trace rebuilt from the log on disk, the same as from the log in RAM.
  (cd "$work" && ./adding.2 --threads 1 >ram.out 2>&1)
  rc_ram=$?
  (cd "$work" && MCRT_TEST_DISK_BLOCK=4096 ./adding.2 --threads 2 --order fixed --disk d \
    >disk.out 2>&1)
  rc_disk=$?
  if [ $rc_ram = 1 ] && [ $rc_disk = 1 ] && grep -q '^deadlock\|deadlock' "$work/disk.out" &&
    diff <(normalize "$work/ram.out") <(normalize "$work/disk.out") >/dev/null; then
    pass "disk-trace-from-disk (adding.2's deadlock)"
  else
    fail disk-trace-from-disk "exit $rc_disk (RAM: $rc_ram): $(excerpt "$work/disk.out")"
  fi
fi

# ---------------------------------------------------------------------------
# 2. The disk full, DIR missing or not a directory: an orderly incomplete.

build counter "$root/tests/cli/specs/counter.mc" || fail build-counter "$(excerpt "$work/build-counter.log")"
have_adding2=false
[ -x "$work/adding.2" ] && have_adding2=true

# incomplete NAME REASON-REGEX DIR [ENV...]
incomplete() {
  local name=$1 reason=$2 dir=$3
  shift 3
  (cd "$work" && env "$@" ./adding.2 --no-deadlock --disk "$dir" --report inc.json >inc.out 2>inc.err)
  local rc=$?
  if [ $rc != 3 ]; then
    fail "$name" "exit $rc, expected 3: $(excerpt "$work/inc.out") $(excerpt "$work/inc.err")"
  elif ! grep -qE "^result: incomplete.*--disk: cannot .*$reason" "$work/inc.out"; then
    fail "$name" "the result line does not give the reason: $(excerpt "$work/inc.out")"
  elif ! jq -e --arg r "$reason" '.bound_hit == "disk" and .verdict == "incomplete" and
          (.disk_error.reason | test($r)) and .states >= 0' "$work/inc.json" >/dev/null; then
    fail "$name" "the report: $(head -c 300 "$work/inc.json")"
  else
    pass "$name"
  fi
}

if $have_adding2; then
  mkdir -p "$work/full"
  incomplete disk-full-hook 'No space left on device' full MCRT_TEST_DISK_LIMIT=200000 \
    MCRT_TEST_DISK_BLOCK=4096
  incomplete disk-dir-missing 'No such file or directory' "$work/no/such/dir"
  # DIR itself missing (its parent there): created, as --checkpoint's is.
  rm -rf "$work/newdir"
  (cd "$work" && ./adding.2 --no-deadlock --disk newdir --report new.json >new.out 2>new.err)
  rc=$?
  if [ $rc = 0 ] && [ -d "$work/newdir" ] && jq -e '.verdict == "ok" and .disk_dir == "newdir"' \
    "$work/new.json" >/dev/null; then
    pass disk-dir-created
  else
    fail disk-dir-created "exit $rc: $(excerpt "$work/new.out") $(excerpt "$work/new.err")"
  fi
  : >"$work/afile"
  incomplete disk-dir-is-a-file 'Not a directory' "$work/afile"
  # A real full file system: a 1 MiB tmpfs (root only).
  mkdir -p "$work/tmpfs"
  if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=1m tmpfs "$work/tmpfs" 2>/dev/null; then
    mounted=$work/tmpfs
    incomplete disk-full-tmpfs 'No space left on device' "$work/tmpfs" MCRT_TEST_DISK_BLOCK=65536
    umount "$work/tmpfs" && mounted=
  else
    skip disk-full-tmpfs "cannot mount a 1 MiB tmpfs here (not root, or mount refused); the full disk is tested through MCRT_TEST_DISK_LIMIT only (NOT TESTED HERE)"
  fi
fi

# ---------------------------------------------------------------------------
# 3. The crash test.

m=adding.4
want=$([ -n "$beem" ] && beem_states $m)
if [ -z "$beem" ]; then
  skip crash "no BEEM suite found: the crash test needs adding.4 (NOT TESTED HERE)"
elif ! build $m "$beem/dve/$m.dve"; then
  fail crash-build "mcgen $m failed"
else
  # --por off: BEEM's count, and the checkpointed runs' graph (the default
  # goes without the reduction under --checkpoint and --resume).
  (cd "$work" && ./$m --no-deadlock --por off --report ref.json >ref.out 2>&1)
  ref=$(jq -c '[.verdict, .states, .transitions, .depth, .deadlocks, .actions]' "$work/ref.json")
  [ "$(jq .states "$work/ref.json")" = "$want" ] && pass "crash-reference ($want states, as BEEM)" ||
    fail crash-reference "$(jq .states "$work/ref.json") states, BEEM says $want"
  # crash_kill NAME [CHECKER-ARGS...]: at least 20 SIGKILLs within 150 s.
  crash_kill() {
    local name=$1 kills=0 finished=0 runs=0 torn=0 bad= start=$SECONDS rc got
    shift
    rm -rf "$work/ck" "$work/cd"
    mkdir -p "$work/cd"
    while [ $kills -lt 20 ] && [ $((SECONDS - start)) -lt 150 ]; do
      args=(--no-deadlock --checkpoint ck --checkpoint-every 0.004 --threads $((runs % 2 + 1)) "$@")
      [ $((runs % 3)) = 2 ] && args+=(--disk cd)
      [ -f "$work/ck/checkpoint" ] && args+=(--resume ck)
      (cd "$work" && exec ./$m "${args[@]}" --report run.json >run.out 2>run.err) &
      pid=$!
      runs=$((runs + 1))
      sleep "0.$((RANDOM % 9 + 1))$((RANDOM % 10))"
      if kill -KILL $pid 2>/dev/null; then
        wait $pid 2>/dev/null
        kills=$((kills + 1))
        [ -f "$work/ck/checkpoint.tmp" ] && torn=$((torn + 1)) # killed while writing one
        continue
      fi
      wait $pid
      rc=$?
      got=$(jq -c '[.verdict, .states, .transitions, .depth, .deadlocks, .actions]' "$work/run.json" 2>/dev/null)
      if [ $rc != 0 ] || [ "$got" != "$ref" ]; then
        bad="run $runs (after $kills kills) ended with exit $rc: $got, not $ref: $(excerpt "$work/run.err")"
        break
      fi
      finished=$((finished + 1))
      rm -rf "$work/ck" # a fresh search for the next kills
    done
    # The last one runs to its end.
    if [ -z "$bad" ]; then
      args=(--no-deadlock --checkpoint ck --threads 2 "$@")
      [ -f "$work/ck/checkpoint" ] && args+=(--resume ck)
      (cd "$work" && ./$m "${args[@]}" --report run.json >run.out 2>run.err)
      rc=$?
      got=$(jq -c '[.verdict, .states, .transitions, .depth, .deadlocks, .actions]' "$work/run.json" 2>/dev/null)
      [ $rc = 0 ] && [ "$got" = "$ref" ] || bad="the last run: exit $rc: $got, not $ref: $(excerpt "$work/run.err")"
      finished=$((finished + 1))
    fi
    if [ -n "$bad" ]; then
      fail "$name" "$bad"
    elif [ $kills -lt 20 ]; then
      fail "$name" "only $kills kills in 150 s"
    else
      pass "$name ($kills SIGKILLs over $runs runs, $torn left a half-written checkpoint.tmp behind; $finished ran to the end with exactly the uninterrupted counts)"
    fi
  }
  crash_kill crash-kill
  # The compact set's table is saved and loaded by its own code: the same
  # kills, the same reference (the word layout's counts).
  crash_kill crash-kill-compact-set --compact-set

  # SIGTERM: a final checkpoint, exit 3; the resumed run ends as it should
  # (serial, then threaded: the threads finish their window first), the
  # signal sent while the search is paused (the whole run takes 1.3 s on a
  # quiet machine). The last case, with --compact-set, leaves its checkpoint in ckc (for 4.).
  for t in 1 2 2c; do
    ckd=ck cset=()
    [ $t = 2c ] && ckd=ckc cset=(--compact-set) t=2
    rm -rf "$work/$ckd"
    sigterm_paused "$work" ./$m --no-deadlock --checkpoint $ckd --threads $t "${cset[@]}" \
      --report term.json
    rc=$?
    (cd "$work" && ./$m --no-deadlock --resume $ckd --threads 2 "${cset[@]}" --report run.json >run.out 2>&1)
    rc2=$?
    got=$(jq -c '[.verdict, .states, .transitions, .depth, .deadlocks, .actions]' "$work/run.json" 2>/dev/null)
    if [ $rc = 3 ] && grep -q '^checkpoints: *1 written' "$work/term.out" &&
      jq -e '.signal == "SIGTERM"' "$work/term.json" >/dev/null && [ $rc2 = 0 ] && [ "$got" = "$ref" ]; then
      pass "crash-sigterm-threads-$t${cset:+-compact-set} (a final checkpoint, exit 3; resumed: the same counts)"
    else
      fail "crash-sigterm-threads-$t${cset:+-compact-set}" "exit $rc then $rc2: $(excerpt "$work/term.out") $got"
    fi
  done
fi

# ---------------------------------------------------------------------------
# 4. Damaged checkpoints and mismatches are refused.

# patch_checkpoint FILE OFFSET VALUE: an intact checkpoint with one word
# changed (its checksum made right), for sections 4 and 5.
patch=$work/patch_checkpoint
cc -std=c11 -O -o "$patch" "$root/tests/disk/patch_checkpoint.c" 2>"$work/cc.err" ||
  { fail ckpt-patch-build "$(excerpt "$work/cc.err")"; patch=; }

if [ -f "$work/ck/checkpoint" ]; then
  good=$work/good.ckpt
  cp "$work/ck/checkpoint" "$good"
  size=$(stat -c %s "$good")
  # refused NAME REGEX [CHECKER-ARGS...]: exit 2, the message, no result
  refused() {
    local name=$1 re=$2
    shift 2
    (cd "$work" && ./$m --no-deadlock "$@" >ref2.out 2>ref2.err)
    local rc=$?
    if [ $rc = 2 ] && grep -qE -- "$re" "$work/ref2.err" && ! grep -q '^result:' "$work/ref2.out"; then
      pass "$name"
    else
      fail "$name" "exit $rc: $(excerpt "$work/ref2.err") $(excerpt "$work/ref2.out")"
    fi
  }
  mkdir -p "$work/bad"
  head -c $((size / 2)) "$good" >"$work/bad/checkpoint"
  refused ckpt-truncated "bad/checkpoint is damaged" --resume bad
  head -c 20 "$good" >"$work/bad/checkpoint"
  refused ckpt-cut-short "bad/checkpoint is truncated" --resume bad
  for at in 100 $((size / 3)) $((size - 3)); do
    cp "$good" "$work/bad/checkpoint"
    byte=$(od -An -tu1 -j $at -N1 "$good" | tr -d ' ')
    printf "$(printf '\\%03o' $((byte ^ 16)))" |
      dd of="$work/bad/checkpoint" bs=1 seek=$at conv=notrunc status=none
    refused "ckpt-bit-flip-at-$at" "bad/checkpoint is damaged" --resume bad
  done
  cp "$good" "$work/bad/checkpoint"
  refused ckpt-other-options '--max-depth is 5 now but was none.*|--fingerprint is 128' \
    --resume bad --max-depth 5 --fingerprint 128
  grep -q -- '--fingerprint is 128 now but was 64' "$work/ref2.err" &&
    grep -q -- '--max-depth is 5 now but was none' "$work/ref2.err" &&
    pass "ckpt-other-options names both" || fail ckpt-other-options-both "$(excerpt "$work/ref2.err")"
  (cd "$work" && ./$m --resume bad >ref2.out 2>ref2.err) # deadlocks checked: another answer
  [ $? = 2 ] && grep -q 'deadlocks are checked now but were not checked' "$work/ref2.err" &&
    pass ckpt-other-deadlock || fail ckpt-other-deadlock "$(excerpt "$work/ref2.err")"
  if [ -x "$work/adding.2" ]; then
    (cd "$work" && ./adding.2 --no-deadlock --resume bad >ref2.out 2>ref2.err)
    [ $? = 2 ] && grep -q "checkpoint of another model ('adding.4'" "$work/ref2.err" &&
      pass ckpt-other-model || fail ckpt-other-model "$(excerpt "$work/ref2.err")"
  fi
  refused ckpt-resume-por "--resume is not available with --por on" --resume bad --por on
  refused ckpt-checkpoint-por "--checkpoint is not available with --por on" \
    --checkpoint ckpor --por on
  # The default resumes it without the reduction, and says why.
  (cd "$work" && ./$m --no-deadlock --resume bad --threads 1 >ref2.out 2>ref2.err)
  [ $? = 0 ] && grep -q '^por: *off (--resume)$' "$work/ref2.out" &&
    pass "ckpt-intact-copy-resumes" ||
    fail ckpt-intact-copy-resumes "$(excerpt "$work/ref2.err") $(grep '^por:' "$work/ref2.out")"
  # The fingerprint set's layout: a checkpoint is resumed only in its own,
  # and the message names both; one of format 1 (no layout recorded, its
  # checksum made right by patch_checkpoint) is refused naming both formats.
  refused ckpt-words-not-compact "holds the fingerprint set in the word layout; this run uses the compact layout" \
    --resume bad --compact-set
  if [ -f "$work/ckc/checkpoint" ]; then
    cp "$work/ckc/checkpoint" "$work/bad/checkpoint"
    refused ckpt-compact-not-words "holds the fingerprint set in the compact layout \(--compact-set\); this run uses the word layout" \
      --resume bad
    csize=$(stat -c %s "$work/ckc/checkpoint")
    for at in $((csize / 2)) $((csize - 100)); do # the middle and near the end
      cp "$work/ckc/checkpoint" "$work/bad/checkpoint"
      byte=$(od -An -tu1 -j $at -N1 "$work/bad/checkpoint" | tr -d ' ')
      printf "$(printf '\\%03o' $((byte ^ 1)))" |
        dd of="$work/bad/checkpoint" bs=1 seek=$at conv=notrunc status=none
      refused "ckpt-compact-bit-flip-at-$at" "bad/checkpoint is damaged" --resume bad --compact-set
    done
    head -c $((csize - 8)) "$work/ckc/checkpoint" >"$work/bad/checkpoint"
    refused ckpt-compact-truncated "bad/checkpoint is damaged" --resume bad --compact-set
  else
    fail ckpt-compact "no compact checkpoint in ckc (the SIGTERM case with --compact-set failed)"
  fi
  if [ -n "$patch" ]; then
    cp "$good" "$work/bad/checkpoint"
    "$patch" "$work/bad/checkpoint" 8 1 # the format, after the magic
    refused ckpt-format-1 "checkpoint of format 1, which does not record the fingerprint set's layout; this checker reads format 3" \
      --resume bad
    cp "$good" "$work/bad/checkpoint"
    "$patch" "$work/bad/checkpoint" 16 7 # the layout: none of 0, 1, 2
    refused ckpt-layout-unknown "is not a checkpoint of this format" --resume bad
    if [ -f "$work/ckc/checkpoint" ]; then
      # Layout 1, the compact layout's earlier three bitmaps a slot: refused
      # with and without --compact-set, both layouts named.
      cp "$work/ckc/checkpoint" "$work/bad/checkpoint"
      "$patch" "$work/bad/checkpoint" 16 1
      refused ckpt-compact-3bit "holds the fingerprint set in the compact layout of earlier versions \(three bitmaps a slot\), which this checker does not read; this run uses the compact layout \(--compact-set\): refused" \
        --resume bad --compact-set
      refused ckpt-compact-3bit-words "compact layout of earlier versions .*; this run uses the word layout: refused" \
        --resume bad
    fi
  fi
fi
# Under MPI (a checker built with mcgen --mpi): refused, not half-working.
if command -v mpicc >/dev/null && build counter-mpi "$root/tests/cli/specs/counter.mc" --mpi; then
  for o in "--disk d" "--checkpoint ck3" "--resume ck"; do
    # shellcheck disable=SC2086
    (cd "$work" && ./counter-mpi $o >m.out 2>m.err)
    [ $? = 2 ] && grep -q 'not available under MPI' "$work/m.err" && pass "mpi-refuses ${o%% *}" ||
      fail "mpi-refuses ${o%% *}" "$(excerpt "$work/m.err")"
  done
else
  skip mpi-refuses "no mpicc, or mcgen --mpi failed: MPI's refusal of --disk and --checkpoint (NOT TESTED HERE)"
fi
if build filter "$root/specs/filter.mc"; then
  (cd "$work" && ./filter --checkpoint ck2 >f.out 2>f.err)
  [ $? = 2 ] && grep -q 'liveness' "$work/f.err" && pass ckpt-liveness-refused ||
    fail ckpt-liveness-refused "$(excerpt "$work/f.err")"
  (cd "$work" && ./filter --checkpoint-every 1 >f.out 2>f.err)
  [ $? = 2 ] && grep -q 'goes with --checkpoint' "$work/f.err" && pass ckpt-every-alone-refused ||
    fail ckpt-every-alone-refused "$(excerpt "$work/f.err")"
fi

# ---------------------------------------------------------------------------
# 5. A checkpoint is bound to the build of the model that wrote it and to the
#    options that change the answer. tests/disk/specs/identity.mc and sum.mc
#    (hand counts in their headers) are rebuilt in place as a user would,
#    after each change; each change is one a resumed run would answer
#    wrongly for, so each rebuild must refuse the checkpoint, naming it.

id=$work/id
mkdir -p "$id"
cp "$root"/tests/disk/specs/* "$id/"
# build_id NAME SPEC [MCGEN-ARGS...]: the checker NAME in $id.
build_id() {
  local name=$1 spec=$2
  shift 2
  (cd "$id" && timeout 120 "$mcgen" -o "$name" "$@" "$spec" </dev/null >"build-$name.log" 2>&1) ||
    fail "build-$name" "$(excerpt "$id/build-$name.log")"
}
# sigterm_checkpoint CHECKER DIR: DIR/checkpoint written at a SIGTERM
# (sigterm_paused), copied to DIR.good; false unless the run said so and
# exited 3.
sigterm_checkpoint() {
  rm -rf "${id:?}/$2"
  sigterm_paused "$id" ./"$1" --threads 1 --checkpoint "$2"
  [ $? = 3 ] && grep -q '^checkpoints: *1 written' "$id/term.out" &&
    cp "$id/$2/checkpoint" "$id/$2.good"
}
# What both specs' headers count by hand: exit, states, transitions.
hand="0 36 63"
# counts CHECKER [ARGS...]: "EXIT STATES TRANSITIONS" of a run.
counts() {
  local exe=$1
  shift
  rm -f "$id/counts.json"
  (cd "$id" && ./"$exe" --threads 1 "$@" --report counts.json </dev/null >counts.out 2>&1)
  echo "$? $(jq -r '"\(.states) \(.transitions)"' "$id/counts.json" 2>/dev/null)"
}
# resumes NAME CHECKER DIR [ARGS...]: resumed from DIR.good, the hand count.
resumes() {
  local name=$1 exe=$2 dir=$3 got
  shift 3
  cp "$id/$dir.good" "$id/$dir/checkpoint"
  got=$(counts "$exe" --resume "$dir" "$@")
  [ "$got" = "$hand" ] && pass "$name (36 states, 63 transitions, as counted by hand)" ||
    fail "$name" "exit, states, transitions: $got, not $hand: $(excerpt "$id/counts.out")"
}
# refused_id NAME CHECKER DIR TEXT [ARGS...]: resumed from DIR.good: exit 2,
# TEXT (a fixed string) on stderr, no result.
refused_id() {
  local name=$1 exe=$2 dir=$3 text=$4
  shift 4
  cp "$id/$dir.good" "$id/$dir/checkpoint"
  (cd "$id" && ./"$exe" --threads 1 --resume "$dir" "$@" </dev/null >ref.out 2>ref.err)
  local rc=$?
  if [ $rc = 2 ] && grep -qF -- "$text" "$id/ref.err" && ! grep -q '^result:' "$id/ref.out"; then
    pass "$name"
  else
    fail "$name" "exit $rc, expected 2 and '$text': $(excerpt "$id/ref.err") $(excerpt "$id/ref.out")"
  fi
}
# violates CHECKER: a fresh run of a changed build meets the violation at
# depth 1 (the spec's header says why): the change matters.
violates() {
  local got
  got=$(counts "$1" --por off)
  [ "${got%% *}" = 1 ] && grep -q '^violation: invariant' "$id/counts.out"
}
# checkpointed NAME DIR: builds NAME from NAME.mc, checks its hand count,
# writes DIR's checkpoint; then builds NAME again from the same inputs and
# resumes it to the same counts. False without a checkpoint.
checkpointed() {
  local name=$1 dir=$2 got
  build_id "$name" "$name.mc"
  got=$(counts "$name" --por off)
  [ "$got" = "$hand" ] && pass "ckpt-$name-reference (36 states, 63 transitions, as counted by hand)" ||
    fail "ckpt-$name-reference" "exit, states, transitions: $got, not $hand"
  if ! sigterm_checkpoint "$name" "$dir"; then
    fail "ckpt-$name-checkpoint" "no checkpoint: $(excerpt "$id/term.out")"
    return 1
  fi
  build_id "$name" "$name.mc"
  resumes "ckpt-$name-same-build" "$name" "$dir"
}

if checkpointed identity ck; then
  # Options that cannot change the answer may differ.
  resumes ckpt-identity-other-engine identity ck --threads 2 --disk dd --memory 1G --progress 0 \
    --trace-format json --quiet
  # Each option that changes the graph or the answer, named with both values.
  while IFS='|' read -r opts text; do
    # shellcheck disable=SC2086
    refused_id "ckpt-identity-option ${opts}" identity ck "$text" $opts
  done <<'CASES'
--max-states 30|--max-states is 30 now but was none in the checkpointed run
--max-steps 50|--max-steps is 50 now but was none in the checkpointed run
--max-depth 3|--max-depth is 3 now but was none in the checkpointed run
--fingerprint 128|--fingerprint is 128 now but was 64 in the checkpointed run
--symmetry off|symmetry reduction is off now but was
--symmetry-method sorted|symmetry reduction is sorted now but was exhaustive
--no-deadlock|deadlocks are not checked now but were checked in the checkpointed run
--compact-set|holds the fingerprint set in the word layout; this run uses the compact layout
--por on|--resume is not available with --por on
CASES
  # Another value of a constant.
  build_id identity identity.mc -D LIMIT=1
  violates identity && pass ckpt-identity-const-matters || fail ckpt-identity-const-matters "$(excerpt "$id/counts.out")"
  refused_id ckpt-identity-const identity ck "const LIMIT is 1 in this checker's build but was 15 in the checkpointed run's"
  grep -qF "ck/checkpoint was written by another build of the model 'identity' (what differs is said above): refused" \
    "$id/ref.err" && pass ckpt-identity-const-summary || fail ckpt-identity-const-summary "$(excerpt "$id/ref.err")"
  # Other --cflags (they may define macros the extern C reads).
  build_id identity identity.mc --cflags -DUNUSED_BY_THE_MODEL
  refused_id ckpt-identity-cflags identity ck "mcgen --cflags is '-DUNUSED_BY_THE_MODEL' in this checker's build but was '' in the checkpointed run's"
  # The spec's text edited (a comment only: refused all the same).
  echo '// edited' >>"$id/identity.mc"
  build_id identity identity.mc
  refused_id ckpt-identity-spec-text identity ck "the spec's text (identity.mc) differs from the checkpointed run's"
  cp "$root/tests/disk/specs/identity.mc" "$id/"
  # Another name: the generated C names itself, and nothing else differs.
  build_id identity2 identity.mc
  refused_id ckpt-identity-other-c identity2 ck "was written by another build of the model 'identity' (the generated C differs"
  # A checkpoint of format 2, which held no build identity.
  if [ -n "$patch" ]; then
    cp "$id/ck.good" "$id/ck2.good" && mkdir -p "$id/ck2"
    "$patch" "$id/ck2.good" 8 2
    build_id identity identity.mc
    refused_id ckpt-format-2 identity ck2 "ck2/checkpoint is a checkpoint of format 2, which is not bound to the build of the model (its constants, its extern C, mcgen --cflags); this checker reads format 3: refused"
  fi
fi

# The C files of `extern`: the header, the source, a file only the source
# includes. Each edited in turn (sum.mc's header: bad_sum() then returns 1).
if checkpointed sum cks; then
  while IFS='|' read -r file edit; do
    sed -i "$edit" "$id/$file"
    build_id sum sum.mc
    violates sum && pass "ckpt-extern-$file-matters" ||
      fail "ckpt-extern-$file-matters" "$(excerpt "$id/counts.out")"
    refused_id "ckpt-extern-$file" sum cks \
      "the extern C file $(realpath "$id/$file") has changed since the checkpointed run's build"
    cp "$root/tests/disk/specs/$file" "$id/"
  done <<'CASES'
bad_sum.h|s/BAD_SUM 15/BAD_SUM 1/
bad_sum.c|s/return BAD_SUM + SUM_OFFSET;/return 1;/
sum_offset.h|s/SUM_OFFSET 0/SUM_OFFSET -14/
CASES
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ $failed = 0 ]
