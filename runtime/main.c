// main.c: the checker's main, one call per stage: options, checks of the
// model against this runtime, the search, the trace, the summary, the report.
#include "internal.h"

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

int mcrt_run(const McrtModel *model, int argc, char **argv, FILE *out, FILE *err) {
  McrtOptions opt;
  int code = mcrt_parse_options(&opt, model, argc, argv, out, err);
  if (code >= 0)
    return code;
  if (!model_ok(model, err))
    return MCRT_EXIT_USAGE;
  if (model->nscalarsets > 0 && opt.symmetry == MCRT_SYM_DEFAULT) {
    if (mcrt_liveness_wanted(model, &opt))
      fprintf(err, "note: liveness is checked, so the search runs without symmetry reduction "
                   "(as with --symmetry off)\n");
    else
      fprintf(err, "note: symmetry reduction is not implemented yet: the search runs without it "
                   "(as with --symmetry off)\n");
  }

  McrtCtx *ctx = malloc(sizeof *ctx);
  if (!ctx || !mcrt_ctx_init(ctx, model, &opt)) {
    fprintf(err, "error: out of memory setting up the search\n");
    return MCRT_EXIT_USAGE;
  }
  ctx->progress_out = err;
  mcrt_search(ctx);
  // Liveness needs the whole graph: only after an exhaustive search
  // without a violation.
  if (ctx->live && !ctx->stop && !ctx->has_violation)
    mcrt_liveness_check(ctx);
  mcrt_print_trace(out, ctx);
  mcrt_print_summary(out, ctx);
  fflush(out);
  if (opt.report_file && !mcrt_write_report(opt.report_file, ctx, err))
    ctx->internal_error = true; // exit 2: the requested report is missing
  code = mcrt_exit_code(ctx);
  mcrt_ctx_free(ctx);
  free(ctx);
  return code;
}

int mcrt_main(const McrtModel *model, int argc, char **argv) {
  return mcrt_run(model, argc, argv, stdout, stderr);
}
