// SPDX-License-Identifier: MIT
// brute.c: counts the Mazurkiewicz traces of a generated model by brute
// force, the yardstick for --search odpor (tests/odpor/run.sh).
//
// Built against one generated checker: `cc -DCHECKER='"NAME.c"' -Iruntime
// tests/odpor/brute.c libmcrt.a`; the checker's C is included here (its
// main renamed), so its McrtModel, dependency table included, is at hand.
// From every initial state it enumerates every maximal execution (every
// interleaving: a depth-first walk over all enabled rules, states not
// remembered), maps each to its Foata normal form under the dependency
// written below, and counts the distinct forms. Prints
//   interleavings N
//   traces T
// Two executions are the same trace exactly when their Foata forms are
// equal: event i goes to step 1 + the highest step of an earlier event it
// depends on; the form is the sequence of steps, each a sorted multiset of
// rules.
//
// The dependency is the one docs/DESIGN.md states for --search odpor, read
// here from the table on its own (not through runtime/engine/odpor.c): two rules
// are dependent when they are the same rule or of the same process, when
// one writes a cell the other reads or writes, when both write a cell the
// invariants read (McrtDeps.invariant_reads), or both one the reachables
// read (reachable_reads). A terminal predicate's cells are not visible: it
// is read only where an execution ends.
//
// Exit 2 (message on stderr) if the model has no table, a rule fails, an
// execution is longer than MAX_DEPTH (a cycle), or there are more than
// MAX_RUNS interleavings: the spec is too large to count this way.
#define main mcgen_checker_main
#include CHECKER
#undef main

#include "context/context.h"

#include <inttypes.h>
#include <stdlib.h>

#define MAX_DEPTH 4096
#define MAX_RUNS UINT64_C(20000000)

static const McrtModel *model;
static const McrtDeps *deps;
static McrtCtx *ctx;
static uint32_t nrules;
static uint32_t seq[MAX_DEPTH];
static uint8_t *states; // MAX_DEPTH + 1 states of stride bytes
static size_t stride;
static uint64_t interleavings;
static uint64_t init_rule;

// The set of Foata forms seen, as 128-bit hashes of their encoding (open
// addressing; a zero low half marks an empty slot).
static XXH128_hash_t *forms;
static uint64_t nforms, forms_cap;

static void fail(const char *what) {
  fprintf(stderr, "brute: %s\n", what);
  exit(2);
}

static bool meet(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb) {
  for (uint32_t i = 0; i < na; i++)
    for (uint32_t j = 0; j < nb; j++)
      if (a[i] == b[j])
        return true;
  return false;
}

static bool writes_to(uint32_t r, const uint32_t *cells, uint32_t n) {
  const uint32_t *w = deps->write + deps->write_start[r];
  return meet(w, deps->write_start[r + 1] - deps->write_start[r], cells, n);
}

static uint8_t *dep; // nrules x nrules

static bool compute_dep(uint32_t r, uint32_t s) {
  if (r == s || deps->process[r] == deps->process[s])
    return true;
  const uint32_t *wr = deps->write + deps->write_start[r], *ws = deps->write + deps->write_start[s];
  const uint32_t *rr = deps->read + deps->read_start[r], *rs = deps->read + deps->read_start[s];
  uint32_t nwr = deps->write_start[r + 1] - deps->write_start[r];
  uint32_t nws = deps->write_start[s + 1] - deps->write_start[s];
  uint32_t nrr = deps->read_start[r + 1] - deps->read_start[r];
  uint32_t nrs = deps->read_start[s + 1] - deps->read_start[s];
  return meet(wr, nwr, rs, nrs) || meet(ws, nws, rr, nrr) || meet(wr, nwr, ws, nws) ||
         (writes_to(r, deps->invariant_reads, deps->ninvariant_reads) &&
          writes_to(s, deps->invariant_reads, deps->ninvariant_reads)) ||
         (writes_to(r, deps->reachable_reads, deps->nreachable_reads) &&
          writes_to(s, deps->reachable_reads, deps->nreachable_reads));
}

