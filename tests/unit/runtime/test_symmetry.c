// SPDX-License-Identifier: MIT
// Unit tests of the canonicaliser (runtime/store/symmetry.c) and of traces under
// symmetry, on a hand-written model whose mc_sym_apply / mc_sym_keys are
// written the way mcgen writes them.
#include <criterion/criterion.h>

#include "engine/engine.h"

// ---------------------------------------------------------------------------
// The model: type P = scalarset(4);
//   var pc: [P] 0..3;       bits 0-7   (2 bits per process)
//   var owner: P?;          bits 8-10  (0 none, else p + 1)
//   var waiting: set<P>;    bits 11-14 (bit p)
//   action take(p) when owner == none { owner = p; }                 rules 0-3
//   action work(p) when owner == p && pc[p] < 3 { pc[p] += 1; }     rules 4-7
//   action drop(p) when owner == p { owner = none; waiting.add(p); } rules 8-11
//   invariant spread: !(three processes at pc 1, 2 and 3)

enum { N = 4, NRULES = 12, STATES = 1 << 15 };

static uint64_t pc(const uint8_t *s, unsigned p) { return mcrt_get(s, 2 * p, 2); }
static uint64_t owner(const uint8_t *s) { return mcrt_get(s, 8, 3); }
static bool waiting(const uint8_t *s, unsigned p) { return mcrt_get(s, 11 + p, 1); }

static void t_apply(const uint8_t *in, uint8_t *out, const uint8_t *const *pm) {
  for (unsigned i = 0; i < N; i++) {
    mcrt_set(out, 2 * pm[0][i], 2, pc(in, i));
    mcrt_set(out, 11 + pm[0][i], 1, waiting(in, i));
  }
  uint64_t o = owner(in);
  mcrt_set(out, 8, 3, o ? (uint64_t)pm[0][o - 1] + 1 : 0);
}

static void t_keys(const uint8_t *s, uint64_t *const *key) {
  for (unsigned i = 0; i < N; i++) {
    key[0][i] += mcrt_sym_mix(1, pc(s, i));
    key[0][i] += mcrt_sym_mix(3, waiting(s, i));
  }
  if (owner(s))
    key[0][owner(s) - 1] += mcrt_sym_mix(2, 1);
}

static bool t_apply_rule(McrtCtx *ctx, uint64_t rule, const uint8_t *in, uint8_t *out) {
  (void)ctx;
  unsigned p = rule % N;
  memcpy(out, in, 2);
  switch (rule / N) {
  case 0:
    if (owner(in))
      return false;
    mcrt_set(out, 8, 3, p + 1);
    return true;
  case 1:
    if (owner(in) != p + 1 || pc(in, p) == 3)
      return false;
    mcrt_set(out, 2 * p, 2, pc(in, p) + 1);
    return true;
  default:
    if (owner(in) != p + 1)
      return false;
    mcrt_set(out, 8, 3, 0);
    mcrt_set(out, 11 + p, 1, 1);
    return true;
  }
}

// The initial state (0: all zero); a test sets one that is not canonical.
static unsigned init_code;

static bool t_apply_init(McrtCtx *ctx, uint64_t rule, uint8_t *out) {
  (void)ctx, (void)rule;
  out[0] = (uint8_t)init_code, out[1] = (uint8_t)(init_code >> 8);
  return true;
}

static void t_initial(McrtCtx *ctx) {
  uint8_t s[2 + MCRT_SLACK] = {0};
  t_apply_init(ctx, 0, s);
  mcrt_emit_initial(ctx, s, 0);
}

static void t_successors(McrtCtx *ctx, const uint8_t *state) {
  for (uint64_t r = 0; r < NRULES; r++) {
    uint8_t out[2 + MCRT_SLACK] = {0};
    if (t_apply_rule(ctx, r, state, out) && mcrt_emit_successor(ctx, out, (uint32_t)(r / N), r))
      return;
  }
}

static bool spread_on = true;
static int t_invariants(McrtCtx *ctx, const uint8_t *s) {
  (void)ctx;
  bool seen[4] = {false};
  for (unsigned p = 0; p < N; p++)
    seen[pc(s, p)] = true;
  return spread_on && seen[1] && seen[2] && seen[3] ? 0 : -1;
}

