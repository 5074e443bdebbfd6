// SPDX-License-Identifier: MIT
// main.c: the checker's main, one call per stage: options, checks of the
// model against this runtime, signals caught, the output files opened, the
// search (twice under --symmetry verify), then the end of the run in one
// place: the conclusion (verdict and exit code) is settled once and both the
// summary and the report state it.
#include "main.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>

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

// ---------------------------------------------------------------------------
// Signals. SIGINT (Ctrl-C), SIGTERM (`timeout`, a cluster's scheduler) and
// SIGHUP (the terminal or ssh session closed) are caught for the whole run:
// the handler only sets mcrt_signal, and each phase polls it and stops in order (the search, the liveness check,
// --symmetry verify's second run, up to settle() at the end); the run then
// ends like one that hit a bound: a partial summary and report, exit 3. Once
// the result is settled, a signal changes nothing: the summary and the
// report being written state it. A second signal a quarter of a second or
// more after the first kills at once (the user insists); one sooner is the
// same request delivered twice and is ignored: timeout(1) sends its signal
// to the checker and then to the checker's whole process group. A signal ignored when the checker started (nohup, a
// background job of a script) stays ignored. SIGPIPE is ignored for the run:
// stdout piped into `head -1` that closes early is then a write error that
// deliver() reports (exit 2, in the report too), not a death that leaves
// the report file empty.

static struct timespec first_signal; // when mcrt_signal was set

static void on_signal(int sig) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now); // async-signal-safe (POSIX)
  if (!mcrt_signal) {
    first_signal = now;
    mcrt_signal = sig;
    return;
  }
  int64_t ms = (int64_t)(now.tv_sec - first_signal.tv_sec) * 1000 +
               (now.tv_nsec - first_signal.tv_nsec) / 1000000;
  if (ms < 250)
    return;
  signal(sig, SIG_DFL);
  raise(sig);
}

typedef struct Handlers {
  struct sigaction old_int, old_term, old_hup, old_pipe;
  sigset_t old_mask;
} Handlers;

// Installs the handlers, then lets the stop signals through: an MPI
// checker blocks them until here (mcrt_mpi_main: MPI_Init takes up to a
// second), and one that came meanwhile is taken now.
static void catch_signals(Handlers *h) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sa.sa_flags = 0;
  sigemptyset(&sa.sa_mask);
  mcrt_signal = 0;
  sigaction(SIGINT, NULL, &h->old_int);
  sigaction(SIGTERM, NULL, &h->old_term);
  sigaction(SIGHUP, NULL, &h->old_hup);
  if (h->old_int.sa_handler != SIG_IGN)
    sigaction(SIGINT, &sa, NULL);
  if (h->old_term.sa_handler != SIG_IGN)
    sigaction(SIGTERM, &sa, NULL);
  if (h->old_hup.sa_handler != SIG_IGN)
    sigaction(SIGHUP, &sa, NULL);
  struct sigaction ignore = sa;
  ignore.sa_handler = SIG_IGN;
  ignore.sa_flags = 0;
  sigaction(SIGPIPE, &ignore, &h->old_pipe);
  sigset_t stop = mcrt_stop_signals();
  sigprocmask(SIG_UNBLOCK, &stop, &h->old_mask);
}

// The handlers and the signal mask as they were (a signal in between is
// held back by the mask, not taken by a default action).
static void restore_signals(const Handlers *h) {
  sigset_t stop = mcrt_stop_signals();
  sigprocmask(SIG_BLOCK, &stop, NULL);
  sigaction(SIGINT, &h->old_int, NULL);
  sigaction(SIGTERM, &h->old_term, NULL);
  sigaction(SIGHUP, &h->old_hup, NULL);
  sigaction(SIGPIPE, &h->old_pipe, NULL);
  sigprocmask(SIG_SETMASK, &h->old_mask, NULL);
}

// The runs.

