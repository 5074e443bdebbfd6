// SPDX-License-Identifier: MIT
// report.c: everything the checker prints: values (driven only by the
// McrtType descriptors), traces (rebuilt from the log and replayed), the
// summary, and the JSON report of docs/DESIGN.md.
//
// Values print as docs/LANGUAGE.md says: Proc_1 .. Proc_N, none, {a, b} (sets and
// multisets), [x, y] (arrays and queues, head first), {f: 1, g: true},
// enum member names, integers. A state prints leaf by leaf: arrays and
// records are opened down to scalars and collections (pc[Proc_2] = trying,
// msg.src = Proc_1); a collection prints whole.
#include "output/output.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

// ---------------------------------------------------------------------------
// Values.

static uint64_t type_card(const McrtType *t) {
  if (t->card)
    return t->card;
  return t->width >= 64 ? UINT64_MAX : UINT64_C(1) << t->width;
}

static bool is_scalar(const McrtType *t) {
  return t->kind <= MCRT_OPTIONAL;
}

// The text of a scalar value from its encoding.
static void scalar_str(const McrtType *t, uint64_t enc, char *buf, size_t n) {
  switch (t->kind) {
  case MCRT_BOOL:
    snprintf(buf, n, "%s", enc ? "true" : "false");
    return;
  case MCRT_RANGE:
    snprintf(buf, n, "%" PRId64, (int64_t)((uint64_t)t->lo + enc));
    return;
  case MCRT_ENUM:
    if (enc < t->card && t->members)
      snprintf(buf, n, "%s", t->members[enc]);
    else
      snprintf(buf, n, "?%" PRIu64, enc);
    return;
  case MCRT_SCALARSET:
    snprintf(buf, n, "%s_%" PRIu64, t->name ? t->name : "elem", enc + 1);
    return;
  case MCRT_OPTIONAL:
    if (enc == 0)
      snprintf(buf, n, "none");
    else
      scalar_str(t->base, enc - 1, buf, n);
    return;
  default:
    mcrt_die("scalar_str on a composite type");
  }
}

static void print_value_k(FILE *f, const McrtType *t, const uint8_t *base, uint64_t off, bool json);

// Prints an element given by its encoding (set/multiset/queue elements).
static void print_enc(FILE *f, const McrtType *t, uint64_t enc, bool json) {
  uint8_t tmp[16 + MCRT_SLACK] = {0};
  mcrt_set_wide(tmp, 0, t->width > 64 ? 64 : t->width, enc);
  print_value_k(f, t, tmp, 0, json);
}

static void print_json_scalar(FILE *f, const McrtType *t, uint64_t enc) {
  char buf[256];
  switch (t->kind) {
  case MCRT_BOOL:
  case MCRT_RANGE:
    scalar_str(t, enc, buf, sizeof buf);
    fputs(buf, f);
    return;
  case MCRT_OPTIONAL:
    if (enc == 0)
      fputs("null", f);
    else
      print_json_scalar(f, t->base, enc - 1);
    return;
  default:
    scalar_str(t, enc, buf, sizeof buf);
    mcrt_print_json_string(f, buf);
  }
}

static void print_value_k(FILE *f, const McrtType *t, const uint8_t *base, uint64_t off, bool json) {
  if (is_scalar(t)) {
    uint64_t enc = mcrt_get_wide(base, off, t->width);
    if (json) {
      print_json_scalar(f, t, enc);
    } else {
      char buf[256];
      scalar_str(t, enc, buf, sizeof buf);
      fputs(buf, f);
    }
    return;
  }
  const char *sep = "";
  switch (t->kind) {
  case MCRT_ARRAY: {
    uint64_t n = type_card(t->index);
    fputc('[', f);
    for (uint64_t i = 0; i < n; i++, sep = ", ") {
      fputs(sep, f);
      print_value_k(f, t->base, base, off + i * t->base->width, json);
    }
    fputc(']', f);
    return;
  }
  case MCRT_RECORD:
    fputc('{', f);
    for (uint32_t i = 0; i < t->nfields; i++, sep = ", ") {
      const McrtField *fl = &t->fields[i];
      fputs(sep, f);
      if (json) {
        mcrt_print_json_string(f, fl->name);
        fputs(": ", f);
      } else {
        fprintf(f, "%s: ", fl->name);
      }
      print_value_k(f, fl->type, base, off + fl->offset, json);
    }
    fputc('}', f);
    return;
  case MCRT_SET: {
    uint64_t n = type_card(t->base);
    fputc(json ? '[' : '{', f);
    for (uint64_t i = 0; i < n; i++) {
      if (mcrt_get(base, off + i, 1)) {
        fputs(sep, f);
        sep = ", ";
        print_enc(f, t->base, i, json);
      }
    }
    fputc(json ? ']' : '}', f);
    return;
  }
  case MCRT_MULTISET: {
    unsigned w = t->base->width + 1;
    fputc(json ? '[' : '{', f);
    for (uint32_t i = 0; i < t->capacity; i++) {
      uint64_t v = mcrt_get_wide(base, off + (uint64_t)i * w, w);
      if (v) {
        fputs(sep, f);
        sep = ", ";
        print_enc(f, t->base, v - 1, json);
      }
    }
    fputc(json ? ']' : '}', f);
    return;
  }
  case MCRT_QUEUE: {
    uint64_t len = mcrt_get(base, off, t->len_width);
    unsigned w = t->base->width;
    fputc('[', f);
    for (uint64_t i = 0; i < len && i < t->capacity; i++, sep = ", ") {
      fputs(sep, f);
      print_enc(f, t->base, mcrt_get_wide(base, off + t->len_width + i * w, w), json);
    }
    fputc(']', f);
    return;
  }
  default:
    mcrt_die("unknown type kind %d", (int)t->kind);
  }
}

void mcrt_print_value(FILE *f, const McrtType *t, const uint8_t *base, uint64_t off) {
  print_value_k(f, t, base, off, false);
}

void mcrt_print_value_json(FILE *f, const McrtType *t, const uint8_t *base, uint64_t off) {
  print_value_k(f, t, base, off, true);
}

// The length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong
// form, no surrogate, nothing above U+10FFFF), 0 if there is none.
static int utf8_len(const unsigned char *p) {
  if (p[0] < 0x80)
    return 1;
  int n = p[0] >= 0xc2 && p[0] <= 0xdf ? 2 : p[0] >= 0xe0 && p[0] <= 0xef ? 3
        : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
  for (int i = 1; i < n; i++)
    if ((p[i] & 0xc0) != 0x80)
      return 0;
  if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] > 0x9f) ||
      (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] > 0x8f))
    return 0;
  return n;
}

// A JSON string: escaped, and valid UTF-8 whatever the bytes (a file name,
// a message cut short): a byte that starts no well-formed sequence becomes
// U+FFFD.
void mcrt_print_json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    if (*p >= 0x80) {
      int n = utf8_len(p);
      if (n == 0) {
        fputs("\\ufffd", f);
      } else {
        fwrite(p, 1, (size_t)n, f);
        p += n - 1;
      }
      continue;
    }
    switch (*p) {
    case '"': fputs("\\\"", f); break;
    case '\\': fputs("\\\\", f); break;
    case '\n': fputs("\\n", f); break;
    case '\r': fputs("\\r", f); break;
    case '\t': fputs("\\t", f); break;
    case '\b': fputs("\\b", f); break;
    case '\f': fputs("\\f", f); break;
    default:
      if (*p < 0x20 || *p == 0x7f)
        fprintf(f, "\\u%04x", *p);
      else
        fputc(*p, f);
    }
  }
  fputc('"', f);
}

// ---------------------------------------------------------------------------
// States, leaf by leaf.

typedef struct Path {
  char *buf;
  size_t len, cap;
} Path;

static void path_push(Path *p, const char *s) {
  size_t n = strlen(s);
  if (p->len + n + 1 > p->cap) {
    p->cap = 2 * (p->len + n + 1);
    p->buf = realloc(p->buf, p->cap);
    if (!p->buf)
      mcrt_die("out of memory");
  }
  memcpy(p->buf + p->len, s, n + 1);
  p->len += n;
}

static void print_leaves(FILE *f, const McrtType *t, const uint8_t *state, const uint8_t *prev,
                         uint64_t off, Path *path, const char *indent) {
  size_t mark = path->len;
  if (t->kind == MCRT_ARRAY) {
    uint64_t n = type_card(t->index);
    for (uint64_t i = 0; i < n; i++) {
      char idx[300];
      char val[256];
      scalar_str(t->index, i, val, sizeof val);
      snprintf(idx, sizeof idx, "[%s]", val);
      path_push(path, idx);
      print_leaves(f, t->base, state, prev, off + i * t->base->width, path, indent);
      path->len = mark, path->buf[mark] = 0;
    }
    return;
  }
  if (t->kind == MCRT_RECORD) {
    for (uint32_t i = 0; i < t->nfields; i++) {
      path_push(path, ".");
      path_push(path, t->fields[i].name);
      print_leaves(f, t->fields[i].type, state, prev, off + t->fields[i].offset, path, indent);
      path->len = mark, path->buf[mark] = 0;
    }
    return;
  }
  if (prev && mcrt_equal_bits(state, off, prev, off, t->width))
    return;
  fprintf(f, "%s%s = ", indent, path->buf);
  mcrt_print_value(f, t, state, off);
  fputc('\n', f);
}

void mcrt_print_state(FILE *f, const McrtModel *m, const uint8_t *state, const uint8_t *prev,
                      const char *indent) {
  Path path = {0};
  for (uint32_t i = 0; i < m->nvars; i++) {
    path.len = 0;
    path_push(&path, m->vars[i].name);
    print_leaves(f, m->vars[i].type, state, prev, m->vars[i].offset, &path, indent);
  }
  free(path.buf);
}

