// SPDX-License-Identifier: MIT
// trail.c: trails (docs/DESIGN.md, "Trails"). A violation with a trace
// writes one: NAME.trail.json in the current directory (NAME the checker's),
// --trail FILE elsewhere, --no-trail none. It holds the spec's identity (the
// model's name and the hash of its generated C, which covers the -D
// constants, the C the spec calls and mcgen's --cflags), the options that
// bear on what a replay checks (deadlocks), the violation, and the steps as
// action and arguments: genuine steps of the spec (under symmetry reduction
// the trace realised, mcrt_violation_path), so that they replay without it.
//
// --replay FILE reads a trail, whether a checker, a person or another tool
// wrote it, and replays it with full checking: each step must be enabled
// where it is taken (else the trail is refused, naming the step), every
// state's invariants are evaluated, a failing step is a run-time error or
// an assert, a last state without successors a deadlock (unless --no-deadlock
// or the trail's options say otherwise), and a lasso (loop_start) is checked
// as one: its loop returns to its first state, the property instance's
// bits along it violate the property's form, and the loop is fair. A trail
// of another model, or of another build of the spec (its "c_hash" differs),
// is refused; a hand-written trail may leave out "c_hash".
#include "output/output.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>

#define MCRT_TRAIL_SCHEMA "mcgen-trail/1"
#define MCRT_TRAIL_MAX_BYTES (UINT64_C(1) << 30) // a trail larger than this is refused

// ---------------------------------------------------------------------------
// Writing.

static void print_member(FILE *f, const char *key, const char *value) {
  fprintf(f, ", \"%s\": ", key);
  if (value)
    mcrt_print_json_string(f, value);
  else
    fputs("null", f);
}

static void print_step(FILE *f, const McrtModel *m, bool init, uint64_t rule, bool first) {
  fputs(first ? "\n  {" : ",\n  {", f);
  mcrt_print_step_name_json(f, m, init, rule);
  fputc('}', f);
}

// The trail of the violation v of ctx: its steps (path, then the failing
// step if any).
static void write_trail(FILE *f, McrtCtx *ctx, const uint64_t *path, size_t n,
                        uint64_t step_rule) {
  const McrtModel *m = ctx->model;
  const McrtViolation *v = &ctx->viol;
  fprintf(f, "{\"schema\": \"%s\", \"model\": ", MCRT_TRAIL_SCHEMA);
  mcrt_print_json_string(f, m->name);
  print_member(f, "source_file", m->source_file);
  print_member(f, "c_hash", m->c_hash);
  print_member(f, "mcgen_version", m->mcgen_version);
  fprintf(f, ",\n \"options\": {\"deadlock\": %s},\n \"violation\": {\"kind\": \"%s\"",
          ctx->opt->deadlock ? "true" : "false", mcrt_violation_kind_name(v->kind));
  print_member(f, "name", v->name);
  print_member(f, "message", v->message);
  fputs("},\n \"steps\": [", f);
  for (size_t i = 0; i < n; i++)
    print_step(f, m, i == 0, path[i], i == 0);
  if (v->has_step)
    print_step(f, m, v->step_init, step_rule, n == 0);
  fputs("],\n \"loop_start\": ", f);
  if (v->loop_start >= 0)
    fprintf(f, "%" PRId64 ", \"stutter\": %s}\n", v->loop_start, v->stutter ? "true" : "false");
  else
    fputs("null, \"stutter\": false}\n", f);
}

// Records the trail's outcome for the summary and the report.
static void outcome(McrtCtx *run, bool written, const char *fmt, const char *a) {
  McrtExported *t = &run->trail;
  t->option = "--trail";
  t->path = run->opt->trail_file;
  t->written = written;
  snprintf(t->note, sizeof t->note, fmt, a);
}

void mcrt_trail(McrtCtx *run, FILE *opened, FILE *err) {
  const McrtOptions *opt = run->opt;
  if (!opt->trail_file)
    return;
  McrtCtx *ctx = run->shortest_status == MCRT_SHORTEST_FOUND ? run->shortest : run;
  uint64_t *path = NULL, step_rule = 0;
  size_t n = run->has_violation ? mcrt_violation_path(ctx, &path, &step_rule, NULL) : 0;
  if (n == 0 && !(run->has_violation && ctx->viol.has_step)) { // no steps to write
    mcrt_output_discard(opened, opt->trail_file); // (--trail FILE was opened before the search)
    free(path);
    return;
  }
  FILE *f = opened ? opened : fopen(opt->trail_file, "w");
  if (!f) {
    outcome(run, false, "cannot be written: %s", strerror(errno));
  } else {
    errno = 0;
    write_trail(f, ctx, path, n, step_rule);
    if (mcrt_output_close(f, opt->trail_file))
      outcome(run, true, "%s", "");
    else
      outcome(run, false, "cannot be written: %s", strerror(errno));
  }
  if (!run->trail.written)
    fprintf(err, "warning: the trail %s %s (the trace above and the exit code stand)\n",
            opt->trail_file, run->trail.note);
  free(path);
}

// ---------------------------------------------------------------------------
// Reading: the JSON of a trail into rules.

typedef struct Trail {
  const char *file;
  McrtJson *json;
  uint64_t *rules;
  bool *init;
  const McrtJson **where; // each step's JSON (its line, for messages)
  size_t n;
  int64_t loop_start; // -1: none
  bool stutter;
  bool deadlock;      // the trail's options: deadlocks are violations
  const char *kind, *name; // the violation it records (NULL: none)
} Trail;