// Sets up a context and runs one search; NULL on failure (after a message).
static McrtCtx *search_once(const McrtModel *model, const McrtOptions *opt, FILE *err) {
  McrtCtx *ctx = malloc(sizeof *ctx);
  if (!ctx || !mcrt_ctx_init(ctx, model, opt)) {
    fprintf(err, "error: out of memory setting up the search\n");
    if (ctx)
      mcrt_ctx_free(ctx);
    free(ctx);
    return NULL;
  }
  ctx->progress_out = err;
  if ((opt->checkpoint_dir || opt->resume_dir) && mcrt_checkpoint_start(ctx, err) >= 0) {
    mcrt_ctx_free(ctx); // the checkpoint is refused (checkpoint.c said why)
    free(ctx);
    return NULL;
  }
  mcrt_profile_begin(ctx);
  mcrt_timeline_sample(ctx, true);
  if (mcrt_engine.search) // another engine (mpi.c)
    mcrt_engine.search(ctx);
  else if (opt->threads > 1)
    mcrt_threads_search(ctx, (uint32_t)opt->threads);
  else
    mcrt_search(ctx);
  mcrt_profile_end(ctx);
  mcrt_timeline_sample(ctx, true);
  // Liveness needs the whole graph: only after an exhaustive search
  // without a violation.
  if (ctx->live && !ctx->stop && !ctx->has_violation)
    mcrt_liveness_check(ctx);
  return ctx;
}

static void free_run(McrtCtx *ctx) {
  if (!ctx)
    return;
  free_run(ctx->shortest);
  free(ctx->shortest_opt);
  if (mcrt_engine.free_run)
    mcrt_engine.free_run(ctx);
  mcrt_ctx_free(ctx);
  free(ctx);
}

// ---------------------------------------------------------------------------
// The shortest trace under partial-order reduction (docs/DESIGN.md, "The
// shortest trace"). A breadth-first search of the reduced graph stops at the
// violation nearest the initial states in that graph, which may be far
// deeper than the nearest in the full graph: the stubborn sets delay
// independent actions. The reduced graph is a subgraph of the full one (of
// its quotient under symmetry), so the full graph has a violation at a
// depth <= d, the depth of the reduced search's violating state. Under the
// default, the full graph is then searched again breadth-first with
// --max-depth d + 1: every level up to d is expanded whole, exactly as
// --por off expands them, and --por off stops within them (at the latest
// at that state, or at its expansion for a deadlock or a failing step), so
// the second search stops where --por off does, with its trace; at any
// --threads N (the threads' contract: the same trace length at every N).
// The levels past d + 1 are never needed. The reduced run keeps its own
// counts for the summary; only the violation and its trace shown are the
// second search's. If the second search cannot finish (a bound, a signal,
// a disk error), the reduced trace is shown, said to be possibly not the
// shortest; the exit code is the violation's either way.

// The depth of the violating state in the run's graph.
static uint64_t violation_depth(const McrtCtx *ctx) {
  uint64_t *path;
  size_t n = mcrt_path_to(ctx, ctx->viol.state, &path);
  free(path);
  return n - 1;
}