static void print_state_json(FILE *f, const McrtModel *m, const uint8_t *state) {
  fputc('{', f);
  for (uint32_t i = 0; i < m->nvars; i++) {
    if (i)
      fputs(", ", f);
    mcrt_print_json_string(f, m->vars[i].name);
    fputs(": ", f);
    mcrt_print_value_json(f, m->vars[i].type, state, m->vars[i].offset);
  }
  fputc('}', f);
}

// ---------------------------------------------------------------------------
// Rules and their parameters.

const McrtRuleGroup *mcrt_rule_group(const McrtModel *m, bool init, uint64_t rule) {
  const McrtRuleGroup *g = init ? m->inits : m->actions;
  uint32_t n = init ? m->ninits : m->nactions;
  for (uint32_t i = 0; i < n; i++)
    if (rule >= g[i].first_rule && rule - g[i].first_rule < g[i].nbindings)
      return &g[i];
  return NULL;
}

// Decodes the parameter encodings of a rule: mixed radix over the params'
// cards, the first parameter most significant.
static void decode_params(const McrtRuleGroup *g, uint64_t rule, uint64_t *enc) {
  uint64_t b = rule - g->first_rule;
  for (uint32_t i = g->nparams; i-- > 0;) {
    uint64_t card = type_card(g->params[i].type);
    enc[i] = card == UINT64_MAX ? b : b % card;
    b = card == UINT64_MAX ? 0 : b / card;
  }
}

static const char *group_name(const McrtRuleGroup *g, bool init) {
  if (g && g->name && *g->name)
    return g->name;
  return init ? "init" : "?";
}

void mcrt_print_rule(FILE *f, const McrtModel *m, bool init, uint64_t rule) {
  const McrtRuleGroup *g = mcrt_rule_group(m, init, rule);
  if (init)
    fputs(g && g->name && *g->name ? "init " : "init", f);
  if (!g) {
    fprintf(f, "%s#%" PRIu64, init ? "" : "rule", rule);
    return;
  }
  if (g->name && *g->name)
    fputs(g->name, f);
  if (g->nparams == 0)
    return;
  uint64_t *enc = calloc(g->nparams, sizeof *enc);
  if (!enc)
    mcrt_die("out of memory");
  decode_params(g, rule, enc);
  fputc('(', f);
  for (uint32_t i = 0; i < g->nparams; i++) {
    fprintf(f, "%s%s=", i ? ", " : "", g->params[i].name);
    print_enc(f, g->params[i].type, enc[i], false);
  }
  fputc(')', f);
  free(enc);
}

// `"action": NAME, "init": true, "rule": N, "params": {...}` (no "init"
// for an action, no "rule" without with_rule: a trail names steps alone).
static void print_rule_json(FILE *f, const McrtModel *m, bool init, uint64_t rule,
                            bool with_rule) {
  const McrtRuleGroup *g = mcrt_rule_group(m, init, rule);
  fputs("\"action\": ", f);
  mcrt_print_json_string(f, group_name(g, init));
  if (init)
    fputs(", \"init\": true", f);
  if (with_rule)
    fprintf(f, ", \"rule\": %" PRIu64, rule);
  fputs(", \"params\": {", f);
  if (g && g->nparams) {
    uint64_t *enc = calloc(g->nparams, sizeof *enc);
    if (!enc)
      mcrt_die("out of memory");
    decode_params(g, rule, enc);
    for (uint32_t i = 0; i < g->nparams; i++) {
      if (i)
        fputs(", ", f);
      mcrt_print_json_string(f, g->params[i].name);
      fputs(": ", f);
      print_enc(f, g->params[i].type, enc[i], true);
    }
    free(enc);
  }
  fputc('}', f);
}

void mcrt_print_rule_json(FILE *f, const McrtModel *m, bool init, uint64_t rule) {
  print_rule_json(f, m, init, rule, true);
}

void mcrt_print_step_name_json(FILE *f, const McrtModel *m, bool init, uint64_t rule) {
  print_rule_json(f, m, init, rule, false);
}

void mcrt_print_state_json(FILE *f, const McrtModel *m, const uint8_t *state) {
  print_state_json(f, m, state);
}

// ---------------------------------------------------------------------------
// Watches (`watch NAME: EXPR;`, mcgen -W): evaluated on each state a
// trace shows (the search never evaluates them).

// Evaluates watch i in the state into a buffer of its own (malloc'd);
// NULL after a run-time error of the spec (ctx->err says which, until the
// caller clears it).
static uint8_t *watch_value(McrtCtx *ctx, uint32_t i, const uint8_t *state) {
  const McrtType *t = ctx->model->watches[i].type;
  uint8_t *buf = calloc(1, t->width / 8 + 1 + MCRT_SLACK);
  if (!buf)
    mcrt_die("out of memory");
  bool was = ctx->replaying;
  ctx->replaying = true; // (a watch never emits a state)
  bool ok = ctx->model->watch(ctx, i, state, buf) && !mcrt_failed(ctx);
  ctx->replaying = was;
  if (ok)
    return buf;
  free(buf);
  return NULL;
}

// Watch i's value in the state, or `(error: MESSAGE)` when it fails there.
// The error slot is left as it was (a replay may hold its violation there).
static void print_watch(FILE *f, McrtCtx *ctx, uint32_t i, const uint8_t *state, bool json) {
  McrtError held = ctx->err;
  mcrt_clear_error(ctx);
  uint8_t *v = watch_value(ctx, i, state);
  const McrtType *t = ctx->model->watches[i].type;
  if (v && json)
    mcrt_print_value_json(f, t, v, 0);
  else if (v)
    mcrt_print_value(f, t, v, 0);
  else if (json) {
    fputs("{\"error\": ", f);
    mcrt_print_json_string(f, ctx->err.message);
    fputc('}', f);
  } else
    fprintf(f, "(error: %s)", ctx->err.message);
  ctx->err = held;
  free(v);
}

// Every watch of the model in the state, on a line `    watch: a = 1, b = 2`.
static void print_watches(FILE *f, McrtCtx *ctx, const uint8_t *state) {
  const McrtModel *m = ctx->model;
  for (uint32_t i = 0; i < m->nwatches; i++) {
    fprintf(f, "%s%s = ", i ? ", " : "    watch: ", m->watches[i].name);
    print_watch(f, ctx, i, state, false);
  }
  if (m->nwatches)
    fputc('\n', f);
}

// The same as the JSON member `, "watches": {...}` (nothing without watches).
static void print_watches_json(FILE *f, McrtCtx *ctx, const uint8_t *state) {
  const McrtModel *m = ctx->model;
  for (uint32_t i = 0; i < m->nwatches; i++) {
    fputs(i ? ", " : ", \"watches\": {", f);
    mcrt_print_json_string(f, m->watches[i].name);
    fputs(": ", f);
    print_watch(f, ctx, i, state, true);
  }
  if (m->nwatches)
    fputc('}', f);
}

// ---------------------------------------------------------------------------
// Traces: walk the log back, replay forward.

// Under symmetry reduction a trace that cannot be replayed is most likely
// the spec's fault (it tells scalarset elements apart, which only --symmetry
// verify can see), so the message says so rather than blame mcgen alone;
// likewise when the spec calls C: the C may not be deterministic (mcgen's
// check can be bypassed by `trusted`, or miss what C does behind it).
static void replay_mismatch(McrtCtx *ctx, FILE *f, size_t step, const char *what) {
  ctx->internal_error = true;
  fprintf(f, "%s: trace replay: step %zu: %s\n", ctx->model->nextern ? "error" : "internal error",
          step, what);
  if (ctx->unreduced)
    fprintf(stderr, "error: trace replay under symmetry reduction: step %zu: %s (the spec "
                    "does not treat the scalarset elements alike: see the comparison)\n",
            step, what);
  else if (ctx->sym) {
    fprintf(stderr, "error: trace replay under symmetry reduction: step %zu: %s (either the "
                    "spec tells scalarset elements apart in a way the compiler's symmetry rules "
                    "missed: check with --symmetry verify; ",
            step, what);
    if (ctx->model->nextern) {
      fputs("or the run is not deterministic in ", stderr);
      mcrt_print_extern_cause(stderr, ctx->model);
      fputs("; ", stderr);
    }
    fputs("or a bug in mcgen)\n", stderr);
  } else if (ctx->model->nextern) {
    fprintf(stderr, "error: trace replay: step %zu: %s: the run is not deterministic, most "
                    "likely in ", step, what);
    mcrt_print_extern_cause(stderr, ctx->model);
    fputs(": a C function that keeps state between calls or reads what changes (a trusted "
          "one first); else a bug in mcgen\n", stderr);
  } else
    fprintf(stderr, "internal error: trace replay: step %zu: %s (a bug in mcgen: the "
                    "generated code is not deterministic)\n",
            step, what);
}

// Whether the search found the state (under symmetry: its class).
static bool in_set(const McrtCtx *ctx, const uint8_t *s) {
  if (ctx->sym) {
    mcrt_sym_canon(ctx->sym, s, ctx->canon);
    s = ctx->canon;
  }
  return mcrt_fpset_contains(&ctx->set, mcrt_fingerprint(s, ctx->state_bytes, ctx->fp_bits));
}

static void print_error_location(FILE *f, const McrtError *e) {
  if (e->file)
    fprintf(f, " (%s:%d:%d)", e->file, e->line, e->col);
}

