// SPDX-License-Identifier: MIT
// output/output.h: what a run shows (docs/DESIGN.md, "Runtime layers").
// Offers: values, traces, the summary and the JSON report (report.c), a
// net's answers (netreport.c), the output files settled before the search
// (outputs.c), the exports (export.c), the report's profile, coverage
// and timeline members (stats.c). Requires: analysis/analysis.h.
#ifndef MCRT_OUTPUT_H
#define MCRT_OUTPUT_H

#include "analysis/analysis.h"

// ---------------------------------------------------------------------------
// netreport.c: a net's answers (token maxima, deadlock, 1-safety,
// quasi-liveness, stable places, liveness L4), each exact, partial or refused.
// The answers for people (after the summary), as MCC's lines (--mcc), and
// as the report's "net" member (a leading comma and the member).
void mcrt_net_print(FILE *f, McrtCtx *ctx);
void mcrt_net_print_mcc(FILE *f, McrtCtx *ctx);
void mcrt_net_report_json(FILE *f, McrtCtx *ctx);
// Liveness (L4) over a reachability graph whose edge rules are transitions
// 0..ntrans-1: 1 when every transition labels an edge of every terminal
// strongly connected component, 0 when not (*not_live: a transition missing
// from one), -1 out of memory.
int mcrt_net_live(const McrtLiveGraph *g, uint32_t ntrans, uint32_t *not_live);

// ---------------------------------------------------------------------------
// report.c: values, traces, summary and the JSON report.
// report.c: "estimated collision probability P" for `states` fingerprints of `bits`
// bits, with the advice to use 128 bits when P is above 1e-3.
void mcrt_fprint_collision(FILE *f, uint64_t states, unsigned bits);
// Prints one value of type t stored at bit offset off of base.
void mcrt_print_value(FILE *f, const McrtType *t, const uint8_t *base, uint64_t off);
void mcrt_print_value_json(FILE *f, const McrtType *t, const uint8_t *base, uint64_t off);
void mcrt_print_json_string(FILE *f, const char *s);
// The rule group (init or action) of a rule, or NULL.
const McrtRuleGroup *mcrt_rule_group(const McrtModel *m, bool init, uint64_t rule);
// Prints "name(p=v, ...)" for a rule.
void mcrt_print_rule(FILE *f, const McrtModel *m, bool init, uint64_t rule);
// The same as JSON: `"action": ..., "rule": ..., "params": {...}` (no braces)
// and the state as an object of its variables.
void mcrt_print_rule_json(FILE *f, const McrtModel *m, bool init, uint64_t rule);
// The same without "rule" (a trail's step: its action and arguments).
void mcrt_print_step_name_json(FILE *f, const McrtModel *m, bool init, uint64_t rule);
// One step of a trace: text (its number, rule, and the values that changed
// from `before`, or all of them under --trace-style full) or a JSON object
// (rule and whole state), each with the model's watches in `after`.
void mcrt_print_step_text(FILE *f, McrtCtx *ctx, size_t i, bool init, uint64_t rule,
                          const uint8_t *before, const uint8_t *after);
void mcrt_print_step_json(FILE *f, McrtCtx *ctx, bool init, uint64_t rule,
                          const uint8_t *after);
// A lasso's marks around step i of n of a text trace (loop_start -1: none).
void mcrt_print_loop_marks(FILE *f, int64_t loop_start, bool stutter, size_t i, size_t n);
// "result: WORD: ", WORD the exit code's (ok, violation, error, incomplete),
// coloured as --color asks for f.
void mcrt_print_result(FILE *f, const McrtOptions *opt, int exit_code);
// A violation's message with its place in the spec ("... (file:line:col)").
void mcrt_violation_headline(FILE *f, const McrtViolation *v);
void mcrt_print_state_json(FILE *f, const McrtModel *m, const uint8_t *state);
// Prints the state: all leaves, or (prev != NULL) only those that differ.
void mcrt_print_state(FILE *f, const McrtModel *m, const uint8_t *state, const uint8_t *prev,
                      const char *indent);