static void find_shortest(McrtCtx *r, FILE *err) {
  const McrtOptions *opt = r->opt;
  const McrtViolation *v = &r->viol;
  // No trace, a lasso (liveness is never reduced), or an initial state's
  // (the initial states are the same in both graphs): nothing shorter. A
  // call of C that timed out ended the run: another search could wait as
  // long again at each state.
  if (!r->has_violation || v->path || v->state == MCRT_NO_STATE || v->timed_out)
    return;
  // Never reduced before the violation: the search was the full graph's.
  McrtPorStats s = mcrt_por_stats(r);
  if (!s.on || s.futile || !s.reduced)
    return;
  r->reduced_trace_depth = r->shown_trace_depth = violation_depth(r);
  if (opt->por_mode == MCRT_POR_ON) { // as asked: the reduced graph's trace
    r->shortest_status = MCRT_SHORTEST_POR_ON;
    return;
  }
  r->shortest_status = MCRT_SHORTEST_FALLBACK; // until the full search gives one
  McrtOptions *o = malloc(sizeof *o);
  if (!o)
    return;
  *o = *opt;
  o->por = false;
  o->por_mode = MCRT_POR_OFF;
  o->por_off_why = NULL;
  o->max_depth = r->reduced_trace_depth + 1;
  // --memory bounds the run: the second search gets what the first, still
  // held for its trace, leaves.
  if (opt->memory != MCRT_UNLIMITED) {
    size_t held = mcrt_accounted_bytes(r);
    o->memory = opt->memory > held ? opt->memory - held : 0;
  }
  r->shortest_opt = o;
  if (opt->progress_s > 0 && r->time_s >= opt->progress_s) { // progress lines were printed
    fprintf(err, "progress: partial-order reduction found a violation at depth %" PRIu64
                 "; searching the full graph to depth %" PRIu64 " for the shortest trace\n",
            r->reduced_trace_depth, o->max_depth);
    fflush(err);
  }
  mcrt_test_pause("shortest");
  r->shortest = search_once(r->model, o, err);
  const McrtCtx *f = r->shortest;
  if (f && f->has_violation) {
    r->shortest_status = MCRT_SHORTEST_FOUND;
    r->shown_trace_depth = f->viol.state == MCRT_NO_STATE ? 0 : violation_depth(f);
  }
  else if (f && f->bound == MCRT_BOUND_NONE)
    // A violation of the reduced graph that the full one lacks: impossible
    // unless fingerprints collided, or a bug. Said, not hidden.
    fprintf(err, "warning: the full search to depth %" PRIu64 " found no violation, though the "
                 "reduced search found one at depth %" PRIu64 " (a fingerprint collision, or a "
                 "bug in mcgen's partial-order reduction: please report it)\n",
            o->max_depth, r->reduced_trace_depth);
}

// Runs the search; under partial-order reduction, the full graph's bounded
// search after a violation (above). NULL on failure (after a message).
static McrtCtx *run_search(const McrtModel *model, const McrtOptions *opt, FILE *err) {
  McrtCtx *ctx = search_once(model, opt, err);
  if (ctx)
    find_shortest(ctx, err);
  return ctx;
}

// Setting up a search failed (after a message): no output, exit 2.
static int setup_failed(const McrtOptions *opt, McrtOutputs *outputs) {
  mcrt_outputs_discard(outputs, opt);
  return MCRT_EXIT_USAGE;
}

// A signal that came after the phases had ended, before the result was
// settled, still stops the run: it ends incomplete, as at any other moment,
// unless a violation was already found (that answer stands).
static void settle(McrtCtx *ctx) {
  atomic_store(&mcrt_search_over, true);
  if (mcrt_signal && !ctx->has_violation && ctx->bound == MCRT_BOUND_NONE)
    mcrt_stop_at(ctx, MCRT_BOUND_INTERRUPTED, MCRT_PHASE_END);
}

// The end of every run, once the summary is printed: checks that stdout took
// it, then writes the report, both from the conclusion c; returns its exit
// code. A failure to write stdout is a system error (exit 2), which the
// report then states too; a report that cannot be written (a full disk) is
// a warning and is removed: the exit code stays the verdict the summary
// gave.
static int deliver(McrtConclusion *c, McrtCtx *ctx, FILE *report, FILE *out, FILE *err) {
  c->stats_json = mcrt_stats_json;
  if (ctx->opt->format_json) // the report alone on stdout
    mcrt_write_report(out, ctx, c);
  int e = fflush(out) != 0 ? errno : 0;
  if (e || ferror(out)) {
    c->io_error = strerror(e ? e : EIO);
    c->exit_code = MCRT_EXIT_USAGE;
    fprintf(err, "error: cannot write the results to the standard output: %s\n", c->io_error);
  }
  if (report) {
    errno = 0;
    mcrt_write_report(report, ctx, c);
    if (!mcrt_output_close(report, ctx->opt->report_file))
      fprintf(err, "warning: the report %s could not be written: %s (the summary and the "
                   "exit code give the result)\n",
              ctx->opt->report_file, strerror(errno));
  }
  fflush(err);
  return c->exit_code;
}

// Where the text of the result (trace, summary) goes: stdout, unless stdout
// holds one JSON document (--format json: the report; --trace-format json:
// the violation), which a script reads whole: then stderr.
static FILE *text_stream(const McrtOptions *opt, FILE *out, FILE *err) {
  return opt->format_json || opt->trace_json ? err : out;
}