size_t mcrt_violation_path(McrtCtx *ctx, uint64_t **path, uint64_t *step_rule, FILE *f) {
  const McrtViolation *v = &ctx->viol;
  size_t n = 0;
  *path = NULL;
  *step_rule = v->step_rule;
  if (v->path) { // liveness, --simulate, --search odpor: the rules themselves
    n = v->npath;
    *path = malloc((n ? n : 1) * sizeof **path);
    if (!*path)
      mcrt_die("out of memory");
    memcpy(*path, v->path, n * sizeof **path);
  } else if (v->state != MCRT_NO_STATE) {
    n = mcrt_path_to(ctx, v->state, path);
    // Under symmetry the log leads through canonical states: turn it into a
    // genuine execution first (symmetry.c).
    if (ctx->sym && !mcrt_sym_realize(ctx, *path, n, v->has_step && !v->step_init, step_rule)) {
      if (f)
        replay_mismatch(ctx, f, 0,
                        "no execution of the spec follows the symmetry classes the search found");
      n = 0;
    }
  }
  return n;
}

// One step of a text trace: its number, rule and the state after it (the
// values that changed, or every value under --trace-style full).
void mcrt_print_step_text(FILE *f, McrtCtx *ctx, size_t i, bool init, uint64_t rule,
                          const uint8_t *before, const uint8_t *after) {
  fprintf(f, "%zu ", i);
  mcrt_print_rule(f, ctx->model, init, rule);
  fputc('\n', f);
  mcrt_print_state(f, ctx->model, after, init || ctx->opt->trace_full ? NULL : before, "    ");
  print_watches(f, ctx, after);
}

void mcrt_print_step_json(FILE *f, McrtCtx *ctx, bool init, uint64_t rule,
                          const uint8_t *after) {
  fputc('{', f);
  print_rule_json(f, ctx->model, init, rule, true);
  fputs(", \"state\": ", f);
  print_state_json(f, ctx->model, after);
  print_watches_json(f, ctx, after);
  fputc('}', f);
}

void mcrt_print_loop_marks(FILE *f, int64_t loop_start, bool stutter, size_t i, size_t n) {
  if (loop_start < 0)
    return;
  if ((int64_t)i == loop_start)
    fprintf(f, stutter ? "---- loop: state %zu has no successor and repeats for ever ----\n"
                       : "---- loop starts here: the steps below return to state %zu ----\n",
            i);
  if (i + 1 == n && !stutter)
    fprintf(f, "---- back to state %lld: the loop repeats for ever ----\n", (long long)loop_start);
}

// Replays the n rules of path from an initial state and prints each step
// (JSON: as array elements after *sep), checking that each state is one the
// search met and that a lasso's loop (v) returns to its first state. a
// holds the last state at the end. False after a mismatch (reported).
static bool replay_steps(FILE *f, McrtCtx *ctx, const uint64_t *path, size_t n,
                         const McrtViolation *v, bool json, const char **sep, uint8_t **a) {
  size_t bytes = ctx->state_bytes + MCRT_SLACK;
  uint8_t *b = calloc(1, bytes), *loop = calloc(1, bytes);
  if (!b || !loop)
    mcrt_die("out of memory");
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++) {
    bool init = i == 0;
    if (!mcrt_replay_step(ctx, init, path[i], *a, b) || !in_set(ctx, b)) {
      replay_mismatch(ctx, json ? stderr : f, i,
                      mcrt_failed(ctx) ? ctx->err.message : "the state is not the one the search found");
      ok = false;
      break;
    }
    if (json) {
      fputs(*sep, f);
      mcrt_print_step_json(f, ctx, init, path[i], b);
      *sep = ", ";
    } else {
      mcrt_print_step_text(f, ctx, i, init, path[i], *a, b);
      if (v)
        mcrt_print_loop_marks(f, v->loop_start, v->stutter, i, n);
    }
    if (v && (int64_t)i == v->loop_start)
      memcpy(loop, b, ctx->state_bytes);
    if (v && i + 1 == n && v->loop_start >= 0 && memcmp(loop, b, ctx->state_bytes) != 0) {
      replay_mismatch(ctx, json ? stderr : f, i, "the cycle does not return to its first state");
      ok = false;
    }
    uint8_t *t = *a;
    *a = b, b = t;
  }
  free(b);
  free(loop);
  return ok;
}

// The violation's failing step (a run-time error or assert in a rule),
// from state a, replayed and printed as step n.
static void replay_failing_step(FILE *f, McrtCtx *ctx, size_t n, uint64_t step_rule,
                                const uint8_t *a, bool json, const char *sep) {
  const McrtModel *m = ctx->model;
  const McrtViolation *v = &ctx->viol;
  uint8_t *b = calloc(1, ctx->state_bytes + MCRT_SLACK);
  if (!b)
    mcrt_die("out of memory");
  // A call of C that timed out is not made again: it would wait as long
  // (under MPI the rank that replays may not be the one that waited).
  bool failed = v->timed_out;
  if (!failed)
    failed = !mcrt_replay_step(ctx, v->step_init, step_rule, a, b) && mcrt_failed(ctx);
  else
    ctx->err = (McrtError){.set = true, .file = v->file, .line = v->line, .col = v->col};
  if (json) {
    fprintf(f, "%s{", sep);
    print_rule_json(f, m, v->step_init, step_rule, true);
    fputs(", \"state\": null, \"error\": ", f);
    mcrt_print_json_string(f, v->message);
    fputc('}', f);
  } else {
    fprintf(f, "%zu ", n);
    mcrt_print_rule(f, m, v->step_init, step_rule);
    fprintf(f, "\n    %s: %s", v->kind == MCRT_VIOL_ASSERT ? "assert failed" : "error",
            v->message);
    print_error_location(f, &ctx->err);
    fputc('\n', f);
  }
  if (!failed)
    replay_mismatch(ctx, stderr, n, "the failing step did not fail again");
  free(b);
}

// Replays the violation's trace and prints it, as text or JSON steps.
static void replay_trace(FILE *f, McrtCtx *ctx, bool json) {
  const McrtViolation *v = &ctx->viol;
  uint64_t *path, step_rule;
  size_t n = mcrt_violation_path(ctx, &path, &step_rule, json ? stderr : f);
  uint8_t *a = calloc(1, ctx->state_bytes + MCRT_SLACK);
  if (!a)
    mcrt_die("out of memory");
  const char *sep = "";
  if (json)
    fputc('[', f);
  bool ok = replay_steps(f, ctx, path, n, v, json, &sep, &a) && !ctx->internal_error;
  if (v->has_step && ok)
    replay_failing_step(f, ctx, n, step_rule, a, json, sep);
  if (json)
    fputc(']', f);
  mcrt_clear_error(ctx);
  free(a);
  free(path);
}

// Replays the n rules of path into state (false: one does not apply).
static bool replay_quietly(McrtCtx *ctx, const uint64_t *path, size_t n, uint8_t *state) {
  uint8_t *before = calloc(1, ctx->state_bytes + MCRT_SLACK);
  if (!before)
    mcrt_die("out of memory");
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++) {
    memcpy(before, state, ctx->state_bytes);
    ok = mcrt_replay_step(ctx, i == 0, path[i], before, state);
  }
  mcrt_clear_error(ctx);
  free(before);
  return ok;
}

// "p=Proc_1, q=Proc_2".
static void print_binding(FILE *f, const McrtViolation *v) {
  for (uint32_t i = 0; i < v->nbinding; i++) {
    fprintf(f, "%s%s=", i ? ", " : "", v->binding[i].name);
    print_enc(f, v->binding[i].type, v->binding[i].encoding, false);
  }
}

static int32_t invariant_index(const McrtModel *m, const char *name) {
  for (uint32_t i = 0; name && i < m->ninvariants; i++)
    if (!strcmp(m->invariants[i].name, name))
      return (int32_t)i;
  return -1;
}

static McrtCtx *shown(McrtCtx *ctx);

void mcrt_name_binding(McrtCtx *run) {
  McrtCtx *ctx = run->has_violation ? shown(run) : NULL;
  const McrtModel *m = run->model;
  McrtViolation *v = ctx ? &ctx->viol : NULL;
  int32_t k = v && v->kind == MCRT_VIOL_INVARIANT ? invariant_index(m, v->name) : -1;
  if (k < 0 || v->nbinding || !m->check_invariant) // (a model built by hand in a test)
    return;
  uint64_t *path, step_rule;
  // (A trace that does not replay is reported when it is printed.)
  size_t n = mcrt_violation_path(ctx, &path, &step_rule, NULL);
  uint8_t *state = calloc(1, ctx->state_bytes + MCRT_SLACK);
  if (!state)
    mcrt_die("out of memory");
  ctx->nwitness = 0;
  if (n && replay_quietly(ctx, path, n, state) && !m->check_invariant(ctx, (uint32_t)k, state) &&
      !mcrt_failed(ctx)) {
    memcpy(v->binding, ctx->witness, ctx->nwitness * sizeof *v->binding);
    v->nbinding = ctx->nwitness;
  }
  mcrt_clear_error(ctx);
  free(state);
  free(path);
  char *text = NULL;
  size_t len = 0;
  FILE *f = v->nbinding ? open_memstream(&text, &len) : NULL;
  if (f) {
    fputs(" for ", f);
    print_binding(f, v);
    fclose(f);
    size_t have = strlen(v->message);
    snprintf(v->message + have, sizeof v->message - have, "%s", text);
  }
  free(text);
}

void mcrt_print_run(void *arg, McrtCtx *ctx, uint64_t run, const uint64_t *path, size_t n) {
  FILE *f = arg;
  fprintf(f, "== run %" PRIu64 ": %zu step%s\n", run + 1, n - 1, n == 2 ? "" : "s");
  uint8_t *a = calloc(1, ctx->state_bytes + MCRT_SLACK);
  if (!a)
    mcrt_die("out of memory");
  const char *sep = "";
  replay_steps(f, ctx, path, n, NULL, false, &sep, &a);
  mcrt_clear_error(ctx);
  free(a);
}