static const McrtType t_p = {.kind = MCRT_SCALARSET, .width = 2, .card = 4, .name = "P"};
static const McrtType t_popt = {.kind = MCRT_OPTIONAL, .width = 3, .card = 5, .base = &t_p};
static const McrtType t_pc = {.kind = MCRT_RANGE, .width = 2, .card = 4};
static const McrtType t_pcs = {.kind = MCRT_ARRAY, .width = 8, .base = &t_pc, .index = &t_p};
static const McrtType t_set = {.kind = MCRT_SET, .width = 4, .base = &t_p};
static const McrtVar t_vars[] = {{"pc", &t_pcs, 0}, {"owner", &t_popt, 8}, {"waiting", &t_set, 11}};
static const McrtParam t_params[] = {{"p", &t_p}};
static const McrtRuleGroup t_inits[] = {{.name = "start", .first_rule = 0, .nbindings = 1}};
static const McrtRuleGroup t_actions[] = {
    {.name = "take", .nparams = 1, .params = t_params, .first_rule = 0, .nbindings = 4},
    {.name = "work", .nparams = 1, .params = t_params, .first_rule = 4, .nbindings = 4},
    {.name = "drop", .nparams = 1, .params = t_params, .first_rule = 8, .nbindings = 4},
};
static const McrtPredicate t_invs[] = {{"spread", "tokens.mc", 9}};
static const McrtScalarset t_sym[] = {{"P", 4, 0, NULL}}; // no table: the runtime builds it

static const McrtModel tokens = {
    .abi_version = MCRT_ABI_VERSION, .name = "tokens", .source_file = "tokens.mc",
    .mcgen_version = "test", .state_bits = 15, .state_bytes = 2, .nvars = 3, .vars = t_vars,
    .ninits = 1, .inits = t_inits, .ninit_rules = 1, .nactions = 3, .actions = t_actions,
    .nrules = NRULES, .ninvariants = 1, .invariants = t_invs, .nscalarsets = 1,
    .initial_states = t_initial, .successors = t_successors, .apply_init = t_apply_init,
    .apply_rule = t_apply_rule, .check_invariants = t_invariants, .nsym = 1, .sym = t_sym,
    .sym_apply = t_apply, .sym_keys = t_keys,
};

// Every well-formed state (owner <= 4) as 2 bytes in a slack-padded buffer.
static bool state_of(unsigned code, uint8_t *s) {
  memset(s, 0, 2 + MCRT_SLACK);
  s[0] = (uint8_t)code, s[1] = (uint8_t)(code >> 8);
  return owner(s) <= N;
}

static unsigned code_of(const uint8_t *s) { return s[0] | (unsigned)s[1] << 8; }

// The 24 permutations, brute force.
static uint8_t perms[24][N];
static void all_perms(void) {
  unsigned n = 0;
  for (unsigned a = 0; a < N; a++)
    for (unsigned b = 0; b < N; b++)
      for (unsigned c = 0; c < N; c++)
        for (unsigned d = 0; d < N; d++)
          if (a != b && a != c && a != d && b != c && b != d && c != d) {
            perms[n][0] = (uint8_t)a, perms[n][1] = (uint8_t)b;
            perms[n][2] = (uint8_t)c, perms[n][3] = (uint8_t)d;
            n++;
          }
  cr_assert_eq(n, 24);
}

static void permute(const uint8_t *in, uint8_t *out, unsigned r) {
  const uint8_t *pm[1] = {perms[r]};
  memset(out, 0, 2 + MCRT_SLACK);
  t_apply(in, out, pm);
}

// The least encoding of the orbit, by the test's own enumeration.
static unsigned brute_min(const uint8_t *s) {
  uint8_t t[2 + MCRT_SLACK];
  unsigned best = 0;
  for (unsigned r = 0; r < 24; r++) {
    permute(s, t, r);
    if (r == 0 || memcmp(t, &best, 2) < 0) // little-endian bytes, as memcmp sees them
      memcpy(&best, t, 2);
  }
  return best;
}

static unsigned canon_code(McrtSym *sy, const uint8_t *s) {
  uint8_t out[2 + MCRT_SLACK] = {0};
  cr_assert(mcrt_sym_canon(sy, s, out));
  return code_of(out);
}

