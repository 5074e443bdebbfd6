#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Malformed-input runner: feeds mcgen inputs no one should write and checks
# that it rejects them like a compiler, never like a crash.
#
# Usage: tests/malformed/run.sh [BUILD_DIR]
# Environment:
#   MALFORMED_STRIDE  cut the bundled specs every N bytes (default 211; 1
#                     also cuts the seed at every byte, not only at token
#                     boundaries)
#   MALFORMED_JOBS    parallel runs (default: the number of CPUs)
#
# The inputs are generated here, at test time (nothing big is committed):
#   - truncations: tests/malformed/seed.mc cut at every token boundary, and
#     each specs/*.mc cut every MALFORMED_STRIDE bytes; tests/malformed/
#     seed.dve (a DVE model using every construct) cut at every token
#     boundary, tests/dve/*.dve and three BEEM models (from the suite in
#     ../shared/suites/beem or $BEEM_DIR; a loud note if it is missing) cut
#     every MALFORMED_STRIDE bytes; tests/malformed/seed.m (a Murphi model
#     using every construct the front end reads) cut at every token boundary;
#   - binary garbage: 4096 bytes from a fixed-seed generator (reproducible),
#     with and without a valid spec in front; random token soup;
#   - deep nesting: 10,000 '(' , '!', '-', nested ifs, nested blocks;
#     behaviours of 1,000,000 postfix '*' and of 300,000 '&'; 10,000
#     scenarios each naming the next, and 40 each naming the one before
#     twice;
#   - a spec with 10,000 actions (must compile, and its checker must run);
#   - 100,000-character identifiers (declared and used; unknown, near a
#     declared one, so that "did you mean" has work to do);
#   - NUL bytes in a comment and in code; CRLF line endings (must compile).
# Each input is compiled by BUILD_DIR/mcgen-asan (the compiler under
# -fsanitize=address,undefined, built by tests/diag/asan_build.sh); the
# hand-made ones also by BUILD_DIR/mcgen. Each run must exit 0 or 1 within 60
# seconds with no sanitizer report. When mcgen accepts an input (exit 0), the
# C it wrote must pass the C compiler (`cc -fsyntax-only` under -std=c11
# -Wall -Wextra -Werror: quick, and what "the C compiler never fails" needs).
# Inputs marked "must build" are built into checkers by mcgen itself, and
# their checker must exit 0; the 10,000-action spec is built at -O0 (gcc
# takes minutes over its 10 MB of C at -O2) with a longer timeout.
# The last line is exactly `N passed, N failed`; the exit status is non-zero
# if anything failed.
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
use_build_dir "${1:-}"
stride=${MALFORMED_STRIDE:-211}
jobs=${MALFORMED_JOBS:-$(nproc 2>/dev/null || echo 2)}

# shellcheck source=tests/diag/asan_build.sh
. "$root/tests/diag/asan_build.sh"
mcgen_asan=$(build_mcgen_asan "$root" "$build_dir") || exit 1

make_work malformed
in=$work/in
mkdir -p "$in" "$work/out" "$work/res"

#
# Generators
#

# A reproducible byte stream: a 32-bit LCG (Numerical Recipes constants).
# random_bytes SEED COUNT > FILE
random_bytes() {
  local x=$1 n=$2 fmt="" i
  for ((i = 0; i < n; i++)); do
    x=$(((x * 1664525 + 1013904223) & 0xffffffff))
    fmt+=$(printf '\\%03o' $(((x >> 24) & 255)))
  done
  printf "$fmt"
}

# Random sequences of the language's tokens: gets past the lexer and
# exercises the parser's recovery.
token_soup() {
  local x=$1 n=$2 i
  local -a toks=(model const type var fn init action when invariant reachable terminal
    constraint property fair weak strong forall exists count sum if else for in let
    assert return none true false bool scalarset enum record set multiset queue
    '{' '}' '(' ')' '[' ']' '<' '>' ';' ':' '::' ',' '.' '..' '?' '=' '==' '!=' '<='
    '>=' '&&' '||' '!' '->' '<->' '+' '-' '*' '/' '%' '[]' '<>' '~>' '|'
    x y N Proc 0 1 3 99999999999999999999 '"msg"' $'\n')
  for ((i = 0; i < n; i++)); do
    x=$(((x * 1664525 + 1013904223) & 0xffffffff))
    printf '%s ' "${toks[(x >> 8) % ${#toks[@]}]}"
  done
}