// Whether action i was ever enabled: it fired, or it is the failing step of
// the violation (a run-time error or assert inside its body or guard).
static bool enabled_ever(const McrtCtx *ctx, uint32_t i) {
  const McrtModel *m = ctx->model;
  if (ctx->fired[i])
    return true;
  const McrtViolation *v = &ctx->viol;
  if (!ctx->has_violation || !v->has_step || v->step_init)
    return false;
  return mcrt_rule_group(m, false, v->step_rule) == &m->actions[i];
}

void mcrt_violation_headline(FILE *f, const McrtViolation *v) {
  switch (v->kind) {
  case MCRT_VIOL_ASSERT:
    fprintf(f, "assert failed: %s", v->message);
    break;
  case MCRT_VIOL_RUNTIME_ERROR:
    fprintf(f, "run-time error: %s", v->message);
    break;
  default:
    fputs(v->message, f);
  }
  if (v->file && v->col)
    fprintf(f, " (%s:%d:%d)", v->file, v->line, v->col);
  else if (v->file)
    fprintf(f, " (%s:%d)", v->file, v->line);
}

static void print_violation_json(FILE *f, McrtCtx *ctx) {
  const McrtViolation *v = &ctx->viol;
  fputs("{\"kind\": ", f);
  mcrt_print_json_string(f, mcrt_violation_kind_name(v->kind));
  fputs(", \"name\": ", f);
  if (v->name)
    mcrt_print_json_string(f, v->name);
  else
    fputs("null", f);
  fputs(", \"message\": ", f);
  mcrt_print_json_string(f, v->message);
  if (v->file) {
    fputs(", \"file\": ", f);
    mcrt_print_json_string(f, v->file);
    fprintf(f, ", \"line\": %d, \"col\": %d", v->line, v->col);
  }
  if (v->nbinding) {
    fputs(", \"binding\": {", f);
    for (uint32_t i = 0; i < v->nbinding; i++) {
      fputs(i ? ", " : "", f);
      mcrt_print_json_string(f, v->binding[i].name);
      fputs(": ", f);
      print_enc(f, v->binding[i].type, v->binding[i].encoding, true);
    }
    fputc('}', f);
  }
  fputs(", \"trace\": ", f);
  replay_trace(f, ctx, true);
  if (v->loop_start >= 0)
    fprintf(f, ", \"loop_start\": %lld, \"stutter\": %s}", (long long)v->loop_start,
            v->stutter ? "true" : "false");
  else
    fputs(", \"loop_start\": null}", f);
}

static void print_trace(FILE *f, McrtCtx *ctx);

// The run whose violation and trace are shown: the full graph's bounded
// search when it found the shortest trace (main.c's find_shortest).
static McrtCtx *shown(McrtCtx *ctx) {
  return ctx->shortest_status == MCRT_SHORTEST_FOUND ? ctx->shortest : ctx;
}

const McrtViolation *mcrt_shown_violation(const McrtCtx *ctx) {
  return ctx->shortest_status == MCRT_SHORTEST_FOUND ? &ctx->shortest->viol : &ctx->viol;
}

void mcrt_print_trace(FILE *f, McrtCtx *run) {
  if (!run->has_violation)
    return;
  McrtCtx *ctx = shown(run);
  print_trace(f, ctx);
  run->internal_error |= ctx->internal_error; // a replay that failed is the run's error
}

void mcrt_print_trace_json(FILE *f, McrtCtx *run) {
  if (!run->has_violation) {
    fputs("null\n", f);
    return;
  }
  McrtCtx *ctx = shown(run);
  print_violation_json(f, ctx);
  fputc('\n', f);
  run->internal_error |= ctx->internal_error;
}

static void print_trace(FILE *f, McrtCtx *ctx) {
  fputs("violation: ", f);
  mcrt_violation_headline(f, &ctx->viol);
  fputc('\n', f);
  if (ctx->viol.state != MCRT_NO_STATE || ctx->viol.has_step)
    replay_trace(f, ctx, false);
}

// ---------------------------------------------------------------------------
// Verdict and summary.

const char *mcrt_bound_name(McrtBound b) {
  switch (b) {
  case MCRT_BOUND_NONE: return NULL;
  case MCRT_BOUND_MAX_STATES: return "max-states";
  case MCRT_BOUND_MAX_STEPS: return "max-steps";
  case MCRT_BOUND_MAX_DEPTH: return "max-depth";
  case MCRT_BOUND_MEMORY: return "memory";
  case MCRT_BOUND_INTERRUPTED: return "interrupted";
  case MCRT_BOUND_NET_CAPACITY: return "net-capacity";
  case MCRT_BOUND_CYCLE: return "cycle";
  case MCRT_BOUND_DISK: return "disk";
  case MCRT_BOUND_SIMULATION: return "simulation";
  }
  return NULL;
}

const char *mcrt_violation_kind_name(McrtViolationKind k) {
  switch (k) {
  case MCRT_VIOL_INVARIANT: return "invariant";
  case MCRT_VIOL_ASSERT: return "assert";
  case MCRT_VIOL_DEADLOCK: return "deadlock";
  case MCRT_VIOL_RUNTIME_ERROR: return "runtime-error";
  case MCRT_VIOL_REACHABLE: return "reachable";
  case MCRT_VIOL_LIVENESS: return "liveness";
  case MCRT_VIOL_NO_INITIAL_STATE: return "no-initial-state";
  }
  return "?";
}

int mcrt_exit_code(const McrtCtx *ctx) {
  if (ctx->internal_error)
    return MCRT_EXIT_USAGE;
  if (ctx->has_violation)
    return MCRT_EXIT_VIOLATION;
  if (ctx->bound != MCRT_BOUND_NONE)
    return MCRT_EXIT_INCOMPLETE;
  return MCRT_EXIT_OK;
}

const char *mcrt_verdict_word(int exit_code) {
  switch (exit_code) {
  case MCRT_EXIT_OK: return "ok";
  case MCRT_EXIT_VIOLATION: return "violation";
  case MCRT_EXIT_INCOMPLETE: return "incomplete";
  default: return "error";
  }
}

// --disk (runtime/store/disk.c): the file that failed, the bytes on disk, RAM and
// disk bytes per state; nothing without --disk.
static void print_disk_failure(FILE *f, const McrtCtx *ctx) {
  const McrtDiskFile *d = mcrt_disk_failure(ctx->disk);
  if (d)
    fprintf(f, "--disk: cannot %s %s: %s", d->op, d->path, strerror(d->err));
}

static void print_disk_summary(FILE *f, const McrtCtx *ctx) {
  if (!ctx->disk)
    return;
  uint64_t disk = mcrt_disk_bytes(ctx->disk);
  fputs("disk:          ", f);
  mcrt_fprint_bytes(f, (double)disk);
  fprintf(f, " in %s at the end (trace log ", ctx->opt->disk_dir);
  mcrt_fprint_bytes(f, (double)ctx->disk->log.size);
  fputs(", frontier ", f);
  mcrt_fprint_bytes(f, (double)(ctx->disk->frontier.size - ctx->disk->frontier.released));
  fputs(")\n", f);
  if (ctx->states >= 100000)
    fprintf(f, "bytes/state:   %.1f in RAM, %.1f on disk\n",
            (double)mcrt_accounted_bytes(ctx) / (double)ctx->states,
            (double)disk / (double)ctx->states);
}

static void print_disk_json(FILE *f, const McrtCtx *ctx) {
  if (!ctx->disk)
    return;
  uint64_t disk = mcrt_disk_bytes(ctx->disk);
  fputs(", \"disk_dir\": ", f);
  mcrt_print_json_string(f, ctx->opt->disk_dir);
  fprintf(f, ", \"disk_bytes\": %" PRIu64 ", \"disk_log_bytes\": %" PRIu64
             ", \"disk_frontier_bytes\": %" PRIu64 ", \"ram_bytes_per_state\": %.2f"
             ", \"disk_bytes_per_state\": %.2f",
          disk, ctx->disk->log.size, ctx->disk->frontier.size - ctx->disk->frontier.released,
          ctx->states ? (double)mcrt_accounted_bytes(ctx) / (double)ctx->states : 0.0,
          ctx->states ? (double)disk / (double)ctx->states : 0.0);
  const McrtDiskFile *d = mcrt_disk_failure(ctx->disk);
  if (d) {
    fprintf(f, ", \"disk_error\": {\"op\": \"%s\", \"path\": ", d->op);
    mcrt_print_json_string(f, d->path);
    fputs(", \"reason\": ", f);
    mcrt_print_json_string(f, strerror(d->err));
    fputc('}', f);
  }
}