static int cmp_pair(const void *a, const void *b) {
  const uint64_t *x = a, *y = b;
  return *x < *y ? -1 : *x > *y;
}

static void add_form(uint32_t n) {
  // Steps, then (step, rule) pairs sorted: the normal form.
  static uint32_t step[MAX_DEPTH];
  static uint64_t key[MAX_DEPTH + 1];
  for (uint32_t i = 0; i < n; i++) {
    step[i] = 1;
    for (uint32_t j = 0; j < i; j++)
      if (dep[(size_t)seq[j] * nrules + seq[i]] && step[j] + 1 > step[i])
        step[i] = step[j] + 1;
    key[i + 1] = (uint64_t)step[i] << 32 | seq[i];
  }
  qsort(key + 1, n, sizeof *key, cmp_pair);
  key[0] = init_rule;
  XXH128_hash_t h = XXH3_128bits(key, (n + 1) * sizeof *key);
  h.low64 += h.low64 == 0; // 0 marks an empty slot
  if (2 * (nforms + 1) > forms_cap) { // keep the table at most half full
    uint64_t cap = forms_cap ? 2 * forms_cap : 1024;
    XXH128_hash_t *t = calloc(cap, sizeof *t);
    if (!t)
      fail("out of memory");
    for (uint64_t i = 0; i < forms_cap; i++)
      if (forms[i].low64) {
        uint64_t j = forms[i].low64 % cap;
        while (t[j].low64)
          j = (j + 1) % cap;
        t[j] = forms[i];
      }
    free(forms);
    forms = t, forms_cap = cap;
  }
  uint64_t j = h.low64 % forms_cap;
  for (; forms[j].low64; j = (j + 1) % forms_cap)
    if (XXH128_isEqual(forms[j], h))
      return;
  forms[j] = h;
  nforms++;
}

static void walk(uint32_t k) {
  const uint8_t *s = states + k * stride;
  bool any = false;
  for (uint32_t r = 0; r < nrules; r++) {
    if (!mcrt_replay_step(ctx, false, r, s, states + (k + 1) * stride)) {
      if (mcrt_failed(ctx))
        fail("a rule fails (run-time error or assert): not a spec for counting traces");
      continue;
    }
    any = true;
    if (k + 1 >= MAX_DEPTH)
      fail("an execution longer than MAX_DEPTH: the state space has a cycle");
    seq[k] = r;
    walk(k + 1);
  }
  if (!any) {
    if (++interleavings > MAX_RUNS)
      fail("more than MAX_RUNS interleavings: too large to count by brute force");
    add_form(k);
  }
}

int main(void) {
  model = &mc_model;
  deps = model->deps;
  if (!deps)
    fail("the model has no dependency table");
  nrules = (uint32_t)model->nrules;
  dep = calloc((size_t)nrules * nrules + 1, 1);
  if (!dep)
    fail("out of memory");
  for (uint32_t r = 0; r < nrules; r++)
    for (uint32_t s = 0; s < nrules; s++)
      dep[(size_t)r * nrules + s] = compute_dep(r, s);

  char *argv[] = {"brute", "--symmetry", "off", "--liveness", "off", NULL};
  McrtOptions opt;
  if (mcrt_parse_options(&opt, model, 5, argv, stdout, stderr) >= 0)
    fail("options");
  ctx = calloc(1, sizeof *ctx);
  if (!ctx || !mcrt_ctx_init(ctx, model, &opt))
    fail("cannot set up a context");
  stride = ctx->state_bytes + MCRT_SLACK;
  states = calloc(MAX_DEPTH + 1, stride);
  if (!states)
    fail("out of memory");
  for (init_rule = 0; init_rule < model->ninit_rules; init_rule++) {
    if (!mcrt_replay_step(ctx, true, init_rule, NULL, states)) {
      if (mcrt_failed(ctx))
        fail("an init block fails");
      continue;
    }
    walk(0);
  }
  printf("interleavings %" PRIu64 "\ntraces %" PRIu64 "\n", interleavings, nforms);
  mcrt_ctx_free(ctx);
  free(ctx), free(states), free(dep), free(forms);
  return 0;
}