// The exhaustive method is the least encoding over all permutations.
Test(symmetry, exhaustive_is_least_of_orbit) {
  all_perms();
  McrtSym *sy = mcrt_sym_new(&tokens, MCRT_SYM_METHOD_EXHAUSTIVE);
  uint8_t s[2 + MCRT_SLACK];
  for (unsigned c = 0; c < STATES; c++) {
    if (!state_of(c, s))
      continue;
    unsigned want = brute_min(s), got = canon_code(sy, s);
    cr_assert_eq(memcmp(&want, &got, 2), 0, "state %#x: exhaustive %#x, brute force %#x", c, got,
                 want);
  }
  cr_assert_eq(sy->candidates, sy->calls * 24);
  mcrt_sym_free(sy);
}

// Both methods give every state of an orbit the same form, and states of
// different orbits different forms: as many forms as orbits.
Test(symmetry, one_form_per_orbit) {
  all_perms();
  McrtSymMethod methods[] = {MCRT_SYM_METHOD_EXHAUSTIVE, MCRT_SYM_METHOD_SORTED};
  static bool is_min[STATES], is_form[2][STATES];
  unsigned orbits = 0;
  uint8_t s[2 + MCRT_SLACK], t[2 + MCRT_SLACK];
  for (unsigned c = 0; c < STATES; c++)
    if (state_of(c, s) && !is_min[brute_min(s)])
      is_min[brute_min(s)] = true, orbits++;
  cr_assert_eq(orbits, 1290); // Burnside, checked independently below
  for (unsigned m = 0; m < 2; m++) {
    McrtSym *sy = mcrt_sym_new(&tokens, methods[m]);
    unsigned forms = 0;
    for (unsigned c = 0; c < STATES; c++) {
      if (!state_of(c, s))
        continue;
      unsigned f = canon_code(sy, s);
      for (unsigned r = 0; r < 24; r++) {
        permute(s, t, r);
        cr_assert_eq(canon_code(sy, t), f, "method %u: state %#x and its permutation %u differ",
                     m, c, r);
      }
      forms += !is_form[m][f];
      is_form[m][f] = true;
    }
    cr_assert_eq(forms, orbits, "method %u: %u forms for %u orbits", m, forms, orbits);
    if (methods[m] == MCRT_SYM_METHOD_SORTED)
      cr_assert_lt(sy->candidates, sy->calls * 3, "sorted tried %.2f per state",
                   (double)sy->candidates / (double)sy->calls);
    mcrt_sym_free(sy);
  }
}

// Burnside's lemma for the orbit count above: the mean number of states
// each permutation fixes (a state is 4 (pc, waiting) pairs of 8 values and
// an owner; a permutation with cycles c fixes 8^|c| pair choices and
// 1 + (its fixed points) owners).
Test(symmetry, burnside_count) {
  all_perms();
  unsigned long total = 0;
  for (unsigned r = 0; r < 24; r++) {
    unsigned cycles = 0, fixed = 0;
    bool seen[N] = {false};
    for (unsigned i = 0; i < N; i++) {
      fixed += perms[r][i] == i;
      if (seen[i])
        continue;
      cycles++;
      for (unsigned j = i; !seen[j]; j = perms[r][j])
        seen[j] = true;
    }
    unsigned long f = 1;
    for (unsigned c = 0; c < cycles; c++)
      f *= 8;
    total += f * (1 + fixed);
  }
  cr_assert_eq(total % 24, 0);
  cr_assert_eq(total / 24, 1290);
}

// A search with reduction finds one state per orbit of the reachable set.
static uint64_t reduced_states(McrtSymmetry sym, McrtSymMethod method, bool *violation) {
  McrtOptions opt = {.threads = 1, .max_states = MCRT_UNLIMITED, .max_steps = MCRT_UNLIMITED,
                     .max_depth = MCRT_UNLIMITED, .memory = MCRT_UNLIMITED,
                     .fingerprint_bits = 64, .symmetry = sym, .sym_method = method,
                     .deadlock = false, .liveness = MCRT_LIVENESS_OFF};
  McrtCtx *ctx = malloc(sizeof *ctx);
  cr_assert(mcrt_ctx_init(ctx, &tokens, &opt));
  mcrt_search(ctx);
  uint64_t n = ctx->states;
  *violation = ctx->has_violation;
  mcrt_ctx_free(ctx);
  free(ctx);
  return n;
}