static void print_bound(FILE *f, const McrtCtx *ctx) {
  const McrtOptions *o = ctx->opt;
  switch (ctx->bound) {
  case MCRT_BOUND_MAX_STATES:
    if (ctx->log_full)
      fprintf(f, "the trace log's limit of %" PRIu64 " states was reached", MCRT_LOG_MAX_STATES);
    else
      fprintf(f, "--max-states %" PRIu64 " was reached", o->max_states);
    break;
  case MCRT_BOUND_MAX_STEPS:
    fprintf(f, "--max-steps %" PRIu64 " was reached", o->max_steps);
    break;
  case MCRT_BOUND_MAX_DEPTH:
    fprintf(f, "--max-depth %" PRIu64 " was reached with successors left unexplored", o->max_depth);
    break;
  case MCRT_BOUND_MEMORY:
    if (o->memory == MCRT_UNLIMITED) {
      fputs("the system refused more memory", f);
    } else {
      fputs("the --memory limit of ", f);
      mcrt_fprint_bytes(f, (double)o->memory);
      fputs(" was reached", f);
      if (ctx->states == 0) { // e.g. --disk's buffers: say what a bound must leave room for
        fputs(" before the first state was stored: the search's first tables and buffers do "
              "not fit in it (", f);
        mcrt_fprint_bytes(f, (double)ctx->peak_bytes);
        fputs(" were accounted when the next would have passed it)", f);
      }
    }
    break;
  case MCRT_BOUND_INTERRUPTED:
    fprintf(f, "%sinterrupted by %s",
            ctx->bound_phase == MCRT_PHASE_SEARCH ? "the search was " : "",
            mcrt_signal_name(ctx->bound_signal));
    break;
  case MCRT_BOUND_NET_CAPACITY:
    fputs("a place's counter could not hold the tokens a transition would put there "
          "(no proven bound): markings past it are not explored", f);
    break;
  case MCRT_BOUND_CYCLE:
    fputs("an execution returned to a state it had passed (the state space has a cycle): "
          "--search odpor needs an acyclic state space, or --max-depth", f);
    break;
  case MCRT_BOUND_DISK:
    print_disk_failure(f, ctx);
    break;
  case MCRT_BOUND_SIMULATION:
    fprintf(f, "--simulate walked %" PRIu64 " random runs of up to %" PRIu64 " steps: not a proof",
            o->sim_runs, o->sim_depth);
    break;
  case MCRT_BOUND_NONE:
    break;
  }
}

// Whether f gets colour: --color always, or auto on a terminal without
// NO_COLOR (set and not empty, as no-color.org has it), never under mpirun
// (mcrt_launched): Open MPI hands each rank's stdout a pseudo-terminal of
// its own, whatever mpirun's stdout is, so isatty() says nothing there.
static bool colored(FILE *f, const McrtOptions *opt) {
  if (opt->color != MCRT_COLOR_AUTO)
    return opt->color == MCRT_COLOR_ALWAYS;
  const char *no_color = getenv("NO_COLOR");
  int fd = fileno(f);
  return !(no_color && *no_color) && !mcrt_launched() && fd >= 0 && isatty(fd);
}

void mcrt_print_result(FILE *f, const McrtOptions *opt, int exit_code) {
  const char *word = mcrt_verdict_word(exit_code);
  if (!colored(f, opt)) {
    fprintf(f, "result: %s: ", word);
    return;
  }
  const char *sgr = exit_code == MCRT_EXIT_OK           ? "32"   // green
                    : exit_code == MCRT_EXIT_INCOMPLETE ? "33"   // yellow
                                                        : "1;31"; // bold red
  fprintf(f, "result: \033[%sm%s\033[0m: ", sgr, word);
}

static void print_verdict(FILE *f, const McrtCtx *ctx) {
  const McrtModel *m = ctx->model;
  int code = mcrt_exit_code(ctx);
  mcrt_print_result(f, ctx->opt, code);
  switch (code) {
  case MCRT_EXIT_OK:
    if (m->nproperties && !mcrt_liveness_done(ctx))
      fprintf(f, "no safety violation (exhaustive search); %u liveness propert%s not "
                 "checked (--liveness off)", m->nproperties, m->nproperties == 1 ? "y was" : "ies were");
    else
      fputs("no violations, every property holds (exhaustive search)", f);
    break;
  case MCRT_EXIT_VIOLATION:
    mcrt_violation_headline(f, mcrt_shown_violation(ctx));
    break;
  case MCRT_EXIT_INCOMPLETE:
    print_bound(f, ctx);
    switch (ctx->bound_phase) {
    case MCRT_PHASE_SEARCH:
      fputs("; no violation found so far, the search is not exhaustive", f);
      if (ctx->live && m->ninstances)
        fputs("; no liveness verdict (it needs the whole state graph)", f);
      break;
    case MCRT_PHASE_LIVENESS:
      fputs(" during the liveness check; the state search was exhaustive and found no safety "
            "violation; no liveness verdict",
            f);
      break;
    case MCRT_PHASE_END:
      fputs(" after the search had ended, as the result was settled; no violation was found",
            f);
      break;
    }
    break;
  default:
    if (ctx->io_error)
      fputs("the results could not be written (see stderr)", f);
    else if (ctx->model->nextern)
      fputs("the run was not deterministic, most likely in the C the spec calls (see above)", f);
    else
      fputs("internal error while replaying the trace (see above)", f);
  }
  fputc('\n', f);
}

static uint64_t peak_rss_bytes(void) {
  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) != 0)
    return 0;
  return (uint64_t)ru.ru_maxrss * 1024;
}

// BFS levels as BEEM counts them (stat_bfs_levels): the initial level is
// one, so depth + 1 (0 with no states).
static uint64_t bfs_levels(const McrtCtx *ctx) { return ctx->states ? ctx->depth + 1 : 0; }

// The summary suggests 128-bit fingerprints above this probability.
#define MCRT_COLLISION_WARN 1e-3

// The probability of at least one collision among the states stored, n^2 /
// 2^(b+1) for b-bit fingerprints (the birthday bound; a collision omits a
// state).
static double birthday_bound(uint64_t states, unsigned bits) {
  double n = (double)states;
  double p = n * n / ldexp(1.0, (int)bits + 1);
  return p > 1 ? 1 : p;
}

static double collision_probability(const McrtCtx *ctx) {
  return birthday_bound(ctx->states, ctx->fp_bits);
}

void mcrt_fprint_collision(FILE *f, uint64_t states, unsigned bits) {
  double p = birthday_bound(states, bits);
  fprintf(f, "estimated collision probability %.3g", p);
  if (bits == 64 && p > MCRT_COLLISION_WARN)
    fputs(", above 1e-3: use --fingerprint 128", f);
}

// The liveness check's outcome: a word for the report, a phrase for people.
static const char *liveness_status(const McrtCtx *ctx) {
  if (!ctx->model->nproperties && !ctx->live)
    return "no-properties";
  if (!ctx->live)
    return "skipped";
  if (ctx->bound != MCRT_BOUND_NONE && ctx->bound_phase == MCRT_PHASE_LIVENESS)
    return "stopped";
  if (!mcrt_liveness_done(ctx))
    return "not-checked";
  return ctx->has_violation ? "violated" : "ok";
}

static const char *liveness_status_text(const McrtCtx *ctx) {
  const char *s = liveness_status(ctx);
  if (!strcmp(s, "skipped"))
    return "skipped (--liveness off)";
  if (!strcmp(s, "stopped"))
    return "stopped before its end (see result), after an exhaustive search: no verdict";
  if (!strcmp(s, "not-checked"))
    return ctx->has_violation ? "not checked: a safety violation came first"
                              : "not checked: the search stopped early, no verdict";
  if (!strcmp(s, "violated"))
    return "checked under fairness, one does not hold (above)";
  return ctx->model->ninstances ? "checked under fairness, all hold" : "edges recorded, nothing to check";
}

// Whether the states and transitions of the summary are a reduced graph's:
// the reduction was on and cut something (skipped or never reducing, the
// graph is the full one).
static bool por_reduced(const McrtPorStats *s) { return s->on && !s->futile && s->reduced; }

static const char *por_mode_name(McrtPorMode mode) {
  return mode == MCRT_POR_ON ? "on" : mode == MCRT_POR_OFF ? "off" : "auto";
}

// The summary's partial-order reduction line: the states and transitions
// above are the reduced graph's (a --por off run gives the full one's). Off
// by --por off it says nothing; off by default, why.
static void print_por(FILE *f, const McrtCtx *ctx) {
  McrtPorStats s = mcrt_por_stats(ctx);
  if (!s.on) {
    if (ctx->opt->por_off_why)
      fprintf(f, "por:           off (%s)\n", ctx->opt->por_off_why);
    else if (ctx->por_futile)
      fprintf(f, "por:           off (%s, so no state can be reduced)\n",
              ctx->por_futile);
    return;
  }
  if (s.futile) {
    fprintf(f, "por:           skipped: %s, so no state can be reduced; every state was "
               "expanded fully (the full graph)\n",
            s.futile);
    return;
  }
  fprintf(f, "por:           on: %" PRIu64 " expansions reduced, %" PRIu64 " full; %" PRIu64
             " enabled action bindings pruned",
          s.reduced, s.full, s.pruned);
  if (s.skipped) // the sampling (por.c) backed off somewhere
    fprintf(f, "; %" PRIu64 " of the full expansions did not try the closures (sampled: they "
               "reduced rarely, or little for their cost)",
            s.skipped);
  if (s.retired) // --por auto gave it up (por.c, sample_period)
    fprintf(f, "; retired at depth %" PRIu64 " (the sampled closures had not paid even at "
               "the largest period: every state from there on was expanded fully)",
            s.retired_depth);
  if (por_reduced(&s))
    fputs(" (states and transitions above are the reduced graph's; --por off for the full "
          "graph)\n",
          f);
  else
    fputs(" (nothing was reduced: the full graph)\n", f);
}