// The message of a trail that cannot be read or does not fit this checker:
// "error: --replay FILE: LINE:COL: what" (LINE:COL when the place is known).
static bool refuse(const Trail *t, const McrtJson *at, FILE *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool refuse(const Trail *t, const McrtJson *at, FILE *err, const char *fmt, ...) {
  fprintf(err, "error: --replay %s: ", t->file);
  if (at)
    fprintf(err, "%d:%d: ", at->line, at->col);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(err, fmt, ap);
  va_end(ap);
  fputc('\n', err);
  return false;
}

// A member of the kind wanted, or NULL (absent, when it may be).
static bool member(const Trail *t, const McrtJson *obj, const char *key, McrtJsonKind kind,
                   bool required, const McrtJson **out, FILE *err) {
  *out = mcrt_json_get(obj, key);
  if (!*out && required)
    return refuse(t, obj, err, "no \"%s\" member", key);
  if (*out && (*out)->kind != kind && !(!required && (*out)->kind == MCRT_JSON_NULL))
    return refuse(t, *out, err, "\"%s\" is %s, not %s", key, mcrt_json_kind_name((*out)->kind),
                  mcrt_json_kind_name(kind));
  if (*out && (*out)->kind == MCRT_JSON_NULL)
    *out = NULL;
  return true;
}

static uint64_t card_of(const McrtType *t) {
  return t->card ? t->card : t->width >= 64 ? UINT64_MAX : UINT64_C(1) << t->width;
}

static bool decode_value(const McrtType *t, const McrtJson *j, uint8_t *bits, uint64_t off);

// What a value of type t must look like, for messages.
static void describe_type(FILE *f, const McrtType *t) {
  switch (t->kind) {
  case MCRT_BOOL: fputs("true or false", f); break;
  case MCRT_RANGE:
    fprintf(f, "an integer from %" PRId64 " to %" PRId64, t->lo,
            (int64_t)((uint64_t)t->lo + card_of(t) - 1));
    break;
  case MCRT_ENUM:
    for (uint64_t i = 0; i < t->card; i++)
      fprintf(f, "%s\"%s\"", i == 0 ? "one of " : ", ", t->members[i]);
    break;
  case MCRT_SCALARSET: fprintf(f, "\"%s_1\" to \"%s_%" PRIu64 "\"", t->name, t->name, t->card); break;
  case MCRT_OPTIONAL: fputs("null or ", f); describe_type(f, t->base); break;
  case MCRT_ARRAY: fprintf(f, "an array of %" PRIu64 " values", card_of(t->index)); break;
  case MCRT_RECORD: fputs("an object with the record's fields", f); break;
  default: fputs("a value this checker cannot read back", f);
  }
}

// A scalar's encoding from its JSON (false: not a value of t).
static bool decode_scalar(const McrtType *t, const McrtJson *j, uint64_t *enc) {
  switch (t->kind) {
  case MCRT_BOOL:
    *enc = j->boolean;
    return j->kind == MCRT_JSON_BOOL;
  case MCRT_RANGE:
    *enc = (uint64_t)j->integer - (uint64_t)t->lo;
    return j->kind == MCRT_JSON_NUMBER && j->is_integer && j->integer >= t->lo &&
           *enc < card_of(t);
  case MCRT_ENUM:
    for (*enc = 0; j->kind == MCRT_JSON_STRING && *enc < t->card; ++*enc)
      if (!strcmp(t->members[*enc], j->string))
        return true;
    return false;
  case MCRT_SCALARSET: {
    size_t len = strlen(t->name);
    if (j->kind != MCRT_JSON_STRING || strncmp(j->string, t->name, len) || j->string[len] != '_')
      return false;
    uint64_t k = 0;
    const char *d = j->string + len + 1;
    for (; *d >= '0' && *d <= '9' && k <= t->card; d++)
      k = k * 10 + (uint64_t)(*d - '0');
    *enc = k - 1;
    return !*d && d > j->string + len + 1 && k >= 1 && k <= t->card;
  }
  case MCRT_OPTIONAL:
    if (j->kind == MCRT_JSON_NULL)
      return *enc = 0, true;
    if (!decode_scalar(t->base, j, enc))
      return false;
    return ++*enc, true;
  default:
    return false;
  }
}

// A value of type t into bits at off (records and arrays field by field).
static bool decode_value(const McrtType *t, const McrtJson *j, uint8_t *bits, uint64_t off) {
  if (t->kind <= MCRT_OPTIONAL) {
    uint64_t enc;
    if (!decode_scalar(t, j, &enc))
      return false;
    mcrt_set_wide(bits, off, t->width, enc);
    return true;
  }
  if (t->kind == MCRT_ARRAY) {
    if (j->kind != MCRT_JSON_ARRAY || j->n != card_of(t->index))
      return false;
    for (size_t i = 0; i < j->n; i++)
      if (!decode_value(t->base, &j->items[i], bits, off + i * t->base->width))
        return false;
    return true;
  }
  if (t->kind == MCRT_RECORD) {
    if (j->kind != MCRT_JSON_OBJECT || j->n != t->nfields)
      return false;
    for (uint32_t i = 0; i < t->nfields; i++) {
      const McrtJson *v = mcrt_json_get(j, t->fields[i].name);
      if (!v || !decode_value(t->fields[i].type, v, bits, off + t->fields[i].offset))
        return false;
    }
    return true;
  }
  return false; // a collection is never a parameter's value
}

// The group named `name` among the inits or the actions.
static const McrtRuleGroup *find_group(const McrtModel *m, bool init, const char *name) {
  const McrtRuleGroup *g = init ? m->inits : m->actions;
  uint32_t n = init ? m->ninits : m->nactions;
  for (uint32_t i = 0; i < n; i++)
    if (!strcmp(g[i].name && *g[i].name ? g[i].name : "init", name))
      return &g[i];
  return NULL;
}

// The rule of a step: its group by name, its binding from the params.
static bool step_rule(Trail *t, const McrtModel *m, const McrtJson *s, size_t i, FILE *err) {
  const McrtJson *action, *init, *params;
  if (s->kind != MCRT_JSON_OBJECT)
    return refuse(t, s, err, "step %zu is %s, not an object", i, mcrt_json_kind_name(s->kind));
  if (!member(t, s, "action", MCRT_JSON_STRING, true, &action, err) ||
      !member(t, s, "init", MCRT_JSON_BOOL, false, &init, err) ||
      !member(t, s, "params", MCRT_JSON_OBJECT, false, &params, err))
    return false;
  bool is_init = init && init->boolean;
  if (is_init != (i == 0))
    return refuse(t, s, err, "step %zu %s: the first step, and it alone, is an init step (\"init\": true)",
                  i, is_init ? "is an init step" : "is not an init step");
  const McrtRuleGroup *g = find_group(m, is_init, action->string);
  if (!g)
    return refuse(t, action, err, "step %zu: the model has no %s named '%s'", i,
                  is_init ? "init block" : "action", action->string);
  size_t given = params ? params->n : 0;
  uint64_t binding = 0;
  for (uint32_t k = 0; k < g->nparams; k++) {
    const McrtParam *p = &g->params[k];
    const McrtJson *v = params ? mcrt_json_get(params, p->name) : NULL;
    uint8_t bits[16 + MCRT_SLACK] = {0};
    if (!v || p->type->width > 64 || !decode_value(p->type, v, bits, 0)) {
      fprintf(err, "error: --replay %s: %d:%d: step %zu: %s's parameter %s ", t->file,
              (v ? v : s)->line, (v ? v : s)->col, i, action->string, p->name);
      fputs(v ? "must be " : "is missing: give ", err);
      describe_type(err, p->type);
      fputc('\n', err);
      return false;
    }
    uint64_t card = card_of(p->type);
    binding = binding * card + mcrt_get_wide(bits, 0, p->type->width);
  }
  if (given != g->nparams)
    return refuse(t, params, err, "step %zu: %s takes %u parameter%s, the step gives %zu", i,
                  action->string, g->nparams, g->nparams == 1 ? "" : "s", given);
  t->rules[i] = g->first_rule + binding;
  t->init[i] = is_init;
  t->where[i] = s;
  return true;
}

// The file's text (at most MCRT_TRAIL_MAX_BYTES), NUL-ended; NULL after a
// message.
static char *read_text(const char *file, size_t *len, FILE *err) {
  FILE *f = fopen(file, "rb");
  struct stat st;
  if (!f || fstat(fileno(f), &st) != 0) {
    fprintf(err, "error: --replay %s: %s\n", file, strerror(errno));
    if (f)
      fclose(f);
    return NULL;
  }
  if (S_ISDIR(st.st_mode) || (uint64_t)st.st_size > MCRT_TRAIL_MAX_BYTES) {
    fprintf(err, "error: --replay %s: %s\n", file,
            S_ISDIR(st.st_mode) ? "a directory, not a trail" : "larger than 1 GiB: not a trail");
    fclose(f);
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *text = malloc(cap);
  for (size_t got = 1; text && got > 0 && n < MCRT_TRAIL_MAX_BYTES;) {
    if (n + 1 >= cap)
      text = realloc(text, cap *= 2);
    got = text ? fread(text + n, 1, cap - n - 1, f) : 0;
    n += got;
  }
  if (!text)
    mcrt_die("out of memory reading a trail");
  bool failed = ferror(f);
  fclose(f);
  if (failed || n >= MCRT_TRAIL_MAX_BYTES) {
    fprintf(err, "error: --replay %s: %s\n", file, failed ? "cannot be read" : "larger than 1 GiB");
    free(text);
    return NULL;
  }
  text[n] = 0;
  *len = n;
  return text;
}

// The identity: a trail of another model or another build is refused.
static bool same_spec(const Trail *t, const McrtModel *m, FILE *err) {
  const McrtJson *schema, *model, *hash;
  const McrtJson *j = t->json;
  if (!member(t, j, "schema", MCRT_JSON_STRING, false, &schema, err) ||
      !member(t, j, "model", MCRT_JSON_STRING, true, &model, err) ||
      !member(t, j, "c_hash", MCRT_JSON_STRING, false, &hash, err))
    return false;
  if (schema && strcmp(schema->string, MCRT_TRAIL_SCHEMA))
    return refuse(t, schema, err, "a document of schema \"%s\", not a trail (\"%s\")",
                  schema->string, MCRT_TRAIL_SCHEMA);
  if (strcmp(model->string, m->name))
    return refuse(t, model, err, "a trail of the model '%s'; this checker checks '%s'",
                  model->string, m->name);
  if (hash && (!m->c_hash || strcmp(hash->string, m->c_hash)))
    return refuse(t, hash, err,
                  "written by another build of '%s' (its generated C's hash is %s, this "
                  "checker's %s: the spec, its -D constants and -W watches, the C it calls "
                  "or mcgen's --cflags differ); replay it with the checker that wrote it, or "
                  "remove its \"c_hash\" member to replay its steps here",
                  m->name, hash->string, m->c_hash ? m->c_hash : "unknown");
  return true;
}

// The trail's violation, options and lasso.
static bool read_claims(Trail *t, FILE *err) {
  const McrtJson *j = t->json, *options, *deadlock, *viol, *kind, *name, *loop, *stutter;
  if (!member(t, j, "options", MCRT_JSON_OBJECT, false, &options, err) ||
      !member(t, options, "deadlock", MCRT_JSON_BOOL, false, &deadlock, err) ||
      !member(t, j, "violation", MCRT_JSON_OBJECT, false, &viol, err) ||
      !member(t, viol, "kind", MCRT_JSON_STRING, viol != NULL, &kind, err) ||
      !member(t, viol, "name", MCRT_JSON_STRING, false, &name, err) ||
      !member(t, j, "loop_start", MCRT_JSON_NUMBER, false, &loop, err) ||
      !member(t, j, "stutter", MCRT_JSON_BOOL, false, &stutter, err))
    return false;
  t->deadlock = !deadlock || deadlock->boolean;
  t->kind = kind ? kind->string : NULL;
  t->name = name ? name->string : NULL;
  t->stutter = stutter && stutter->boolean;
  t->loop_start = -1;
  if (loop) {
    if (!loop->is_integer || loop->integer < 0 || (uint64_t)loop->integer >= t->n)
      return refuse(t, loop, err, "loop_start must be the index of a step, 0 to %zu", t->n - 1);
    t->loop_start = loop->integer;
  }
  if (t->stutter && t->loop_start != (int64_t)t->n - 1)
    return refuse(t, stutter, err, "a stutter loop repeats the last state: its loop_start is "
                                   "the last step, %zu", t->n - 1);
  return true;
}

static void trail_free(Trail *t) {
  mcrt_json_free(t->json);
  free(t->rules);
  free(t->init);
  free(t->where);
}

// Reads the trail in t->file for model m. False after a message.
static bool read_trail(Trail *t, const McrtModel *m, FILE *err) {
  size_t len;
  char *text = read_text(t->file, &len, err);
  if (!text)
    return false;
  char why[256];
  t->json = mcrt_json_parse(text, len, why, sizeof why);
  free(text);
  if (!t->json) {
    fprintf(err, "error: --replay %s: %s (not JSON)\n", t->file, why);
    return false;
  }
  const McrtJson *steps;
  if (t->json->kind != MCRT_JSON_OBJECT)
    return refuse(t, t->json, err, "a trail is a JSON object, not %s",
                  mcrt_json_kind_name(t->json->kind));
  if (!same_spec(t, m, err) ||
      !member(t, t->json, "steps", MCRT_JSON_ARRAY, true, &steps, err))
    return false;
  if (steps->n == 0)
    return refuse(t, steps, err, "no steps: a trail starts with an init step");
  t->n = steps->n;
  t->rules = calloc(t->n, sizeof *t->rules);
  t->init = calloc(t->n, sizeof *t->init);
  t->where = calloc(t->n, sizeof *t->where);
  if (!t->rules || !t->init || !t->where)
    mcrt_die("out of memory reading a trail");
  for (size_t i = 0; i < t->n; i++)
    if (!step_rule(t, m, &steps->items[i], i, err))
      return false;
  return read_claims(t, err);
}

// ---------------------------------------------------------------------------
// Replaying with full checking.

typedef struct Replay {
  McrtCtx *ctx;
  const Trail *t;
  uint8_t *states; // the state after step i at states + i * stride
  size_t stride;
  size_t done;     // steps replayed (a failing step not counted)
  uint8_t *bits;   // property bits, one instance's pair per state (liveness)
  FILE *err;
} Replay;

static uint8_t *state_at(const Replay *r, size_t i) { return r->states + i * r->stride; }

// The state the search would have met: its fingerprint in the set, which
// the trace printer checks (report.c).
static void remember(McrtCtx *ctx, const uint8_t *s) {
  if (mcrt_fpset_wants_grow(&ctx->set) && !mcrt_fpset_grow(&ctx->set))
    mcrt_die("out of memory replaying a trail");
  mcrt_fpset_insert(&ctx->set, mcrt_fingerprint(s, ctx->state_bytes, ctx->fp_bits));
}

// Step i of the trail, as the trace prints it, and where the file has it.
static void name_step(const Replay *r, size_t i, FILE *f) {
  const McrtJson *at = r->t->where[i];
  fprintf(f, "step %zu, ", i);
  mcrt_print_rule(f, r->ctx->model, r->t->init[i], r->t->rules[i]);
  fprintf(f, " (%s:%d)", r->t->file, at->line);
}

// A violation of the trail's first n steps (its message set by the caller).
static McrtViolation *found(Replay *r, McrtViolationKind kind, size_t n) {
  char message[sizeof r->ctx->viol.message];
  memcpy(message, r->ctx->viol.message, sizeof message);
  McrtViolation *v = mcrt_path_violation(r->ctx, kind, n);
  memcpy(v->path, r->t->rules, n * sizeof *v->path);
  return v;
}

// Step i failed (a run-time error or an assert): the violation.
static void step_failed(Replay *r, size_t i) {
  McrtCtx *ctx = r->ctx;
  McrtError e = ctx->err;
  snprintf(ctx->viol.message, sizeof ctx->viol.message, "%s", e.message);
  McrtViolation *v = found(r, e.is_assert ? MCRT_VIOL_ASSERT : MCRT_VIOL_RUNTIME_ERROR, i);
  v->file = e.file, v->line = e.line, v->col = e.col;
  v->has_step = true;
  v->step_init = r->t->init[i];
  v->step_rule = r->t->rules[i];
  mcrt_clear_error(ctx);
}

// Invariant k fails in the state after step i: the violation, unless one
// was found before.
static void invariant_failed(Replay *r, uint32_t k, size_t i) {
  McrtCtx *ctx = r->ctx;
  const McrtPredicate *p = &ctx->model->invariants[k];
  snprintf(ctx->viol.message, sizeof ctx->viol.message, "invariant '%s' does not hold", p->name);
  McrtViolation *v = found(r, MCRT_VIOL_INVARIANT, i + 1);
  v->name = p->name;
  v->file = p->file, v->line = p->line;
}

// Evaluating a predicate on the state after step i failed: a run-time
// error (or an assert) of that state is the violation.
static void state_failed(Replay *r, size_t i) {
  McrtCtx *ctx = r->ctx;
  McrtError e = ctx->err;
  snprintf(ctx->viol.message, sizeof ctx->viol.message, "%s", e.message);
  McrtViolation *v = found(r, e.is_assert ? MCRT_VIOL_ASSERT : MCRT_VIOL_RUNTIME_ERROR, i + 1);
  v->file = e.file, v->line = e.line, v->col = e.col;
  mcrt_clear_error(ctx);
}

// The constraints in the state after step i, evaluated as the search does
// when it expands the state: 1 within, 0 outside, -1 their evaluation
// failed (the violation, state_failed).
static int within_constraints(Replay *r, size_t i) {
  McrtCtx *ctx = r->ctx;
  const McrtModel *m = ctx->model;
  if (!m->has_constraint || !m->within_constraints)
    return 1;
  bool in = m->within_constraints(ctx, state_at(r, i));
  if (!mcrt_failed(ctx))
    return in;
  state_failed(r, i);
  return -1;
}

// The invariants in the state after step i: the first that fails is the
// violation (if none was found before); an error evaluating one is a
// run-time error of that state. False: the replay stops there.
static bool check_invariants(Replay *r, size_t i) {
  McrtCtx *ctx = r->ctx;
  const McrtModel *m = ctx->model;
  for (uint32_t k = 0; k < m->ninvariants; k++) {
    bool holds = m->check_invariant(ctx, k, state_at(r, i));
    if (mcrt_failed(ctx)) {
      state_failed(r, i);
      return false;
    }
    if (!holds && !ctx->has_violation)
      invariant_failed(r, k, i);
  }
  return true;
}

// Replays every step; false after a message when one is not enabled where
// the trail takes it (the trail is refused). A failing step, or constraints
// that fail in the state it leaves, end the replay: that is the violation.
static bool replay_steps(Replay *r) {
  McrtCtx *ctx = r->ctx;
  const Trail *t = r->t;
  for (size_t i = 0; i < t->n; i++) {
    const uint8_t *before = i ? state_at(r, i - 1) : NULL;
    int within = before ? within_constraints(r, i - 1) : 1;
    if (within < 0)
      return true;
    if (!within) {
      fprintf(r->err, "error: --replay %s: ", t->file);
      name_step(r, i, r->err);
      fprintf(r->err, ": the state after step %zu is outside the constraints: the checker does "
                      "not expand it\n", i - 1);
      return false;
    }
    if (!mcrt_replay_step(ctx, t->init[i], t->rules[i], before, state_at(r, i))) {
      if (mcrt_failed(ctx)) {
        step_failed(r, i);
        return true;
      }
      fprintf(r->err, "error: --replay %s: ", t->file);
      name_step(r, i, r->err);
      if (i == 0)
        fputs(": this init block gives no initial state (its 'when' does not hold)\n", r->err);
      else
        fprintf(r->err, ": not enabled in the state after step %zu (its guard does not hold): "
                        "no run of the spec takes it there\n", i - 1);
      return false;
    }
    remember(ctx, state_at(r, i));
    r->done = i + 1;
    if (!check_invariants(r, i))
      return true;
  }
  return true;
}

// Whether some action rule is enabled in s (one that fails counts: the
// search reports its error, not a deadlock).
static bool any_enabled(McrtCtx *ctx, const uint8_t *s, uint8_t *scratch) {
  for (uint64_t q = 0; q < ctx->model->nrules; q++) {
    bool ok = mcrt_replay_step(ctx, false, q, s, scratch) || mcrt_failed(ctx);
    mcrt_clear_error(ctx);
    if (ok)
      return true;
  }
  return false;
}

// The state has no successor the search would take: a constraint cuts it,
// or no action is enabled (liveness: it repeats for ever).
static bool without_successor(McrtCtx *ctx, const uint8_t *s, uint8_t *scratch) {
  const McrtModel *m = ctx->model;
  bool cut = m->has_constraint && !m->within_constraints(ctx, s);
  mcrt_clear_error(ctx);
  return cut || !any_enabled(ctx, s, scratch);
}

// The last state is a deadlock: no action enabled, no terminal predicate.
static bool deadlocked(Replay *r, uint8_t *scratch) {
  McrtCtx *ctx = r->ctx;
  const McrtModel *m = ctx->model;
  const uint8_t *s = state_at(r, r->t->n - 1);
  if (m->has_constraint && !m->within_constraints(ctx, s))
    return mcrt_clear_error(ctx), false;
  bool terminal = m->has_terminal && m->is_terminal(ctx, s);
  mcrt_clear_error(ctx);
  return !terminal && !any_enabled(ctx, s, scratch);
}

// ---------------------------------------------------------------------------
// A lasso: the states from loop_start on repeat for ever.

typedef struct Lasso {
  size_t first, last; // the loop's states: first .. last (a stutter: one
                      // state; no loop, a [] P trace: first > last)
  size_t n;           // states of the trail
} Lasso;

// What a trail's lasso is.
typedef enum {
  LASSO_VIOLATES, // a fair behaviour that violates a property (the violation)
  LASSO_HOLDS,    // a behaviour of the spec that violates none, or is not fair
  LASSO_BROKEN,   // not a behaviour: the loop does not close, a stutter has a successor
} LassoOutcome;

// P (q false) or Q (q true) of instance k in the state after step i.
static bool prop(const Replay *r, uint32_t k, size_t i, bool q) {
  size_t bytes = (2 * r->ctx->model->ninstances + 7) / 8;
  size_t bit = 2 * k + q;
  return (r->bits[i * bytes + bit / 8] >> (bit % 8)) & 1;
}

// Whether the behaviour the lasso stands for violates instance k's form.
static bool violates_form(const Replay *r, uint32_t k, const Lasso *l) {
  McrtTemporal form = r->ctx->model->instances[k].form;
  bool in_loop_all_not_p = true, in_loop_some_not_p = false;
  for (size_t i = l->first; i <= l->last; i++) {
    in_loop_all_not_p &= !prop(r, k, i, false);
    in_loop_some_not_p |= !prop(r, k, i, false);
  }
  switch (form) {
  case MCRT_TEMP_ALWAYS:
    for (size_t i = 0; i < l->n; i++)
      if (!prop(r, k, i, false))
        return true;
    return false;
  case MCRT_TEMP_EVENTUALLY:
    for (size_t i = 0; i < l->n; i++)
      if (prop(r, k, i, false))
        return false;
    return true;
  case MCRT_TEMP_LEADSTO:
    // P && !Q at some state i, and !Q from there on: at every state from
    // i (or from the loop's first, when i is in the loop) to the end.
    for (size_t i = 0; i < l->n; i++) {
      if (!prop(r, k, i, false) || prop(r, k, i, true))
        continue;
      bool never_q = true;
      for (size_t j = i < l->first ? i : l->first; j < l->n; j++)
        never_q &= !prop(r, k, j, true);
      if (never_q)
        return true;
    }
    return false;
  case MCRT_TEMP_ALWAYS_EVENTUALLY:
    return in_loop_all_not_p;
  case MCRT_TEMP_EVENTUALLY_ALWAYS:
    return in_loop_some_not_p;
  }
  return false;
}

// Whether rule q is one of the constraint's: `only` (per binding: one
// rule), or any rule of fa's ranges (only UINT64_MAX).
static bool in_constraint(const McrtFairness *fa, uint64_t only, uint64_t q) {
  if (only != UINT64_MAX)
    return q == only;
  for (uint32_t g = 0; g < fa->nranges; g++)
    if (q >= fa->ranges[g].first && q - fa->ranges[g].first < fa->ranges[g].count)
      return true;
  return false;
}

// Whether some rule of the constraint is enabled in s (one that fails
// counts: it is enabled, the search reports its error).
static bool constraint_enabled(McrtCtx *ctx, const McrtFairness *fa, uint64_t only,
                               const uint8_t *s, uint8_t *scratch) {
  for (uint32_t g = 0; g < fa->nranges; g++)
    for (uint64_t k = 0; k < fa->ranges[g].count; k++) {
      uint64_t q = fa->ranges[g].first + k;
      if (!in_constraint(fa, only, q))
        continue;
      bool on = mcrt_replay_step(ctx, false, q, s, scratch) || mcrt_failed(ctx);
      mcrt_clear_error(ctx);
      if (on)
        return true;
    }
  return false;
}

// Whether the loop is fair for one constraint: weak, it is not enabled in
// every loop state without being taken on the loop; strong, not enabled in
// any loop state without being taken. Taken: the rule of a loop step.
static bool fair_for(Replay *r, const McrtFairness *fa, const Lasso *l, uint64_t only,
                     uint8_t *scratch) {
  const Trail *t = r->t;
  for (size_t i = l->first + 1; !t->stutter && i <= l->last + 1 && i < t->n; i++)
    if (in_constraint(fa, only, t->rules[i]))
      return true; // taken
  size_t enabled = 0;
  for (size_t i = l->first; i <= l->last; i++)
    enabled += constraint_enabled(r->ctx, fa, only, state_at(r, i), scratch);
  return fa->strong ? enabled == 0 : enabled < l->last - l->first + 1;
}

// Whether the loop meets every fairness assumption; why, when not.
static bool loop_fair(Replay *r, const Lasso *l, uint8_t *scratch, char *why, size_t n) {
  const McrtModel *m = r->ctx->model;
  for (uint32_t k = 0; k < m->nfairness; k++) {
    const McrtFairness *fa = &m->fairness[k];
    bool ok = true;
    uint64_t rule = UINT64_MAX;
    if (!fa->per_binding) {
      ok = fair_for(r, fa, l, UINT64_MAX, scratch);
    } else {
      for (uint32_t g = 0; g < fa->nranges && ok; g++)
        for (rule = fa->ranges[g].first; rule < fa->ranges[g].first + fa->ranges[g].count && ok;
             rule++)
          ok = fair_for(r, fa, l, rule, scratch);
      rule--;
    }
    if (!ok) {
      char *text = NULL;
      size_t len = 0;
      FILE *f = open_memstream(&text, &len);
      if (f) {
        fprintf(f, "fair %s: ", fa->text);
        if (rule != UINT64_MAX)
          mcrt_print_rule(f, m, false, rule);
        else
          fputs("its actions", f);
        fprintf(f, " %s but never taken on it", fa->strong ? "enabled in a state of the loop"
                                                          : "enabled in every state of the loop");
        fclose(f);
      }
      snprintf(why, n, "%s", text ? text : "a fairness assumption is not met");
      free(text);
      return false;
    }
  }
  return true;
}

// The instance named `name`, or -1.
static int64_t instance_named(const McrtModel *m, const char *name) {
  for (uint32_t k = 0; name && k < m->ninstances; k++)
    if (!strcmp(m->instances[k].name, name))
      return k;
  return -1;
}

// The trail's lasso (or, without loop_start, its prefix: a [] P trace):
// its loop must return to its first state (or, a stutter, have no
// successor); then the first instance (the named one, if any) whose form
// the behaviour violates, when the loop is fair, is the violation. *why:
// why there is none.
static LassoOutcome check_lasso(Replay *r, char *why, size_t whyn) {
  McrtCtx *ctx = r->ctx;
  const McrtModel *m = ctx->model;
  const Trail *t = r->t;
  bool loop = t->loop_start >= 0;
  Lasso l = {.first = loop ? (size_t)t->loop_start : t->n, .last = t->n - 1, .n = t->n};
  uint8_t *scratch = calloc(1, r->stride);
  size_t bytes = (2 * m->ninstances + 7) / 8;
  r->bits = calloc(t->n * bytes + 1, 1);
  if (!scratch || !r->bits)
    mcrt_die("out of memory replaying a trail");
  LassoOutcome outcome = LASSO_HOLDS;
  if (loop && t->stutter && !without_successor(ctx, state_at(r, l.last), scratch)) {
    snprintf(why, whyn, "its last state, which the trail says repeats for ever (a stutter), has "
                        "a successor");
    outcome = LASSO_BROKEN;
  } else if (loop && !t->stutter) {
    if (l.first == l.last || memcmp(state_at(r, l.first), state_at(r, l.last), ctx->state_bytes)) {
      snprintf(why, whyn, "its loop does not return to the state after step %zu", l.first);
      outcome = LASSO_BROKEN;
    }
    l.last--; // (the last state is the first again)
  }
  // An unfair loop is no behaviour the properties are checked on.
  bool unfair = outcome == LASSO_HOLDS && loop && !loop_fair(r, &l, scratch, why, whyn);
  for (size_t i = 0; outcome == LASSO_HOLDS && !unfair && i < t->n; i++)
    m->property_bits(ctx, state_at(r, i), r->bits + i * bytes);
  mcrt_clear_error(ctx);
  int64_t named = instance_named(m, t->name);
  for (uint32_t k = 0; outcome == LASSO_HOLDS && !unfair && k < m->ninstances; k++) {
    if ((named >= 0 && k != named) || !violates_form(r, k, &l))
      continue;
    const McrtPropInstance *in = &m->instances[k];
    const McrtPredicate *p = &m->properties[in->property];
    snprintf(ctx->viol.message, sizeof ctx->viol.message, "property '%s' does not hold: %s",
             in->name, mcrt_form_text(in->form));
    McrtViolation *v = found(r, MCRT_VIOL_LIVENESS, t->n);
    v->name = in->name;
    v->file = p->file, v->line = p->line;
    v->loop_start = t->loop_start;
    v->stutter = t->stutter;
    outcome = LASSO_VIOLATES;
  }
  if (outcome == LASSO_HOLDS && !unfair)
    snprintf(why, whyn, "%s", named >= 0 ? "it does not violate the property"
                                         : "it violates no property of the spec");
  free(scratch);
  return outcome;
}

// ---------------------------------------------------------------------------
// --replay FILE.

// What the replay found, against what the trail says: the same kind and
// name, or the trail says nothing.
static bool as_recorded(const McrtCtx *ctx, const Trail *t) {
  if (!t->kind)
    return true;
  if (!ctx->has_violation)
    return false;
  const McrtViolation *v = &ctx->viol;
  return !strcmp(t->kind, mcrt_violation_kind_name(v->kind)) &&
         (!t->name || (v->name && !strcmp(t->name, v->name)));
}

// After the steps: the violation of the last state the trail records (an
// invariant, a deadlock, a lasso), or the first the replay finds. False
// after a message: the trail's lasso is not one.
static bool conclude_replay(Replay *r, char *why, size_t whyn) {
  McrtCtx *ctx = r->ctx;
  const Trail *t = r->t;
  if (!ctx->has_violation && within_constraints(r, t->n - 1) < 0)
    return true; // the search meets that error when it expands the last state
  uint8_t *scratch = calloc(1, r->stride);
  if (!scratch)
    mcrt_die("out of memory replaying a trail");
  const char *kind = t->kind ? t->kind : "";
  int64_t k = -1;
  for (uint32_t i = 0; !strcmp(kind, "invariant") && t->name && i < ctx->model->ninvariants; i++)
    if (!strcmp(ctx->model->invariants[i].name, t->name))
      k = i;
  if (k >= 0 && !ctx->model->check_invariant(ctx, (uint32_t)k, state_at(r, t->n - 1)) &&
      !mcrt_failed(ctx)) // the one recorded, though another failed before
    invariant_failed(r, (uint32_t)k, t->n - 1);
  mcrt_clear_error(ctx);
  bool lasso = !strcmp(kind, "liveness") || (t->loop_start >= 0 && !ctx->has_violation);
  if (lasso && check_lasso(r, why, whyn) == LASSO_BROKEN) {
    fprintf(r->err, "error: --replay %s: not a lasso of the spec: %s\n", t->file, why);
    free(scratch);
    return false;
  }
  if (!lasso && !ctx->has_violation && ctx->opt->deadlock && deadlocked(r, scratch)) {
    snprintf(ctx->viol.message, sizeof ctx->viol.message, "deadlock: no action is enabled%s",
             ctx->model->has_terminal ? " and no terminal predicate holds" : "");
    found(r, MCRT_VIOL_DEADLOCK, t->n);
  }
  free(scratch);
  return true;
}

// The replay's outcome: the trace (text, or JSON on stdout), the result.
static int report_replay(Replay *r, const char *why, FILE *out, FILE *err) {
  McrtCtx *ctx = r->ctx;
  const McrtOptions *opt = ctx->opt;
  const Trail *t = r->t;
  bool json = opt->format_json || opt->trace_json;
  FILE *text = json ? err : out;
  mcrt_name_binding(ctx);
  if (ctx->has_violation) {
    mcrt_print_trace(text, ctx);
  } else {
    for (size_t i = 0; i < r->done; i++)
      mcrt_print_step_text(text, ctx, i, t->init[i], t->rules[i], i ? state_at(r, i - 1) : NULL,
                           state_at(r, i));
  }
  if (json)
    mcrt_print_trace_json(out, ctx);
  if (ctx->internal_error)
    return MCRT_EXIT_USAGE;
  if (!as_recorded(ctx, t)) {
    fprintf(err, "error: --replay %s: the trail records a violation of kind %s%s%s%s, which "
                 "the replay does not find: ",
            t->file, t->kind, t->name ? " ('" : "", t->name ? t->name : "", t->name ? "')" : "");
    if (ctx->has_violation)
      mcrt_violation_headline(err, &ctx->viol);
    else
      fputs(*why ? why : "no violation", err);
    fputc('\n', err);
    return MCRT_EXIT_USAGE;
  }
  mcrt_print_result(text, opt, ctx->has_violation ? MCRT_EXIT_VIOLATION : MCRT_EXIT_OK);
  if (ctx->has_violation) {
    mcrt_violation_headline(text, &ctx->viol);
    fprintf(text, " (replayed from %s)\n", t->file);
    return MCRT_EXIT_VIOLATION;
  }
  fprintf(text, "the trail's %zu step%s are a run of the spec and violate no property "
                "along it%s%s\n",
          t->n, t->n == 1 ? "" : "s", *why ? "; its lasso: " : "", why);
  return MCRT_EXIT_OK;
}

int mcrt_replay_trail(const McrtModel *m, const McrtOptions *opt, FILE *out, FILE *err) {
  Trail t = {.file = opt->replay_file};
  if (!read_trail(&t, m, err)) {
    trail_free(&t);
    return MCRT_EXIT_USAGE;
  }
  McrtOptions o = *opt;
  o.symmetry = MCRT_SYM_OFF; // the trail's steps are genuine: replayed as they are
  o.liveness = MCRT_LIVENESS_OFF;
  o.por = false;
  o.deadlock = opt->deadlock && t.deadlock;
  McrtCtx *ctx = calloc(1, sizeof *ctx);
  if (!ctx || !mcrt_ctx_init(ctx, m, &o)) {
    fprintf(err, "error: out of memory setting up the replay\n");
    free(ctx);
    trail_free(&t);
    return MCRT_EXIT_USAGE;
  }
  Replay r = {.ctx = ctx, .t = &t, .stride = ctx->state_bytes + MCRT_SLACK, .err = err};
  r.states = calloc(t.n + 1, r.stride);
  if (!r.states)
    mcrt_die("out of memory replaying a trail");
  char why[512] = "";
  int code = MCRT_EXIT_USAGE;
  if (replay_steps(&r) && (r.done < t.n || conclude_replay(&r, why, sizeof why)))
    code = report_replay(&r, why, out, err);
  free(r.states);
  free(r.bits);
  mcrt_ctx_free(ctx);
  free(ctx);
  trail_free(&t);
  return code;
}