// --trace-format json: the violation (or null) alone on stdout; --format
// json's report holds it already.
static void print_trace_json(const McrtOptions *opt, McrtCtx *ctx, FILE *out) {
  if (opt->trace_json && !opt->format_json)
    mcrt_print_trace_json(out, ctx);
}

// The end of a single run: trace, summary, report, all from the same
// conclusion; its exit code.
static int conclude(McrtCtx *ctx, McrtOutputs *outputs, FILE *out, FILE *err) {
  mcrt_test_pause("report");
  settle(ctx);
  mcrt_name_binding(ctx);
  mcrt_trail(ctx, outputs->trail, err);
  if (ctx->net && ctx->opt->mcc) {
    mcrt_net_print_mcc(out, ctx);
  } else {
    FILE *text = text_stream(ctx->opt, out, err);
    mcrt_print_trace(text, ctx);
    print_trace_json(ctx->opt, ctx, out);
    mcrt_print_summary(text, ctx);
    if (ctx->net)
      mcrt_net_print(text, ctx);
  }
  McrtConclusion c = {.exit_code = mcrt_exit_code(ctx), .bound = ctx->bound,
                      .phase = ctx->bound_phase, .signal = ctx->bound_signal};
  if (ctx->net)
    c.more_json = mcrt_net_report_json;
  return deliver(&c, ctx, outputs->report, out, err);
}

// Whether two runs found the same thing: the same violation (kind and
// property) or none, the same reachables reached (not the exit codes: see
// compare_runs).
static bool same_verdict(const McrtCtx *a, const McrtCtx *b) {
  if (a->has_violation != b->has_violation)
    return false;
  const McrtViolation *va = mcrt_shown_violation(a), *vb = mcrt_shown_violation(b);
  if (a->has_violation &&
      (va->kind != vb->kind ||
       (va->name != vb->name && (!va->name || !vb->name || strcmp(va->name, vb->name)))))
    return false;
  for (uint32_t i = 0; i < a->model->nreachables; i++)
    if (a->reached[i] != b->reached[i])
      return false;
  return true;
}

// Whether a run gave an answer: a violation, or an exhaustive search.
static bool answered(const McrtCtx *c) {
  return c->has_violation || c->bound == MCRT_BOUND_NONE;
}

// --symmetry verify's conclusion from its two runs (a reduced, b not):
//   both answered: the verdicts agree (exit: theirs) or differ (exit 1: a
//     spec error, the spec tells scalarset elements apart; so is a trace of
//     a that cannot be replayed while b's can);
//   one stopped early: not compared; exit 1 if the other found a
//     violation, else 3 (incomplete);
//   an internal error (exit 2) wins, unless the verdicts differ.
static McrtConclusion compare_runs(const McrtCtx *a, const McrtCtx *b) {
  const McrtCtx *stopped = a->bound != MCRT_BOUND_NONE ? a : b;
  McrtConclusion c = {.bound = stopped->bound, .phase = stopped->bound_phase,
                      .signal = stopped->bound_signal};
  int code_a = mcrt_exit_code(a), code_b = mcrt_exit_code(b);
  bool internal = code_a == MCRT_EXIT_USAGE || code_b == MCRT_EXIT_USAGE;
  if (answered(a) && answered(b)) {
    // A trace found with the reduction that cannot be replayed, when the
    // one found without it can, is the spec's asymmetry too.
    bool agree = same_verdict(a, b) && !(a->internal_error && !b->internal_error);
    c.verify = agree ? "agree" : "differ";
    c.exit_code = !agree ? MCRT_EXIT_VIOLATION : internal ? MCRT_EXIT_USAGE : code_b;
  } else {
    c.verify = "not-compared";
    c.exit_code = internal                                 ? MCRT_EXIT_USAGE
                  : a->has_violation || b->has_violation ? MCRT_EXIT_VIOLATION
                                                         : MCRT_EXIT_INCOMPLETE;
  }
  return c;
}

static void print_run_verdict(FILE *f, const McrtCtx *c) {
  fputs(mcrt_verdict_word(mcrt_exit_code(c)), f);
  const McrtViolation *v = mcrt_shown_violation(c);
  if (c->has_violation)
    fprintf(f, " (%s%s%s)", mcrt_violation_kind_name(v->kind), v->name ? " " : "",
            v->name ? v->name : "");
  else if (c->bound != MCRT_BOUND_NONE)
    fprintf(f, " (%s)", mcrt_bound_name(c->bound));
  fprintf(f, ", %" PRIu64 " states", c->states);
}