static void print_por_json(FILE *f, const McrtCtx *ctx) {
  McrtPorStats s = mcrt_por_stats(ctx);
  fprintf(f, ",\n \"por\": \"%s\", \"por_mode\": \"%s\", \"por_reduced_graph\": %s",
          s.on ? "on" : "off", por_mode_name(ctx->opt->por_mode),
          por_reduced(&s) ? "true" : "false");
  const char *off_why = ctx->opt->por_off_why ? ctx->opt->por_off_why : ctx->por_futile;
  if (!s.on && off_why) {
    fputs(", \"por_off_reason\": ", f);
    mcrt_print_json_string(f, off_why);
  }
  if (s.on && s.futile)
    fprintf(f, ", \"por_skipped\": \"%s\"", s.futile);
  else if (s.on)
    fprintf(f, ", \"por_reduced_expansions\": %" PRIu64 ", \"por_full_expansions\": %" PRIu64
               ", \"por_pruned_rules\": %" PRIu64 ", \"por_skipped_expansions\": %" PRIu64,
            s.reduced, s.full, s.pruned, s.skipped);
  if (s.on && s.retired)
    fprintf(f, ", \"por_retired_depth\": %" PRIu64, s.retired_depth);
}

// The summary's symmetry line.
static void print_symmetry(FILE *f, const McrtCtx *ctx) {
  const McrtModel *m = ctx->model;
  const McrtSym *sy = ctx->sym;
  if (m->symmetry_refused) {
    fprintf(f, "symmetry:      off: %s\n", m->symmetry_refused);
  } else if (sy) {
    fprintf(f, "symmetry:      on: one state per class of scalarset permutations (");
    for (uint32_t k = 0; k < m->nsym; k++)
      fprintf(f, "%s%s %u", k ? ", " : "", m->sym[k].name, m->sym[k].size);
    fprintf(f, "); %s canonical forms, %.2f permutations tried per state\n",
            mcrt_sym_method_name(sy->method),
            sy->calls ? (double)sy->candidates / (double)sy->calls : 0.0);
  } else if (m->nsym > 0) {
    fputs("symmetry:      off (states are not reduced by scalarset permutations)\n", f);
  } else if (m->nscalarsets > 0) {
    fputs("symmetry:      none (no scalarset occurs in the state)\n", f);
  }
}

// Why the full graph's search for the shortest trace gave none.
static void print_shortest_failure(FILE *f, const McrtCtx *ctx) {
  const McrtCtx *u = ctx->shortest;
  if (!u) {
    fputs("it could not be set up (see above)", f);
    return;
  }
  if (u->bound == MCRT_BOUND_NONE) {
    fputs("it found no violation (see the warning above)", f);
    return;
  }
  if (u->bound == MCRT_BOUND_MEMORY && u->opt->memory != MCRT_UNLIMITED) {
    // Its bound is what the reduced search, held for its trace, left.
    fputs("the --memory limit of ", f);
    mcrt_fprint_bytes(f, (double)ctx->opt->memory);
    fputs(" was reached (the reduced search holds ", f);
    mcrt_fprint_bytes(f, (double)(ctx->opt->memory - u->opt->memory));
    fputs(" for its trace)", f);
  } else {
    print_bound(f, u);
  }
  fprintf(f, ", after %" PRIu64 " states", u->states);
}

// The order the last level of a run of several threads ran in, as the
// report names it.
static const char *order_name(const McrtCtx *ctx) {
  return ctx->free_from == MCRT_UNLIMITED ? "fixed" : "free";
}

// The order a run of several threads ran in (threads.c, "Free order").
static void print_order(FILE *f, const McrtCtx *ctx) {
  if (ctx->free_from == MCRT_UNLIMITED)
    fputs("fixed order", f);
  else if (ctx->free_from == 0)
    fputs("free order", f);
  else
    fprintf(f, "fixed order, free from depth %" PRIu64, ctx->free_from);
}

// The summary's trace line under partial-order reduction: whether the trace
// shown is the shortest, and how it was found (main.c's find_shortest).
static void print_shortest(FILE *f, const McrtCtx *ctx) {
  const McrtCtx *u = ctx->shortest;
  switch (ctx->shortest_status) {
  case MCRT_SHORTEST_NONE:
    return;
  case MCRT_SHORTEST_FOUND:
    fprintf(f, "trace:         the shortest, depth %" PRIu64 ": partial-order reduction met a "
               "violation at depth %" PRIu64 " (%" PRIu64 " states); the full graph searched to "
               "depth %" PRIu64 " (%" PRIu64 " states, %.3f s",
            ctx->shown_trace_depth, ctx->reduced_trace_depth, ctx->states, u->opt->max_depth,
            u->states, u->time_s);
    if (u->threads > 1) { // its order, not the reduced search's (the time line's)
      fprintf(f, ", %u threads, ", u->threads);
      print_order(f, u);
    }
    fputs(") gave this trace\n", f);
    return;
  case MCRT_SHORTEST_FALLBACK:
    fprintf(f, "trace:         MAY NOT BE THE SHORTEST: it is the reduced graph's (partial-order "
               "reduction), depth %" PRIu64 "; the full graph's search to depth %" PRIu64
               " for a shorter one stopped: ",
            ctx->reduced_trace_depth, ctx->reduced_trace_depth + 1);
    print_shortest_failure(f, ctx);
    fputs("; --por off (with room for its search) prints the shortest\n", f);
    return;
  case MCRT_SHORTEST_POR_ON:
    fprintf(f, "trace:         may not be the shortest: --por on searched a reduced graph "
               "(violation at depth %" PRIu64 "); --por off, or the default --por auto, prints "
               "the shortest\n",
            ctx->reduced_trace_depth);
    return;
  }
}

static void print_shortest_json(FILE *f, const McrtCtx *ctx) {
  static const char *const status[] = {NULL, "shortest", "may-not-be-shortest",
                                       "may-not-be-shortest"};
  fputs(",\n \"shortest_trace\": ", f);
  if (ctx->shortest_status == MCRT_SHORTEST_NONE) {
    fputs("null", f);
    return;
  }
  const McrtCtx *u = ctx->shortest;
  fprintf(f, "{\"status\": \"%s\", \"trace_depth\": %" PRIu64
             ", \"reduced_trace_depth\": %" PRIu64 ", \"reduced_states\": %" PRIu64
             ", \"full_search\": ",
          status[ctx->shortest_status], ctx->shown_trace_depth, ctx->reduced_trace_depth,
          ctx->states);
  if (ctx->shortest_status == MCRT_SHORTEST_POR_ON || !u) {
    fprintf(f, "%s}", ctx->shortest_status == MCRT_SHORTEST_POR_ON ? "\"not-run\""
                                                                  : "\"not-started\"");
    return;
  }
  const char *b = mcrt_bound_name(u->bound);
  fprintf(f, "\"%s\", \"full_max_depth\": %" PRIu64 ", \"full_states\": %" PRIu64
             ", \"full_transitions\": %" PRIu64 ", \"full_time_s\": %.6f"
             ", \"full_memory_bytes\": %zu, \"full_bound_hit\": %s%s%s",
          u->has_violation ? "violation" : b ? "stopped" : "no-violation", u->opt->max_depth,
          u->states, u->transitions, u->time_s, (size_t)u->peak_bytes, b ? "\"" : "",
          b ? b : "null", b ? "\"" : "");
  if (u->threads > 1) // its order (the run's own thread_order is the reduced search's)
    fprintf(f, ", \"full_thread_order\": \"%s\"", order_name(u));
  fputc('}', f);
}

// The exports' outcomes (export.c), a line each: what the file holds, or
// why it was not written.
static void print_exports(FILE *f, const McrtCtx *ctx) {
  for (uint32_t i = 0; i < ctx->nexported; i++) {
    const McrtExported *e = &ctx->exported[i];
    fprintf(f, "export:        %s %s: %s%s\n", e->option, e->path,
            !e->written ? "NOT WRITTEN: " : e->trace_only ? "the violation's path alone: " : "",
            e->note);
  }
}

static void print_exports_json(FILE *f, const McrtCtx *ctx) {
  fputs(",\n \"exports\": [", f);
  for (uint32_t i = 0; i < ctx->nexported; i++) {
    const McrtExported *e = &ctx->exported[i];
    fprintf(f, "%s{\"kind\": \"%s\", \"path\": ", i ? ", " : "", e->option + 2);
    mcrt_print_json_string(f, e->path);
    fprintf(f, ", \"written\": %s, \"trace_only\": %s, \"error\": ",
            e->written ? "true" : "false", e->trace_only ? "true" : "false");
    if (e->written && !e->trace_only)
      fputs("null", f);
    else
      mcrt_print_json_string(f, e->note);
    fputc('}', f);
  }
  fputc(']', f);
}

// A call of C that ran past --extern-timeout ended the run at once
// (search.c): the level was not finished, so a shorter trace may exist.
static void print_timed_out(FILE *f, const McrtCtx *ctx) {
  if (ctx->has_violation && mcrt_shown_violation(ctx)->timed_out)
    fputs("trace:         may not be the shortest: a call of C ran past --extern-timeout and "
          "ended the run at once\n", f);
}

static void print_reachables(FILE *f, const McrtCtx *ctx, const char *yes, const char *no) {
  const McrtModel *m = ctx->model;
  for (uint32_t i = 0; i < m->nreachables; i++)
    fprintf(f, "reachable %s: %s\n", m->reachables[i].name, ctx->reached[i] ? yes : no);
}

// The trail's line of the summary (none without a trail).
static void print_trail(FILE *f, const McrtCtx *ctx) {
  const McrtExported *t = &ctx->trail;
  if (!t->option)
    return;
  if (t->written)
    fprintf(f, "trail:         %s (replay: %s --replay %s)\n", t->path, ctx->opt->program,
            t->path);
  else
    fprintf(f, "trail:         %s NOT WRITTEN: %s\n", t->path, t->note);
}