repeat() { # repeat STRING COUNT
  local s="" i
  for ((i = 0; i < $2; i++)); do s+=$1; done
  printf '%s' "$s"
}

# Hand-made inputs go through both compilers; `must_build NAME` marks one
# that must compile and whose checker must run clean.
hand=()
must=()
add() { hand+=("$1"); }
must_build() { must+=("$1"); }

# Token boundaries of the seed: every offset where the character class
# (blank, word, other) changes, and between two punctuation characters.
seed=$root/tests/malformed/seed.mc
seed_text=$(cat "$seed")
char_class() {
  case $1 in
    [[:space:]]) echo s ;;
    [A-Za-z0-9_]) echo w ;;
    *) echo p ;;
  esac
}
prev=""
for ((n = 0; n <= ${#seed_text}; n++)); do
  cur=$(char_class "${seed_text:n:1}")
  if [ "$stride" -eq 1 ] || [ "$cur" != "$prev" ] || [ "$cur" = p ]; then
    printf '%s' "${seed_text:0:n}" >"$in/trunc_seed_$n.mc"
  fi
  prev=$cur
done
for spec in "$root"/specs/*.mc; do
  base=$(basename "$spec" .mc)
  size=$(wc -c <"$spec")
  for ((n = 1; n < size; n += stride)); do
    head -c "$n" "$spec" >"$in/trunc_${base}_$n.mc"
  done
done
# The C files some specs name with `extern` (specs/serial/...), beside the
# cuts, which name them relative to themselves.
for d in "$root"/specs/*/; do
  [ -d "$d" ] && cp -r "$d" "$in/"
done

# DVE: the same truncations of its own seed and of the DVE tests.
dseed=$root/tests/malformed/seed.dve
dseed_text=$(cat "$dseed")
prev=""
for ((n = 0; n <= ${#dseed_text}; n++)); do
  cur=$(char_class "${dseed_text:n:1}")
  if [ "$stride" -eq 1 ] || [ "$cur" != "$prev" ] || [ "$cur" = p ]; then
    printf '%s' "${dseed_text:0:n}" >"$in/trunc_dseed_$n.dve"
  fi
  prev=$cur
done
# Murphi: the same truncations of its seed, and deep nesting.
mseed=$root/tests/malformed/seed.m
mseed_text=$(cat "$mseed")
prev=""
for ((n = 0; n <= ${#mseed_text}; n++)); do
  cur=$(char_class "${mseed_text:n:1}")
  if [ "$stride" -eq 1 ] || [ "$cur" != "$prev" ] || [ "$cur" = p ]; then
    printf '%s' "${mseed_text:0:n}" >"$in/trunc_mseed_$n.m"
  fi
  prev=$cur
done
{ echo "var x: boolean; startstate begin x := $(repeat '(' 10000)true$(repeat ')' 10000); end;"; } \
  >"$in/m_deep_parens.m"
add m_deep_parens
{ echo "var x: boolean; startstate begin x := $(repeat '!' 10000)true; end;"; } >"$in/m_deep_not.m"
add m_deep_not
{ echo "var x: 0..10; startstate begin x := $(repeat '1 - ' 10000)1; end;"; } >"$in/m_long_sum.m"
add m_long_sum
{ echo "var x: boolean; startstate begin $(repeat 'if true then ' 3000)x := true;$(repeat ' end;' 3000) end;"; } \
  >"$in/m_deep_if.m"
add m_deep_if
: >"$in/m_empty.m"
add m_empty
# PNML: its seed cut every 5 bytes (the tags, attributes and numbers of
# every construct), and the hand-made inputs below.
pseed=$root/tests/malformed/seed.pnml
psize=$(wc -c <"$pseed")
for ((n = 0; n < psize; n += 5)); do
  head -c "$n" "$pseed" >"$in/trunc_pseed_$n.pnml"
done
beem=$("$root/tools/suite-dir" beem || echo "${BEEM_DIR:-$root/../shared/suites/beem}")
beem_models=()
for m in gear.1 brp.1 elevator2.1; do
  if [ -f "$beem/dve/$m.dve" ]; then
    beem_models+=("$beem/dve/$m.dve")
  else
    echo "NOTE: BEEM model $m not found under $beem/dve: its truncations are NOT run"
  fi
done
for spec in "$root"/tests/dve/*.dve "${beem_models[@]}"; do
  base=$(basename "$spec" .dve)
  size=$(wc -c <"$spec")
  for ((n = 1; n < size; n += stride)); do
    head -c "$n" "$spec" >"$in/trunc_dve_${base}_$n.dve"
  done
done

for s in 1 2 3 4 5 6 7 8; do
  random_bytes "$s" 4096 >"$in/garbage_$s.mc"
  add "garbage_$s"
done
for s in 1 2; do
  random_bytes "$s" 4096 >"$in/dve_garbage_$s.dve"
  add "dve_garbage_$s"
done
{ cat "$dseed"; random_bytes 13 4096; } >"$in/dve_then_garbage.dve"
add dve_then_garbage
{ echo "byte x;"; printf 'byte y = %s1%s;\n' "$(repeat '(' 10000)" "$(repeat ')' 10000)";
  echo "process P { state a; init a; } system async;"; } >"$in/dve_deep_parens.dve"
add dve_deep_parens
{ echo "byte x;"; printf 'process P { state a; init a; trans a -> a { guard %s1; }; }\n' \
    "$(repeat 'not ' 10000)"; echo "system async;"; } >"$in/dve_deep_not.dve"
add dve_deep_not
{ echo "byte a[2];"; printf 'process P { state s; init s; trans s -> s { guard %s0%s == 0; }; }\n' \
    "$(repeat 'a[' 150)" "$(repeat ']' 150)"; echo "system async;"; } >"$in/dve_nested_index.dve"
add dve_nested_index
{ echo "int x;"; printf 'process P { state a; init a; trans a -> a { effect x = %s1; }; }\n' \
    "$(repeat '1 + ' 10000)"; echo "system async;"; } >"$in/dve_long_sum.dve"
add dve_long_sum
: >"$in/dve_empty.dve"
add dve_empty
for s in 11 12; do
  { cat "$seed"; random_bytes "$s" 4096; } >"$in/spec_then_garbage_$s.mc"
  add "spec_then_garbage_$s"
done
for s in 21 22 23 24 25 26; do
  token_soup "$s" 3000 >"$in/token_soup_$s.mc"
  add "token_soup_$s"
done

{ echo "var x: bool;"
  printf 'const C = %s1%s;\n' "$(repeat '(' 10000)" "$(repeat ')' 10000)"; } >"$in/deep_parens.mc"
add deep_parens
{ echo "var x: bool;"
  printf 'invariant i: %sx;\n' "$(repeat '!' 10000)"; } >"$in/deep_not.mc"
add deep_not
{ echo "var x: 0..3;"
  printf 'action a { x = %s1; }\n' "$(repeat '-' 10000)"; } >"$in/deep_neg.mc"
add deep_neg
{ echo "var x: bool;"
  printf 'action a { %sx = true;%s }\n' "$(repeat 'if true { ' 10000)" "$(repeat ' }' 10000)"; } \
  >"$in/deep_if.mc"
add deep_if
{ echo "var x: bool;"
  printf 'action a %s x = true; %s\n' "$(repeat '{ ' 10000)" "$(repeat '} ' 10000)"; } \
  >"$in/deep_blocks.mc"
add deep_blocks
{ echo "var x: bool;"
  printf 'type T = %sbool;\n' "$(repeat '[bool]' 10000)"; } >"$in/deep_array_type.mc"
add deep_array_type
{ echo "var x: bool;"
  printf 'const C = %s;\n' "$(repeat '1 + ' 10000)1"; } >"$in/long_sum.mc"
add long_sum
{ echo "var x: bool;"
  printf 'invariant i: %s;\n' "$(repeat '(' 10000)"; } >"$in/unclosed_parens.mc"
add unclosed_parens
# (Made with printf and tr or sed: repeat would take a while over a million.)
{ echo "action a {}"
  printf 'scenario S = a%s;\n' "$(printf '%*s' 1000000 '' | tr ' ' '*')"; } >"$in/deep_behaviour.mc"
add deep_behaviour
{ echo "action a {}"
  printf 'scenario S = %s_*;\n' "$(printf '%*s' 300000 '' | sed 's/ /_* \& /g')"; } \
  >"$in/long_behaviour.mc"
add long_behaviour
{ echo "action a {}"
  for ((i = 0; i < 10000; i++)); do echo "scenario S$i = S$((i + 1));"; done
  echo "scenario S10000 = a;"; } >"$in/scenarios_10000.mc"
add scenarios_10000
{ echo "action a {}"
  echo "scenario S0 = a;"
  for ((i = 1; i <= 40; i++)); do echo "scenario S$i = S$((i - 1)) | S$((i - 1));"; done; } \
  >"$in/scenarios_named_twice.mc"
add scenarios_named_twice

{ echo "// 10,000 actions over one bit of state."
  echo "var x: 0..1;"
  for ((i = 0; i < 10000; i++)); do echo "action a$i { x = 1 - x; }"; done
  echo "invariant ok: x <= 1;"; } >"$in/actions_10000.mc"
add actions_10000
must_build actions_10000 # built at -O0, see check_one

long=$(repeat 'abcdefghij' 10000)
{ echo "var ${long}: bool;"
  echo "action a { ${long} = !${long}; }"
  echo "invariant i: ${long} || !${long};"; } >"$in/long_ident.mc"
add long_ident
must_build long_ident
{ echo "var ${long}: bool;"
  echo "action a { ${long}x = true; }"; } >"$in/long_ident_typo.mc"
add long_ident_typo
{ echo "var x: bool;"
  echo "action a { x = ${long}; }"; } >"$in/long_ident_unknown.mc"
add long_ident_unknown
{ echo "var x: 0..3;"
  echo "action a { x = $(repeat 9 100000); }"; } >"$in/long_number.mc"
add long_number
{ echo "var x: bool;"
  echo "action a { assert x, \"$(repeat m 100000)\"; }"; } >"$in/long_string.mc"
add long_string

{ echo "var x: bool;"; printf '// a NUL \000 in a comment\n'; echo "action a { x = !x; }"; } \
  >"$in/nul_in_comment.mc"
add nul_in_comment
{ echo "var x: bool;"; printf 'action a { x \000= !x; }\n'; } >"$in/nul_in_code.mc"
add nul_in_code
{ printf 'var x: bool;\000'; } >"$in/nul_at_end.mc"
add nul_at_end
sed 's/$/\r/' "$seed" >"$in/crlf_seed.mc"
add crlf_seed
must_build crlf_seed
sed 's/$/\r/; s/leader = p;/leader = 1;/' "$seed" >"$in/crlf_error.mc"
add crlf_error
printf 'var x: bool;\raction a { x = !x; }\r' >"$in/cr_only.mc"
add cr_only
: >"$in/empty.mc"
add empty
printf '\357\273\277var x: bool;\n' >"$in/utf8_bom.mc"
add utf8_bom
printf 'var x\303\251: bool;\n' >"$in/utf8_ident.mc"
add utf8_ident

# PNML by hand: garbage after a valid header, deep nesting, huge numbers,
# missing ids, bytes that are not UTF-8, an empty file; the seed must build.
cp "$pseed" "$in/pnml_seed.pnml"
add pnml_seed
must_build pnml_seed
{ head -c 200 "$pseed"; random_bytes 7 4096; } >"$in/pnml_garbage.pnml"
add pnml_garbage
{ printf '<?xml version="1.0"?>\n<pnml><net id="n" type="ptnet">\n'
  repeat '<page id="g">' 10000; printf '\n'; repeat '</page>' 10000
  printf '\n</net></pnml>\n'; } >"$in/pnml_deep.pnml"
add pnml_deep
printf '<?xml version="1.0"?>\n<pnml><net id="n" type="ptnet"><place id="p"><initialMarking><text>%s</text></initialMarking></place>\n<transition id="t"/><arc id="a" source="p" target="t"><inscription><text>%s</text></inscription></arc></net></pnml>\n' \
  "$(repeat 9 400)" "18446744073709551616" >"$in/pnml_huge.pnml"
add pnml_huge
printf '<?xml version="1.0"?>\n<pnml><net type="ptnet"><place/><transition/>\n<arc source="p"/><arc/></net></pnml>\n' >"$in/pnml_no_ids.pnml"
add pnml_no_ids
printf '<?xml version="1.0"?>\n<pnml><net id="n\377\376" type="ptnet"><place id="\300\200"/></net></pnml>\n' >"$in/pnml_latin.pnml"
add pnml_latin
: >"$in/pnml_empty.pnml"
add pnml_empty

#
# Running
#

# check_one EXE INPUT MUST_BUILD: one line, "PASS ..." or "FAIL ...: why".
check_one() {
  local exe=$1 file=$2 must=$3
  local name tag out status err why="" limit=60 cflags=""
  name=$(basename "$file"); name=${name%.mc}; name=${name%.dve}; name=${name%.pnml}; name=${name%.m}
  tag=${exe##*/}
  out=$work/out/$name.$tag
  err=$out.stderr
  if [ "$name" = actions_10000 ]; then limit=600 cflags="-O0"; fi
  if [ "$must" = 1 ]; then
    ASAN_OPTIONS=detect_leaks=0 timeout "$limit" "$exe" --cflags "$cflags" -o "$out" "$file" \
      >"$err" 2>&1
  else
    ASAN_OPTIONS=detect_leaks=0 timeout "$limit" "$exe" --emit-c -o "$out" "$file" >"$err" 2>&1
  fi
  status=$?
  case $status in
    0 | 1) ;;
    # PNML that is not well-formed XML: exit 2 with the line of the fault.
    2) if [[ $file == *.pnml ]] && grep -qE '\.pnml:[0-9]+:[0-9]+: error: ' "$err"; then :; else
       why="exit status 2 (the C compiler failed, or a system error): $(grep -m1 mcgen: "$err")"; fi ;;
    124) why="timed out after $limit s" ;;
    *) if [ "$status" -gt 128 ]; then why="killed by signal $((status - 128))";
       else why="exit status $status"; fi ;;
  esac
  if grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:|UndefinedBehaviorSanitizer' "$err"; then
    why+="${why:+; }sanitizer: $(grep -m1 -E 'Sanitizer|runtime error:' "$err")"
  fi
  if [ -z "$why" ] && [ "$status" -eq 0 ] && [ "$must" != 1 ]; then
    if ! cc -std=c11 -Wall -Wextra -Werror -fsyntax-only -I"$root/runtime" "$out.c" \
      >"$out.cc" 2>&1; then
      why="the C compiler rejects the generated C: $(grep -m1 error "$out.cc" | cut -c1-200)"
    fi
  fi
  if [ -z "$why" ] && [ "$must" = 1 ]; then
    if [ "$status" -ne 0 ]; then
      why="must build, but mcgen exited $status: $(grep -m1 'error' "$err" | cut -c1-200)"
    else
      timeout 60 "$out" --quiet --progress 0 >"$out.run" 2>&1
      local rs=$?
      [ "$rs" -eq 0 ] || why="the checker exited $rs: $(head -c 300 "$out.run")"
    fi
  fi
  rm -f "$out" "$out.c" "$out.m4" "$out.cc"
  if [ -z "$why" ]; then
    echo "PASS $name [$tag] (exit $status)"
  else
    echo "FAIL $name [$tag]: $why"
  fi
}
export -f check_one
export work root

{
  for f in "$in"/trunc_*.mc "$in"/trunc_*.dve "$in"/trunc_*.pnml "$in"/trunc_*.m; do
    printf '%s %s 0\n' "$mcgen_asan" "$f"
  done
  for h in "${hand[@]}"; do
    m=0
    for x in "${must[@]}"; do [ "$x" = "$h" ] && m=1; done
    # The sanitized compiler only writes the C of the 10,000 actions; the
    # plain one builds and runs it (one build of that size is enough).
    f=$in/$h.mc
    [ -e "$f" ] || f=$in/$h.dve
    [ -e "$f" ] || f=$in/$h.pnml
    [ -e "$f" ] || f=$in/$h.m
    if [ "$h" = actions_10000 ]; then
      printf '%s %s 0\n' "$mcgen_asan" "$f"
    else
      printf '%s %s %s\n' "$mcgen_asan" "$f" "$m"
    fi
    printf '%s %s %s\n' "$mcgen" "$f" "$m"
  done
} >"$work/jobs"

# Truncations print only their failures and a summary; the hand-made inputs
# print a line each.
# (Paths are split on blanks: a build directory with a blank in its path is
# not supported.)
xargs -P "$jobs" -n 3 bash -c 'check_one "$@"' _ <"$work/jobs" >"$work/results"

ntrunc=$(grep -c '^PASS trunc_' "$work/results")
grep -v '^PASS trunc_' "$work/results" | sort
echo "PASS truncations: $ntrunc prefixes compiled or rejected cleanly"
passed=$(grep -c '^PASS' "$work/results")
failed=$(grep -c '^FAIL' "$work/results")
finish
