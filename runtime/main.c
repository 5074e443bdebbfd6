// main.c: the checker's main, one call per stage: options, checks of the
// model against this runtime, the search, the trace, the summary, the report.
#include "internal.h"

#include <inttypes.h>
#include <stdlib.h>

// Refuses a model this runtime cannot run (a mismatch with mcgen).
static bool model_ok(const McrtModel *m, FILE *err) {
  if (m->abi_version != MCRT_ABI_VERSION) {
    fprintf(err, "error: the checker was generated for runtime ABI %u, this runtime is ABI %d\n",
            m->abi_version, MCRT_ABI_VERSION);
    return false;
  }
  if (m->nrules > (UINT64_C(1) << 32) || m->ninit_rules > (UINT64_C(1) << 32)) {
    fprintf(err, "error: the model has more than 2^32 rule bindings, more than the trace log "
                 "can record\n");
    return false;
  }
  if (!m->initial_states || !m->successors || !m->apply_init || !m->apply_rule ||
      (m->ninvariants && !m->check_invariants) || (m->nreachables && !m->check_reachable) ||
      (m->ninstances && !m->property_bits)) {
    fprintf(err, "error: the model lacks a generated function\n");
    return false;
  }
  return true;
}

// Settles --symmetry: the default is on, except where liveness is checked
// (below). Returns -1 to go on, else an exit code (after a message).
//
// Liveness under reduction is refused rather than made sound: a lasso in
// the quotient graph need not be the image of a lasso of the spec (a cycle
// through a class may be a path from a state to a renaming of itself, and
// fairness per parameter binding is not preserved by renaming), so a
// violation could be missed or invented. The liveness search runs on the
// full graph; safety alone (--liveness off) may be reduced.
static int resolve_symmetry(const McrtModel *m, McrtOptions *opt, FILE *err) {
  bool liveness = mcrt_liveness_wanted(m, opt);
  bool available = mcrt_sym_available(m);
  if (liveness && available &&
      (opt->symmetry == MCRT_SYM_ON || opt->symmetry == MCRT_SYM_VERIFY)) {
    fprintf(err,
            "error: --symmetry %s cannot be used while liveness properties are checked: a "
            "reduced graph may hide or invent a liveness violation; run with --symmetry off "
            "(or --liveness off to check only safety with the reduction)\n",
            opt->symmetry == MCRT_SYM_ON ? "on" : "verify");
    return MCRT_EXIT_USAGE;
  }
  if (opt->symmetry == MCRT_SYM_DEFAULT) {
    opt->symmetry = liveness ? MCRT_SYM_OFF : MCRT_SYM_ON;
    if (liveness && available)
      fprintf(err, "note: liveness properties are checked, so the search runs without "
                   "symmetry reduction (as with --symmetry off; --liveness off to reduce)\n");
  }
  if (available && opt->sym_method == MCRT_SYM_METHOD_EXHAUSTIVE &&
      opt->symmetry != MCRT_SYM_OFF) {
    for (uint32_t k = 0; k < m->nsym; k++) {
      if (m->sym[k].size > 10) {
        fprintf(err, "error: --symmetry-method exhaustive: scalarset %s has %u elements, "
                     "too many to enumerate every permutation (at most 10)\n",
                m->sym[k].name, m->sym[k].size);
        return MCRT_EXIT_USAGE;
      }
    }
  }
  return -1;
}

// Sets up a context and runs the search; NULL on failure (after a message).
static McrtCtx *run_search(const McrtModel *model, const McrtOptions *opt, FILE *err) {
  McrtCtx *ctx = malloc(sizeof *ctx);
  if (!ctx || !mcrt_ctx_init(ctx, model, opt)) {
    fprintf(err, "error: out of memory setting up the search\n");
    if (ctx)
      mcrt_ctx_free(ctx);
    free(ctx);
    return NULL;
  }
  ctx->progress_out = err;
  mcrt_search(ctx);
  // Liveness needs the whole graph: only after an exhaustive search
  // without a violation.
  if (ctx->live && !ctx->stop && !ctx->has_violation)
    mcrt_liveness_check(ctx);
  return ctx;
}