// The line that ends --symmetry verify's output: the comparison and its
// result (the exit code).
static void print_comparison(FILE *f, const McrtCtx *a, const McrtCtx *b, const McrtConclusion *c) {
  if (!strcmp(c->verify, "agree"))
    fputs("symmetry verify: the verdicts agree: with reduction ", f);
  else if (!strcmp(c->verify, "differ"))
    fputs("symmetry verify: FAILED, the verdicts differ: with reduction ", f);
  else
    fprintf(f, "symmetry verify: not compared, %s stopped early: with reduction ",
            !answered(a) && !answered(b) ? "both searches"
            : answered(a)                ? "the search without reduction"
                                         : "the search with reduction");
  print_run_verdict(f, a);
  fputs("; without ", f);
  print_run_verdict(f, b);
  fprintf(f, "; result: %s (exit %d)", mcrt_verdict_word(c->exit_code), c->exit_code);
  if (!strcmp(c->verify, "differ"))
    fputs(": an error in the spec: it tells the elements of a scalarset apart in a way the "
          "compiler's symmetry rules missed, so the reduction is not sound for it",
          f);
  fputc('\n', f);
}

// --symmetry verify: the search with the reduction, then without; the
// verdicts must agree (the counts differ on purpose). The report (--report)
// is the reduced run's, with the other run's verdict and the comparison's.
static int verify_symmetry(const McrtModel *model, const McrtOptions *opt,
                           McrtOutputs *outputs, FILE *out, FILE *err) {
  McrtOptions on = *opt, off = *opt;
  on.symmetry = MCRT_SYM_ON;
  off.symmetry = MCRT_SYM_OFF;
  McrtCtx *a = run_search(model, &on, err);
  if (!a)
    return setup_failed(opt, outputs);
  mcrt_test_pause("verify-second");
  McrtCtx *b = run_search(model, &off, err); // stops at once after a signal
  if (!b) {
    free_run(a);
    return setup_failed(opt, outputs);
  }
  mcrt_test_pause("report");
  settle(b); // the last phase: a signal from here on stops it, not the finished first run
  a->unreduced = b;
  McrtConclusion c = compare_runs(a, b);
  FILE *text = text_stream(opt, out, err);
  mcrt_name_binding(a);
  mcrt_name_binding(b);
  mcrt_trail(a->has_violation ? a : b, outputs->trail, err);
  fputs("== symmetry verify: the search with symmetry reduction ==\n", text);
  mcrt_print_trace(text, a);
  mcrt_print_summary(text, a);
  fputs("== symmetry verify: the search without symmetry reduction ==\n", text);
  mcrt_print_trace(text, b);
  mcrt_print_summary(text, b);
  print_trace_json(opt, a, out); // the reduced run's, as the report is
  // Replaying a trace may have found an internal error: compare again.
  c = compare_runs(a, b);
  print_comparison(text, a, b, &c);
  int code = deliver(&c, a, outputs->report, out, err);
  free_run(b);
  free_run(a);
  return code;
}

// --simulate: the runs (engine/simulate.c), each printed as it ends under
// --print-runs, then their result (report.c) and report, as a search's.
static int simulate(const McrtModel *model, const McrtOptions *opt, McrtOutputs *outputs,
                    FILE *out, FILE *err) {
  FILE *text = text_stream(opt, out, err);
  McrtSimulation sim;
  if (!mcrt_simulate(model, opt, &sim, opt->print_runs ? mcrt_print_run : NULL, text)) {
    fprintf(err, "error: out of memory setting up the simulation\n");
    return setup_failed(opt, outputs);
  }
  mcrt_test_pause("report");
  McrtCtx *ctx = sim.ctx;
  settle(ctx);
  mcrt_name_binding(ctx);
  mcrt_trail(ctx, outputs->trail, err);
  mcrt_print_simulation(text, &sim);
  print_trace_json(opt, ctx, out);
  McrtConclusion c = {.exit_code = mcrt_exit_code(ctx), .bound = ctx->bound,
                      .phase = ctx->bound_phase, .signal = ctx->bound_signal, .sim = &sim};
  int code = deliver(&c, ctx, outputs->report, out, err);
  mcrt_simulation_free(&sim);
  return code;
}