// Prints the trace of the violation, if any, as text; replays it.
void mcrt_print_trace(FILE *f, McrtCtx *ctx);
// The same as one JSON document (--trace-format json): the violation
// object of the report, or null without a violation.
void mcrt_print_trace_json(FILE *f, McrtCtx *ctx);
// The rules of the violation's trace, a genuine run (under symmetry the
// log's path realised: mcrt_sym_realize), malloc'd in *path (path[0] an
// init rule), and the failing step's rule (a run-time error's); the number
// of rules (0: none, or the run could not be realised: said on f unless
// f is NULL).
size_t mcrt_violation_path(McrtCtx *ctx, uint64_t **path, uint64_t *step_rule, FILE *f);
// An invariant `forall x: T, ... :: P` violated: the binding that makes P
// false in the trace's last state, found by replaying the trace (the
// generated invariant names it: mcrt_witness), in the violation the run
// shows and appended to its message ("... does not hold for p=Proc_1").
void mcrt_name_binding(McrtCtx *ctx);
// --print-runs: a --simulate run as text, step by step (arg: the FILE).
void mcrt_print_run(void *arg, McrtCtx *ctx, uint64_t run, const uint64_t *path, size_t n);
// The violation the run shows: the full search's shortest one when it ran
// and found one (ctx->shortest), else the run's own.
const McrtViolation *mcrt_shown_violation(const McrtCtx *ctx);
// outputs.c: the files a run writes, settled before the search.
typedef struct McrtOutputs {
  FILE *report, *graph, *dot, *tests; // NULL: not asked for
  FILE *trail;                        // --trail FILE (the default trail opens when written)
} McrtOutputs;
// Whether the outputs opt asks for can be written: no two on one file, none
// on the checkpoint's files, --disk's directory or the regular file out or
// err goes to, each opens for writing (no file that exists is changed).
// False after a message on err.
bool mcrt_outputs_check(const McrtOptions *opt, FILE *out, FILE *err);
// The same check, then every output opened (truncated). False after a
// message on err, nothing left open.
bool mcrt_outputs_open(McrtOutputs *o, const McrtOptions *opt, FILE *out, FILE *err);
// Every output still open discarded (mcrt_output_discard), e.g. when the
// search could not be set up.
void mcrt_outputs_discard(McrtOutputs *o, const McrtOptions *opt);
// Closes an output that was not written whole (f NULL: nothing), removing
// path when f is a regular file: no half-written file is left.
void mcrt_output_discard(FILE *f, const char *path);
// Closes a written output; false (errno set, path removed when a regular
// file) if anything written was lost. Clear errno before writing.
bool mcrt_output_close(FILE *f, const char *path);
// export.c: --graph, --dot and --tests, written after the search from a
// graph explored on its own (the same whatever the search found), into the
// files o holds (each closed here). Each export's outcome goes to
// ctx->exported; one that fails is a warning on err, never the verdict's
// business.
void mcrt_export(McrtCtx *ctx, McrtOutputs *o, FILE *err);

// trail.c: the violation's trail (NAME.trail.json, --trail FILE), written
// into opened (--trail FILE, opened before the search) or the default file;
// a write that fails is a warning on err. Its outcome goes to ctx->trail
// for the summary's line and the report's member (report.c).
void mcrt_trail(McrtCtx *ctx, FILE *opened, FILE *err);
// --replay FILE: replays the trail with full checking, prints it and the
// result; the exit code (0: a run that violates nothing, 1: it ends in a
// violation, 2: refused, after a message on err).
int mcrt_replay_trail(const McrtModel *m, const McrtOptions *opt, FILE *out, FILE *err);

// report.c: prints the simulation's trace (a violation's), verdict and
// summary.
void mcrt_print_simulation(FILE *out, const McrtSimulation *sim);
// The verdict line, the summary; the exit code of the run.
int mcrt_exit_code(const McrtCtx *ctx);
void mcrt_print_summary(FILE *f, const McrtCtx *ctx);
// "ok", "violation", "error" or "incomplete" for an exit code.
const char *mcrt_verdict_word(int exit_code);
// The conclusion of a run, settled once (main.c's conclude()): the report
// states it, and it is the process's exit code. For a single run it is the
// run's own (mcrt_exit_code, ctx->bound); --symmetry verify combines two.
typedef struct McrtConclusion {
  int exit_code;
  McrtBound bound;        // the bound the run as a whole hit (NONE: none)
  McrtPhase phase;        // where (with a bound)
  int signal;             // which signal (MCRT_BOUND_INTERRUPTED)
  const char *verify;     // --symmetry verify: "agree", "differ", "not-compared"; else NULL
  const char *io_error;   // why stdout could not be written (NULL: it was)
  const McrtSimulation *sim; // --simulate: its runs (NULL: a search)
  // More top-level members written by a layer above (a net's answers,
  // netreport.c): ", \"name\": value..."; NULL: none.
  void (*more_json)(FILE *f, McrtCtx *ctx);
  // The members of stats.c (mcrt_stats_json); NULL: none.
  void (*stats_json)(FILE *f, const McrtCtx *ctx);
} McrtConclusion;
// The report's "schema" member: its name and version (docs/schema/
// report.schema.json describes it; fields are only ever added within a
// version, anything else raises it).
#define MCRT_REPORT_SCHEMA "mcgen-report/1"
// Writes the JSON report to f (opened at the start of the run; the caller
// closes it and checks that it was written: mcrt_output_close).
void mcrt_write_report(FILE *f, McrtCtx *ctx, const McrtConclusion *c);
const char *mcrt_bound_name(McrtBound b);
const char *mcrt_violation_kind_name(McrtViolationKind k);

// stats.c: the report's members on what the run did besides its verdict:
// "property_status", "profile", "coverage" and "timeline" (each with its
// leading comma).
void mcrt_stats_json(FILE *f, const McrtCtx *ctx);

#endif