// The report's "trail": null, or where it went and whether it was written.
static void print_trail_json(FILE *f, const McrtCtx *ctx) {
  const McrtExported *t = &ctx->trail;
  fputs(", \"trail\": ", f);
  if (!t->option) {
    fputs("null", f);
    return;
  }
  fputs("{\"path\": ", f);
  mcrt_print_json_string(f, t->path);
  fprintf(f, ", \"written\": %s, \"error\": ", t->written ? "true" : "false");
  if (t->written)
    fputs("null", f);
  else
    mcrt_print_json_string(f, t->note);
  fputc('}', f);
}

void mcrt_print_summary(FILE *f, const McrtCtx *ctx) {
  const McrtModel *m = ctx->model;
  print_verdict(f, ctx);
  print_timed_out(f, ctx); // (a warning about the trace printed, as the fallback's)
  if (ctx->opt->quiet) {
    if (ctx->shortest_status == MCRT_SHORTEST_FALLBACK)
      print_shortest(f, ctx);
    return;
  }
  print_shortest(f, ctx);
  double per_s = ctx->time_s > 0 ? (double)ctx->states / ctx->time_s : 0;
  size_t accounted = mcrt_accounted_bytes(ctx);
  fprintf(f, "model:         %s (%s)\n", m->name, m->source_file ? m->source_file : "?");
  McrtPorStats por = mcrt_por_stats(ctx);
  fprintf(f, "states:        %" PRIu64 " distinct%s\n", ctx->states,
          por_reduced(&por) ? " (reduced by partial-order reduction; --por off for the full graph)"
                            : "");
  fprintf(f, "transitions:   %" PRIu64 " (action bindings executed, new successor or not)\n",
          ctx->transitions);
  fprintf(f, "depth:         %" PRIu64 " (initial states are at depth 0: %" PRIu64
             " BFS levels)\n",
          ctx->depth, bfs_levels(ctx));
  fprintf(f, "deadlocks:     %" PRIu64 " (states without successors%s)\n", ctx->deadlocks,
          m->has_terminal ? " where no terminal predicate holds" : "");
  if (m->is_accepting)
    fprintf(f, "accepting:     %" PRIu64 " (states where %s%s%s accepts and every accepting "
               "predicate holds)\n",
            ctx->accepting, m->scenario ? "scenario '" : "the spec", m->scenario ? m->scenario : "",
            m->scenario ? "'" : "");
  fprintf(f, "time:          %.3f s, %.0f states/s", ctx->time_s, per_s);
  if (ctx->threads > 1) {
    fprintf(f, ", %u threads (expand %.3f s, insert %.3f s, commit %.3f s)", ctx->threads,
            ctx->phase_s[0], ctx->phase_s[1], ctx->phase_s[2]);
    fputs(", ", f);
    print_order(f, ctx);
  }
  fputc('\n', f);
  fputs("memory:        ", f);
  mcrt_fprint_bytes(f, (double)ctx->peak_bytes);
  fputs(" peak accounted (fingerprint set ", f);
  mcrt_fprint_bytes(f, (double)mcrt_fpset_bytes(&ctx->set));
  fputs(", trace log ", f);
  mcrt_fprint_bytes(f, (double)mcrt_log_bytes(&ctx->log));
  fputs(", frontier ", f);
  mcrt_fprint_bytes(f, (double)mcrt_queue_bytes(&ctx->queue));
  if (ctx->live) {
    fputs(", edge table ", f);
    mcrt_fprint_bytes(f, (double)mcrt_live_bytes(ctx->live));
  }
  fputs(" at the end); peak RSS ", f);
  mcrt_fprint_bytes(f, (double)peak_rss_bytes());
  if (ctx->grow_s > 0) // (this rank's under MPI; this run's after --resume)
    fprintf(f, "; the set's growths took %.3f s", ctx->grow_s);
  fputc('\n', f);
  if (ctx->states >= 100000)
  {
    fprintf(f, "bytes/state:   %.1f (accounted memory at the end / states", (double)accounted /
                                                                              (double)ctx->states);
    if (!mcrt_engine.search) // under MPI the set here is one rank's
      fprintf(f, "; fingerprint set %.1f", (double)mcrt_fpset_bytes(&ctx->set) / (double)ctx->states);
    fputs(")\n", f);
  }
  else if (ctx->states)
    fputs("bytes/state:   n/a (under 100000 states the fixed chunk sizes dominate)\n", f);
  print_disk_summary(f, ctx);      // --disk
  mcrt_checkpoint_summary(f, ctx); // --checkpoint, --resume
  fprintf(f, "fingerprints:  %u bits, ", ctx->fp_bits);
  mcrt_fprint_collision(f, ctx->states, ctx->fp_bits);
  fputc('\n', f);
  if (m->nactions) {
    int w = 0;
    for (uint32_t i = 0; i < m->nactions; i++)
      if ((int)strlen(m->actions[i].name) > w)
        w = (int)strlen(m->actions[i].name);
    fputs("actions fired:\n", f);
    for (uint32_t i = 0; i < m->nactions; i++)
      fprintf(f, "  %-*s %" PRIu64 "\n", w, m->actions[i].name, ctx->fired[i]);
    const char *sep = "";
    for (uint32_t i = 0; i < m->nactions; i++) {
      if (!enabled_ever(ctx, i)) {
        if (!*sep)
          fputs(mcrt_exit_code(ctx) == MCRT_EXIT_OK ? "never enabled: " : "not enabled so far: ",
                f);
        fprintf(f, "%s%s", sep, m->actions[i].name);
        sep = ", ";
      }
    }
    if (*sep)
      fputc('\n', f);
  }
  print_reachables(f, ctx, "reached", "not reached");
  if (m->nproperties || ctx->live) {
    fprintf(f, "liveness:      %u propert%s (%u instance%s), %u fairness assumption%s: ",
            m->nproperties, m->nproperties == 1 ? "y" : "ies", m->ninstances,
            m->ninstances == 1 ? "" : "s", m->nfairness, m->nfairness == 1 ? "" : "s");
    fputs(liveness_status_text(ctx), f);
    if (mcrt_liveness_done(ctx))
      fprintf(f, " (%.3f s)", mcrt_liveness_time(ctx));
    fputc('\n', f);
    if (mcrt_liveness_done(ctx)) {
      const McrtLive *L = ctx->live;
      fprintf(f, "time:          liveness phases: search with edge recording %.3f s, table closing "
                 "%.3f s, SCCs and fairness %.3f s\n",
              L->search_s, L->edges_s, L->scc_s);
      fprintf(f, "edge table:    %" PRIu64 " edges, %" PRIu64 " strongly connected components "
                 "judged\n",
              L->g.nedges, L->components);
    }
  }
  print_symmetry(f, ctx);
  print_por(f, ctx);
  print_exports(f, ctx);
  print_trail(f, ctx);
  if (mcrt_engine.summary)
    mcrt_engine.summary(f, ctx);
}

// ---------------------------------------------------------------------------
// The JSON report (docs/DESIGN.md's schema; fields are only ever added).

// The JSON report's symmetry fields.
static void print_symmetry_json(FILE *f, const McrtCtx *ctx) {
  const McrtSym *sy = ctx->sym;
  fprintf(f, ",\n \"symmetry\": \"%s\"", sy ? "on" : "off");
  if (sy)
    fprintf(f, ", \"symmetry_method\": \"%s\", \"symmetry_permutations_per_state\": %.3f",
            mcrt_sym_method_name(sy->method),
            sy->calls ? (double)sy->candidates / (double)sy->calls : 0.0);
  const McrtCtx *u = ctx->unreduced;
  if (u) {
    fprintf(f, ", \"unreduced\": {\"verdict\": \"%s\", \"states\": %" PRIu64
               ", \"transitions\": %" PRIu64 ", \"violation\": %s%s%s",
            mcrt_verdict_word(mcrt_exit_code(u)), u->states, u->transitions,
            u->has_violation ? "\"" : "",
            u->has_violation ? mcrt_violation_kind_name(u->viol.kind) : "null",
            u->has_violation ? "\"" : "");
    const char *b = mcrt_bound_name(u->bound);
    fprintf(f, ", \"bound_hit\": %s%s%s}", b ? "\"" : "", b ? b : "null", b ? "\"" : "");
  }
}

// The report's "simulation" member: what was asked and walked.
static void print_simulation_json(FILE *f, const McrtSimulation *sim) {
  const McrtOptions *o = &sim->opt;
  fprintf(f, ",\n \"simulation\": {\"runs\": %" PRIu64 ", \"runs_asked\": %" PRIu64
             ", \"max_steps_per_run\": %" PRIu64 ", \"seed\": %" PRIu64 ", \"steps\": %" PRIu64
             ", \"longest_run\": %" PRIu64 ", \"proof\": false}",
          sim->runs, o->sim_runs, o->sim_depth, o->sim_seed, sim->steps, sim->ctx->depth);
}

// A string member, or null.
static void print_json_member(FILE *f, const char *key, const char *value) {
  fprintf(f, ", \"%s\": ", key);
  if (value)
    mcrt_print_json_string(f, value);
  else
    fputs("null", f);
}

// A bound of the command line: its number, or null when none was given.
static void print_json_bound(FILE *f, const char *key, uint64_t value) {
  if (value == MCRT_UNLIMITED)
    fprintf(f, ", \"%s\": null", key);
  else
    fprintf(f, ", \"%s\": %" PRIu64, key, value);
}