// Trace, summary and report of a finished search; its exit code.
static int finish(McrtCtx *ctx, FILE *out, FILE *err) {
  mcrt_print_trace(out, ctx);
  mcrt_print_summary(out, ctx);
  fflush(out);
  if (ctx->opt->report_file && !mcrt_write_report(ctx->opt->report_file, ctx, err))
    ctx->internal_error = true; // exit 2: the requested report is missing
  return mcrt_exit_code(ctx);
}

// Whether two runs reached the same verdict: the same exit code, the same
// violation (kind and property), the same reachables reached.
static bool same_verdict(const McrtCtx *a, const McrtCtx *b) {
  if (mcrt_exit_code(a) != mcrt_exit_code(b) || a->has_violation != b->has_violation)
    return false;
  if (a->has_violation &&
      (a->viol.kind != b->viol.kind || (a->viol.name != b->viol.name &&
                                        (!a->viol.name || !b->viol.name ||
                                         strcmp(a->viol.name, b->viol.name)))))
    return false;
  for (uint32_t i = 0; i < a->model->nreachables; i++)
    if (a->reached[i] != b->reached[i])
      return false;
  return true;
}

static void print_verdict(FILE *f, const McrtCtx *c) {
  static const char *const words[] = {"ok", "violation", "error", "incomplete"};
  int code = mcrt_exit_code(c);
  fprintf(f, "%s", code >= 0 && code <= 3 ? words[code] : "?");
  if (c->has_violation)
    fprintf(f, " (%s%s%s)", mcrt_violation_kind_name(c->viol.kind), c->viol.name ? " " : "",
            c->viol.name ? c->viol.name : "");
  fprintf(f, ", %" PRIu64 " states", c->states);
}

// --symmetry verify: the search with the reduction, then without; the
// verdicts must agree (the counts differ on purpose). Exit code: the runs'
// common one, or 1 when they disagree (the spec tells scalarset elements
// apart in a way the compiler cannot see, such as the order of a loop). The
// report (--report) is the reduced run's, with the other run's verdict.
static int verify_symmetry(const McrtModel *model, const McrtOptions *opt, FILE *out, FILE *err) {
  McrtOptions on = *opt, off = *opt;
  on.symmetry = MCRT_SYM_ON;
  off.symmetry = MCRT_SYM_OFF;
  off.report_file = NULL;
  McrtCtx *a = run_search(model, &on, err);
  if (!a)
    return MCRT_EXIT_USAGE;
  McrtCtx *b = run_search(model, &off, err);
  if (!b) {
    mcrt_ctx_free(a);
    free(a);
    return MCRT_EXIT_USAGE;
  }
  a->unreduced = b;
  fputs("== symmetry verify: the search with symmetry reduction ==\n", out);
  int code_a = finish(a, out, err);
  fputs("== symmetry verify: the search without symmetry reduction ==\n", out);
  int code_b = finish(b, out, err);
  bool agree = same_verdict(a, b);
  fprintf(out, "symmetry verify: %s: with reduction ", agree ? "the verdicts agree"
                                                            : "FAILED, the verdicts differ");
  print_verdict(out, a);
  fputs("; without ", out);
  print_verdict(out, b);
  fputc('\n', out);
  fflush(out);
  int code = agree ? code_a : MCRT_EXIT_VIOLATION;
  if (code_a == MCRT_EXIT_USAGE || code_b == MCRT_EXIT_USAGE)
    code = MCRT_EXIT_USAGE;
  mcrt_ctx_free(b);
  free(b);
  mcrt_ctx_free(a);
  free(a);
  return code;
}

int mcrt_run(const McrtModel *model, int argc, char **argv, FILE *out, FILE *err) {
  McrtOptions opt;
  int code = mcrt_parse_options(&opt, model, argc, argv, out, err);
  if (code >= 0)
    return code;
  if (!model_ok(model, err))
    return MCRT_EXIT_USAGE;
  code = resolve_symmetry(model, &opt, err);
  if (code >= 0)
    return code;
  if (opt.symmetry == MCRT_SYM_VERIFY)
    return verify_symmetry(model, &opt, out, err);

  McrtCtx *ctx = run_search(model, &opt, err);
  if (!ctx)
    return MCRT_EXIT_USAGE;
  code = finish(ctx, out, err);
  mcrt_ctx_free(ctx);
  free(ctx);
  return code;
}

int mcrt_main(const McrtModel *model, int argc, char **argv) {
  return mcrt_run(model, argc, argv, stdout, stderr);
}