// The run: the search (twice under --symmetry verify), the exports, then
// its end. The exports cannot change the verdict: one that fails is a
// warning, a summary line and a report field (export.c).
static int run(const McrtModel *model, McrtOptions *opt, McrtOutputs *outputs, FILE *out,
               FILE *err) {
  mcrt_test_pause("start");
  if (opt->symmetry == MCRT_SYM_VERIFY)
    return verify_symmetry(model, opt, outputs, out, err);
  if (opt->sim_runs) // --simulate: random runs instead (simulate.c)
    return simulate(model, opt, outputs, out, err);
  McrtCtx *ctx = run_search(model, opt, err);
  if (!ctx)
    return setup_failed(opt, outputs);
  atomic_store(&mcrt_search_over, true);
  mcrt_export(ctx, outputs, err); // --graph, --dot, --tests (export.c)
  int code = conclude(ctx, outputs, out, err);
  free_run(ctx);
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
  if (opt.por_mode == MCRT_POR_AUTO) { // the default: the reduction where it fits
    opt.por_off_why = mcrt_por_unfit(model, &opt);
    opt.por = !opt.por_off_why;
  }
  if (opt.search == MCRT_SEARCH_ODPOR && (code = mcrt_odpor_prepare(model, &opt, err)) >= 0)
    return code;
  if ((code = mcrt_por_check(model, &opt, err)) >= 0)
    return code;
  if (mcrt_engine.check && (code = mcrt_engine.check(model, &opt, err)) >= 0)
    return code;
  if ((code = mcrt_checkpoint_check(model, &opt, err)) >= 0) // --disk, --checkpoint, --resume
    return code;
  if (opt.fixed_trace && !mcrt_engine.search) { // not the MPI engine: threads.c's fixed order
    if (opt.order_given && opt.order_free) {
      fprintf(err, "error: --fixed-trace asks for the same trace at every number of threads, "
                   "--order free for the trace the threads come to first: give one of them\n");
      return MCRT_EXIT_USAGE;
    }
    opt.order_free = false;
  }
  if (opt.compact_set && opt.fingerprint_bits == 128) // ctx.c: the compact set has 64-bit slots
    fprintf(err, "note: --compact-set keeps 64-bit fingerprints only, so with --fingerprint 128 "
                 "the search uses the normal set (drop --fingerprint 128 for the compact one)\n");
  if (mcrt_engine.silent) // another process writes the report, the exports and the trail
    opt.report_file = opt.graph_file = opt.dot_file = opt.tests_file = opt.trail_file = NULL;
  // The handlers first: a signal between the two still gives a report.
  Handlers h;
  catch_signals(&h);
  mcrt_test_pause("handlers");
  McrtOutputs outputs;
  atomic_store(&mcrt_search_over, false);
  if (!mcrt_watchdog_start(model, &opt, err) || !mcrt_outputs_open(&outputs, &opt, out, err)) {
    mcrt_watchdog_stop();
    restore_signals(&h);
    return MCRT_EXIT_USAGE;
  }
  code = opt.replay_file ? mcrt_replay_trail(model, &opt, out, err) // (trail.c)
                         : run(model, &opt, &outputs, out, err);
  mcrt_watchdog_stop();
  restore_signals(&h);
  return code;
}

// A checker built without --mpi started by mpirun on several ranks would
// run the whole search once per rank: refused.
int mcrt_main(const McrtModel *model, int argc, char **argv) {
  long ranks = mcrt_launcher_ranks();
  if (ranks > 1) {
    fprintf(stderr,
            "error: this checker was built without --mpi, but mpirun (or another MPI launcher) "
            "started it as %ld ranks: each would repeat the whole search. Build it with "
            "`mcgen --mpi SPEC` to share the search among the ranks, or run it without mpirun\n",
            ranks);
    return MCRT_EXIT_USAGE;
  }
  return mcrt_run(model, argc, argv, stdout, stderr);
}