// The options of the run that bear on its answer or its cost, as they
// were settled (the defaults resolved).
static void print_options_json(FILE *f, const McrtCtx *ctx) {
  const McrtOptions *o = ctx->opt;
  fputs(",\n \"options\": {\"search\": ", f);
  fputs(o->search == MCRT_SEARCH_ODPOR ? "\"odpor\"" : "\"bfs\"", f);
  print_json_bound(f, "max_states", o->max_states);
  print_json_bound(f, "max_steps", o->max_steps);
  print_json_bound(f, "max_depth", o->max_depth);
  print_json_bound(f, "memory", o->memory);
  fprintf(f, ", \"deadlock\": %s, \"liveness\": %s, \"compact_set\": %s",
          o->deadlock ? "true" : "false", mcrt_liveness_wanted(ctx->model, o) ? "true" : "false",
          o->compact_set ? "true" : "false");
  print_json_member(f, "disk", o->disk_dir);
  print_json_member(f, "checkpoint", o->checkpoint_dir);
  print_json_member(f, "resume", o->resume_dir);
  fputc('}', f);
}

void mcrt_write_report(FILE *f, McrtCtx *ctx, const McrtConclusion *c) {
  const McrtModel *m = ctx->model;
  const char *bound = mcrt_bound_name(c->bound);
  fprintf(f, "{\"schema\": \"%s\", \"model\": ", MCRT_REPORT_SCHEMA);
  mcrt_print_json_string(f, m->name);
  print_json_member(f, "source_file", m->source_file);
  print_json_member(f, "c_hash", m->c_hash);
  fprintf(f, ", \"verdict\": \"%s\", \"exit_code\": %d", mcrt_verdict_word(c->exit_code),
          c->exit_code);
  fprintf(f, ",\n \"states\": %" PRIu64 ", \"transitions\": %" PRIu64 ", \"depth\": %" PRIu64,
          ctx->states, ctx->transitions, ctx->depth);
  fputs(", \"depth_convention\": \"initial states at depth 0\"", f);
  fprintf(f, ", \"bfs_levels\": %" PRIu64 ", \"deadlocks\": %" PRIu64, bfs_levels(ctx),
          ctx->deadlocks);
  if (m->is_accepting) {
    fprintf(f, ", \"accepting\": %" PRIu64 ", \"scenario\": ", ctx->accepting);
    if (m->scenario)
      mcrt_print_json_string(f, m->scenario);
    else
      fputs("null", f);
  }
  fputs(",\n \"bound_hit\": ", f);
  if (bound)
    mcrt_print_json_string(f, bound);
  else
    fputs("null", f);
  // What the bound stopped: "search", "liveness" (after a complete search),
  // "end" (a signal after both had ended); null without a bound.
  static const char *const phases[] = {"\"search\"", "\"liveness\"", "\"end\""};
  fprintf(f, ", \"stopped_in\": %s", c->bound ? phases[c->phase] : "null");
  if (c->bound == MCRT_BOUND_INTERRUPTED)
    fprintf(f, ", \"signal\": \"%s\"", mcrt_signal_name(c->signal));
  if (c->verify)
    fprintf(f, ", \"symmetry_verify\": \"%s\"", c->verify);
  if (c->io_error) {
    fputs(", \"error\": ", f);
    mcrt_print_json_string(f, c->io_error);
  }
  print_options_json(f, ctx);
  fputs(",\n \"violations\": [", f);
  if (ctx->has_violation)
    print_violation_json(f, shown(ctx));
  fputs("],\n \"actions\": {", f);
  for (uint32_t i = 0; i < m->nactions; i++) {
    fputs(i ? ", " : "", f);
    mcrt_print_json_string(f, m->actions[i].name);
    fprintf(f, ": {\"fired\": %" PRIu64 ", \"enabled_ever\": %s}", ctx->fired[i],
            enabled_ever(ctx, i) ? "true" : "false");
  }
  fputs("},\n \"reachables\": {", f);
  for (uint32_t i = 0; i < m->nreachables; i++) {
    fputs(i ? ", " : "", f);
    mcrt_print_json_string(f, m->reachables[i].name);
    fputs(ctx->reached[i] ? ": true" : ": false", f);
  }
  fprintf(f, "},\n \"liveness\": {\"checked\": %s, \"status\": \"%s\"",
          mcrt_liveness_done(ctx) ? "true" : "false", liveness_status(ctx));
  fputs(", \"properties\": [", f);
  for (uint32_t i = 0; i < m->nproperties; i++) {
    fputs(i ? ", " : "", f);
    mcrt_print_json_string(f, m->properties[i].name);
  }
  fputs("], \"instances\": [", f);
  for (uint32_t i = 0; i < m->ninstances; i++) {
    fputs(i ? ", " : "", f);
    mcrt_print_json_string(f, m->instances[i].name);
  }
  fprintf(f, "], \"edge_table_bytes\": %zu, \"edges\": %" PRIu64 ", \"components\": %" PRIu64
             ", \"time_s\": %.6f",
          mcrt_live_bytes(ctx->live), ctx->live ? ctx->live->g.nedges : 0,
          ctx->live ? ctx->live->components : 0, mcrt_liveness_time(ctx));
  if (mcrt_liveness_done(ctx))
    fprintf(f, ", \"phases_s\": {\"search\": %.6f, \"edges\": %.6f, \"scc\": %.6f}",
            ctx->live->search_s, ctx->live->edges_s, ctx->live->scc_s);
  fputc('}', f);
  print_symmetry_json(f, ctx);
  print_por_json(f, ctx);
  print_shortest_json(f, ctx);
  print_exports_json(f, ctx);
  print_trail_json(f, ctx);
  if (c->stats_json) // the properties' status, the profile, coverage, the timeline
    c->stats_json(f, ctx);
  if (mcrt_engine.report)
    mcrt_engine.report(f, ctx);
  if (c->more_json)
    c->more_json(f, ctx);
  if (c->sim)
    print_simulation_json(f, c->sim);
  fprintf(f, ", \"time_s\": %.6f, \"threads\": %u", ctx->time_s, ctx->threads);
  if (ctx->threads > 1) {
    fprintf(f, ", \"thread_phases_s\": {\"expand\": %.6f, \"insert\": %.6f, \"commit\": %.6f}",
            ctx->phase_s[0], ctx->phase_s[1], ctx->phase_s[2]);
    fprintf(f, ", \"thread_order\": \"%s\"", order_name(ctx));
    if (ctx->free_from != MCRT_UNLIMITED && ctx->free_from > 0)
      fprintf(f, ", \"thread_free_from_depth\": %" PRIu64, ctx->free_from);
  }
  fprintf(f, ", \"memory_bytes\": %zu, \"trace_log_bytes\": %zu, \"frontier_bytes\": %zu",
          (size_t)ctx->peak_bytes, mcrt_log_bytes(&ctx->log), mcrt_queue_bytes(&ctx->queue));
  print_disk_json(f, ctx); // --disk: disk bytes, RAM and disk bytes per state
  mcrt_checkpoint_report_json(f, ctx); // --checkpoint, --resume
  fprintf(f, ", \"peak_rss_bytes\": %" PRIu64 ", \"bytes_per_state\": %.2f", peak_rss_bytes(),
          ctx->states ? (double)mcrt_accounted_bytes(ctx) / (double)ctx->states : 0.0);
  fprintf(f, ", \"fingerprint_set_bytes\": %zu, \"fingerprint_set_bytes_per_state\": %.2f",
          mcrt_fpset_bytes(&ctx->set),
          ctx->states ? (double)mcrt_fpset_bytes(&ctx->set) / (double)ctx->states : 0.0);
  fprintf(f, ", \"fingerprint_set_grow_s\": %.6f", ctx->grow_s);
  fprintf(f, ", \"fingerprint_bits\": %u, \"collision_probability\": %.6g}\n", ctx->fp_bits,
          collision_probability(ctx));
}

// ---------------------------------------------------------------------------
// --simulate's result: the trace of a violation, the verdict (never "ok":
// random runs prove nothing), its own summary.

void mcrt_print_simulation(FILE *out, const McrtSimulation *sim) {
  McrtCtx *ctx = sim->ctx;
  const McrtOptions *o = &sim->opt;
  mcrt_print_trace(out, ctx);
  mcrt_print_result(out, o, sim->violation ? MCRT_EXIT_VIOLATION : MCRT_EXIT_INCOMPLETE);
  if (sim->violation)
    fprintf(out, "%s (random simulation, run %" PRIu64 " of %" PRIu64 ", seed %" PRIu64 ")\n",
            ctx->viol.message, sim->runs, o->sim_runs, o->sim_seed);
  else if (ctx->bound == MCRT_BOUND_INTERRUPTED)
    fprintf(out, "interrupted by %s after %" PRIu64 " random run%s; no "
                 "violation so far; not a proof: the search was not exhaustive\n",
            mcrt_signal_name(ctx->bound_signal), sim->runs, sim->runs == 1 ? "" : "s");
  else
    fprintf(out, "no violation in %" PRIu64 " random run%s of up to %" PRIu64
                 " steps (seed %" PRIu64 "); not a proof: the search was not exhaustive\n",
            sim->runs, sim->runs == 1 ? "" : "s", o->sim_depth, o->sim_seed);
  if (o->quiet)
    return;
  fprintf(out, "model:         %s (%s)\n", ctx->model->name,
          ctx->model->source_file ? ctx->model->source_file : "?");
  fprintf(out, "simulation:    %" PRIu64 " run%s of up to %" PRIu64 " steps, seed %" PRIu64
               "; random simulation is not a proof\n",
          sim->runs, sim->runs == 1 ? "" : "s", o->sim_depth, o->sim_seed);
  fprintf(out, "steps:         %" PRIu64 " (the longest run %" PRIu64 ")\n", sim->steps,
          ctx->depth);
  fprintf(out, "states:        %" PRIu64 " distinct states visited\n", ctx->states);
  if (!o->deadlock)
    fprintf(out, "deadlocks:     %" PRIu64 " met (--no-deadlock)\n", ctx->deadlocks);
  print_reachables(out, ctx, "reached in a run", "not reached in any run");
  print_trail(out, ctx);
}