Test(symmetry, search_counts_orbits_of_reachable_states) {
  all_perms();
  spread_on = false;
  // The reachable states, by the test's own BFS, and their orbits.
  static bool seen[STATES], orbit[STATES];
  static unsigned queue[STATES];
  unsigned head = 0, tail = 0, reachable = 0, orbits = 0;
  uint8_t s[2 + MCRT_SLACK] = {0}, t[2 + MCRT_SLACK];
  seen[0] = true, queue[tail++] = 0;
  while (head < tail) {
    state_of(queue[head++], s);
    reachable++;
    unsigned m = brute_min(s);
    orbits += !orbit[m];
    orbit[m] = true;
    for (uint64_t r = 0; r < NRULES; r++) {
      memset(t, 0, sizeof t);
      if (t_apply_rule(NULL, r, s, t) && !seen[code_of(t)])
        seen[code_of(t)] = true, queue[tail++] = code_of(t);
    }
  }
  bool v;
  cr_assert_eq(reduced_states(MCRT_SYM_OFF, MCRT_SYM_METHOD_AUTO, &v), reachable);
  cr_assert_eq(reduced_states(MCRT_SYM_ON, MCRT_SYM_METHOD_EXHAUSTIVE, &v), orbits);
  cr_assert_eq(reduced_states(MCRT_SYM_ON, MCRT_SYM_METHOD_SORTED, &v), orbits);
  cr_assert_lt(orbits, reachable);
  spread_on = true;
}

// The trace of a violation found under reduction is a genuine execution:
// replayed without canonicalisation, every step is enabled in the state
// before it, and the last state violates the invariant. The initial state
// (owner = P_4) is not canonical (both methods make the owner P_1), so the
// logged first step names P_1 where the real run's must name P_4.
Test(symmetry, trace_is_genuine) {
  init_code = 4 << 8;
  McrtSymMethod methods[] = {MCRT_SYM_METHOD_EXHAUSTIVE, MCRT_SYM_METHOD_SORTED};
  for (unsigned m = 0; m < 2; m++) {
    McrtOptions opt = {.threads = 1, .max_states = MCRT_UNLIMITED, .max_steps = MCRT_UNLIMITED,
                       .max_depth = MCRT_UNLIMITED, .memory = MCRT_UNLIMITED,
                       .fingerprint_bits = 64, .symmetry = MCRT_SYM_ON, .sym_method = methods[m],
                       .deadlock = false, .liveness = MCRT_LIVENESS_OFF};
    McrtCtx *ctx = malloc(sizeof *ctx);
    cr_assert(mcrt_ctx_init(ctx, &tokens, &opt));
    mcrt_search(ctx);
    cr_assert(ctx->has_violation);
    uint64_t *path, step = 0;
    size_t n = mcrt_path_to(ctx, ctx->viol.state, &path);
    cr_assert_eq(n, 11, "the shortest violation takes 10 steps, got %zu", n - 1);
    cr_assert(mcrt_sym_realize(ctx, path, n, false, &step));
    uint8_t a[2 + MCRT_SLACK] = {0}, b[2 + MCRT_SLACK] = {0};
    cr_assert(t_apply_init(ctx, path[0], a));
    cr_assert_eq(code_of(a), init_code);
    unsigned renamed = 0; // steps whose process differs from the logged one
    uint64_t *logged;
    mcrt_path_to(ctx, ctx->viol.state, &logged);
    for (size_t i = 1; i < n; i++) {
      memset(b, 0, sizeof b);
      cr_assert(t_apply_rule(ctx, path[i], a, b), "step %zu (rule %llu) is not enabled", i,
                (unsigned long long)path[i]);
      memcpy(a, b, 2);
      renamed += path[i] != logged[i];
    }
    cr_assert_eq(t_invariants(ctx, a), 0, "the trace does not end in a violation");
    // Canonical successors rename processes, so the logged rules alone are
    // not a run of the spec: this model needs the realisation.
    cr_assert_gt(renamed, 0);
    free(path);
    free(logged);
    mcrt_ctx_free(ctx);
    free(ctx);
  }
  init_code = 0;
}
