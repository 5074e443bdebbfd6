// SPDX-License-Identifier: MIT
// context/context.h: the search context (docs/DESIGN.md, "Runtime layers").
// Offers: McrtCtx and the results a run records in it (violations, bounds),
// setting up and freeing its stores, what --memory counts, the error slot
// generated code fills, stopping at a bound (ctx.c); partial-order
// reduction's choice of successors (por.c); replaying rules (replay.c);
// checkpoints (checkpoint.c). Requires: store/store.h.
#ifndef MCRT_CONTEXT_H
#define MCRT_CONTEXT_H

#include "store/store.h"

// ---------------------------------------------------------------------------
// The search context (ctx.c), shared by every engine; the types of its
// results.
typedef enum {
  MCRT_BOUND_NONE,
  MCRT_BOUND_MAX_STATES,
  MCRT_BOUND_MAX_STEPS,
  MCRT_BOUND_MAX_DEPTH,
  MCRT_BOUND_MEMORY,
  MCRT_BOUND_INTERRUPTED,
  MCRT_BOUND_NET_CAPACITY, // a net: a place's counter blocked a transition (the search goes on)
  MCRT_BOUND_CYCLE,        // --search odpor without --max-depth: an execution met a state twice
  MCRT_BOUND_DISK,         // --disk: a file there could not be written or read (disk.c)
  MCRT_BOUND_SIMULATION,   // --simulate without a violation: random runs are no proof
} McrtBound;

typedef enum {
  MCRT_VIOL_INVARIANT,
  MCRT_VIOL_ASSERT,
  MCRT_VIOL_DEADLOCK,
  MCRT_VIOL_RUNTIME_ERROR,
  MCRT_VIOL_REACHABLE,
  MCRT_VIOL_LIVENESS,
  MCRT_VIOL_NO_INITIAL_STATE, // the init blocks give no state: nothing was checked
} McrtViolationKind;

// Where a run stopped at a bound: in the state search, in the liveness
// check after a complete search, or at the end, after both had ended (a
// signal while the result was being settled).
typedef enum { MCRT_PHASE_SEARCH, MCRT_PHASE_LIVENESS, MCRT_PHASE_END } McrtPhase;

// Whether the trace printed is the shortest, when partial-order reduction
// had a hand in it (main.c's find_shortest; NONE: it had none, the trace is
// the full graph's breadth-first one).
typedef enum {
  MCRT_SHORTEST_NONE,
  MCRT_SHORTEST_FOUND,    // the default: the bounded full search gave it
  MCRT_SHORTEST_FALLBACK, // the default: that search stopped; the reduced trace
  MCRT_SHORTEST_POR_ON,   // --por on: the reduced trace, as asked
} McrtShortest;

// The error slot: a run-time error or failed assert reported by generated code.
typedef struct McrtError {
  bool set;
  bool is_assert;
  char message[512];
  const char *file;
  int line, col;
  bool has_rule, rule_init; // set by mcrt_failed_in_rule
  uint64_t rule;
  uint8_t abandoned; // a C call abandoned (watchdog.c): MCRT_CALL_TIMED_OUT or _INTERRUPTED
} McrtError;

// Why the watchdog abandoned a call of C (McrtError.abandoned): it ran past
// --extern-timeout (a run-time error that ends the run at once), or a stop
// signal came (the run ends incomplete, as at any other moment).
enum { MCRT_CALL_TIMED_OUT = 1, MCRT_CALL_INTERRUPTED = 2 };

// A binder of an invariant's forall and its value (mcrt_witness).
typedef struct McrtBinding {
  const char *name;
  const McrtType *type;
  uint64_t encoding;
} McrtBinding;
#define MCRT_MAX_BINDING 16 // binders of a chain of foralls that a violation names

typedef struct McrtViolation {
  McrtViolationKind kind;
  const char *name; // invariant or reachable name; NULL otherwise
  char message[600];
  const char *file; // where the failing spec element is (may be NULL)
  int line, col;
  uint64_t state;      // the trace leads to this state id (MCRT_NO_STATE: none)
  bool has_step;       // then one more, failing step from that state
  bool step_init;      // the failing step is an init rule (state is then none)
  uint64_t step_rule;
  bool timed_out;      // a call of C ran past --extern-timeout and ended the run at once
  // Liveness: the whole trace as rules (path[0] an init rule, then action
  // rules), malloc'd, replacing the parent-pointer path to `state`; the
  // cycle starts at step loop_start (-1: a finite prefix) and its last step
  // returns to that state; `stutter`: the state at loop_start has no
  // successor and repeats forever (no cycle steps).
  uint64_t *path;
  size_t npath;
  int64_t loop_start;
  bool stutter;
  // An invariant `forall x: T, ... :: P`: the binding that makes P false in
  // the trace's last state (report.c's mcrt_name_binding; 0: none).
  McrtBinding binding[MCRT_MAX_BINDING];
  uint32_t nbinding;
} McrtViolation;

// A successor waiting in the batch (see search.c).
#ifndef MCRT_BATCH
#define MCRT_BATCH 16
#endif
#define MCRT_LINE 64 // bytes in a cache line (memory that threads write apart is kept this far apart)
// What is known of a successor's fingerprint before it is taken.
typedef enum {
  MCRT_LOOKUP_INSERT, // nothing: insert it now
  MCRT_LOOKUP_KNOWN,  // looked up: the set had it before this level
  MCRT_LOOKUP_NEW,    // inserted by the engine, and new
  MCRT_LOOKUP_OLD,    // inserted by the engine, and seen before
} McrtLookup;
typedef struct McrtPending {
  McrtFp fp;
  uint64_t rule;
  uint64_t depth;   // of the successor
  uint32_t parent;  // id of the state it is a successor of
  uint32_t action;
  bool at_bound;    // the parent is at --max-depth: look up only
  uint8_t lookup;   // McrtLookup
  // Liveness, lookup KNOWN or OLD: the target's id (MCRT_ID_PENDING: new
  // earlier in the same window, its id not yet given when it was looked up).
  uint32_t to;
} McrtPending;

// A new state's invariants and reachables, evaluated by a worker thread:
// inv the first invariant that fails (-1: none), bit i of reach whether
// reachable i holds (for those not reached when the level's window began).
typedef struct McrtPrecheck {
  int inv;
  uint64_t reach;
} McrtPrecheck;

// An export's outcome (export.c), for the summary and the report.
typedef struct McrtExported {
  const char *option, *path; // "--graph", "--dot", "--tests"; the file
  bool written;              // the file holds the export
  bool trace_only;           // --dot over its cap: the violation's path alone
  char note[384];            // written whole: what it holds; else why not, or why the path alone
} McrtExported;

// The profile of a search (profile.c): exact counts per action, and the
// time each action's successors take, measured on a sample of the
// expansions (a cycle counter around each action's step, one expansion in
// `period`). Each thread counts in its own context; the engine merges them.
typedef struct McrtProfile {
  uint64_t expansions;   // states whose successors the search computed
  uint64_t *enabled;     // per action: successors emitted (the guard held)
  uint64_t *ticks;       // per action: ticks in timed expansions, times their period
  uint64_t other_ticks;  // the rest of the timed expansions' ticks, weighted alike
  uint64_t timed;        // expansions timed
  uint64_t countdown;    // expansions until the next timed one
  uint64_t period;       // one expansion timed in `period` (it doubles as the run goes)
  uint64_t start_ticks;  // the counter and the clocks when the search began and ended
  uint64_t end_ticks;    // (the counter's rate, for seconds; the process's CPU time)
  double start_s, end_s, start_cpu, end_cpu;
  uint8_t *scratch;      // a successor's buffer for the timed expansions
  uint8_t *covered;      // the statements run by the search (a copy of the
                         // model's marks when it ended; NULL before)
} McrtProfile;

// The search's course over time (timeline.c): a sample of its counters
// every `every` seconds, at most MCRT_SAMPLES (when full, every other one
// is dropped and the interval doubles).
#define MCRT_SAMPLES 2048
typedef struct McrtSample {
  double t; // seconds since the search began
  uint64_t states, transitions, frontier, depth, memory;
} McrtSample;
typedef struct McrtTimeline {
  double origin, every, next; // (origin: the first sample's clock)
  uint32_t n;
  McrtSample s[MCRT_SAMPLES];
} McrtTimeline;

struct McrtCtx {
  const McrtModel *model;
  const McrtOptions *opt;
  McrtFpSet set;
  McrtLog log;
  McrtQueue queue;
  size_t state_bytes;
  unsigned fp_bits;

  // The state being expanded.
  uint8_t *cur; // state_bytes + MCRT_SLACK
  uint64_t cur_id;
  uint64_t cur_depth;
  bool cur_has_successor;
  bool at_depth_bound; // successors of cur are looked up, not added

  // Successors emitted but not yet inserted, a ring: the oldest is
  // pend[pend_head], npending of them; state i at pend_states + i *
  // pend_stride (state_bytes + MCRT_SLACK).
  McrtPending pend[MCRT_BATCH];
  uint32_t npending, pend_head;
  uint8_t *pend_states;
  size_t pend_stride;

  // Counters.
  uint64_t states, transitions, depth; // depth: of the deepest state (initial: 0)
  uint64_t deadlocks;                  // expanded states without successors (not terminal)
  uint64_t accepting;                  // states where model->is_accepting holds
  uint64_t *fired;                     // per action
  // Successors of states at --max-depth, looked up but not expanded: they
  // count as transitions only if the bound turns out to have hidden nothing.
  uint64_t bound_transitions;
  uint64_t *bound_fired;               // per action
  bool *reached;                       // per reachable predicate
  uint32_t nreached;
  double start_time, time_s;
  uint64_t peak_bytes; // highest accounted bytes seen
  size_t engine_bytes; // held by the engine besides the stores (accounted)
  uint32_t threads;    // that explored (1: the serial search)
  double phase_s[3];   // threads: wall time in the expand, insert, commit phases
  double grow_s;       // wall time in the fingerprint set's growths (any engine)
  // threads: the depth whose level was the first expanded in free order
  // (0: free order throughout; MCRT_UNLIMITED: fixed order throughout; a
  // retired --por's switch between: mcrt_por_retired)
  uint64_t free_from;

  McrtError err;
  // The binding of the last forall of an invariant found false
  // (mcrt_witness), for the violation to name.
  McrtBinding witness[MCRT_MAX_BINDING];
  uint32_t nwitness;
  bool has_violation;
  McrtViolation viol;
  McrtBound bound;
  McrtPhase bound_phase; // where the bound was hit
  int bound_signal;      // MCRT_BOUND_INTERRUPTED: the signal (SIGINT, SIGTERM)
  bool stop;
  // A violation is held in viol, not yet reported: its trace is one step
  // longer than the level being expanded, so the rest of the level is
  // expanded only to look for a shorter one (search.c, "Stopping").
  bool held;
  bool replaying;       // inside trace replay: emits are internal errors
  bool depth_truncated; // a state at --max-depth had an unexplored successor
  bool log_full;        // max-states was hit by the log's 2^32-1 limit
  bool internal_error;  // replay did not reproduce the search (mcgen bug)
  bool io_error;        // the output or the report could not be written

  double next_progress;
  FILE *progress_out;

  // A worker of another engine (threads.c, a rank of mpi.c):
  // mcrt_emit_successor hands it the successors, mcrt_emit_initial the
  // initial states when emit_initial is set (NULL in the serial search).
  bool (*emit)(McrtCtx *ctx, const uint8_t *next, uint32_t action, uint64_t rule);
  void (*emit_initial)(McrtCtx *ctx, const uint8_t *state, uint64_t rule);
  void *worker;

  struct McrtLive *live; // liveness: the edge table (NULL when not checked)
  struct McrtNetRun *net; // a place/transition net's records (net.c; NULL for a spec)
  McrtSym *sym;   // symmetry reduction: states are canonicalised (NULL: off)
  struct McrtPor *por; // the reduction in effect (por.c; NULL: off)
  const char *por_futile; // the default dropped it: why no state could be reduced (por.c)
  size_t por_bytes;    // what the reduction holds (por.c keeps it up to date)
  uint8_t *canon; // a buffer for canonical forms (state_bytes + MCRT_SLACK)
  const McrtCtx *unreduced; // --symmetry verify: the run without reduction
  // The trace under partial-order reduction (main.c's find_shortest): the
  // reduced graph's breadth-first trace need not be the shortest, so under
  // the default a second search of the full graph, bounded to the depth of
  // the reduced search's violation, gives one.
  McrtShortest shortest_status;
  uint64_t reduced_trace_depth; // the reduced search's violating state's depth
  uint64_t shown_trace_depth;   // the depth of the violating state shown
  McrtCtx *shortest;            // that full search (NULL: none was run)
  McrtOptions *shortest_opt;    // its options (owned here)
  struct McrtDisk *disk;          // --disk (disk.c; NULL without)
  struct McrtCheckpoint *ckpt;    // --checkpoint, --resume (checkpoint.c; NULL without)
  McrtExported exported[3];       // --graph, --dot, --tests as asked (export.c)
  uint32_t nexported;
  McrtExported trail;             // the violation's trail (trail.c; option NULL: none written)
  McrtProfile prof;               // profile.c
  McrtTimeline *timeline;         // timeline.c (NULL in a worker's context)
};

// ctx.c: the context's stores, what --memory counts, the error slot
// generated code fills (mcrt.h), stopping.
// Sets up ctx for a run of model with opt; false on failure (message on err).
bool mcrt_ctx_init(McrtCtx *ctx, const McrtModel *model, const McrtOptions *opt);
// Records a violation whose trace is a rule path (an initial rule, then
// action rules) rather than a state of the log, as the stateless searches
// (--simulate, --search odpor) have: the message already in ctx->viol is
// kept, the run stops, and v->path has room for npath rules (npath set; the
// caller fills them). With npath 0 there is no state to show.
McrtViolation *mcrt_path_violation(McrtCtx *ctx, McrtViolationKind kind, uint64_t npath);
void mcrt_ctx_free(McrtCtx *ctx);
// The path of rules from an initial state to state id: out[0] is the init
// rule, out[i>0] action rules. Returns the number of steps (depth + 1);
// *out is malloc'd.
size_t mcrt_path_to(const McrtCtx *ctx, uint64_t id, uint64_t **out);

// What --memory counts: every store of the context, and what an engine
// holds on the side (ctx->engine_bytes: the threads' or MPI's buffers).
size_t mcrt_accounted_bytes(const McrtCtx *ctx);

void mcrt_clear_error(McrtCtx *ctx);
// Stops the run at bound b, hit in the given phase (SIGINT/SIGTERM: b is
// MCRT_BOUND_INTERRUPTED and the signal is mcrt_signal).
void mcrt_stop_at(McrtCtx *ctx, McrtBound b, McrtPhase phase);

// ---------------------------------------------------------------------------
// por.c: partial-order reduction (--por on): static stubborn sets over the
// model's dependency tables, with a cycle proviso for breadth-first search.

typedef struct McrtPor McrtPor;
// The search context's reduction (NULL: out of memory, or no tables), and a
// worker's, sharing the main one's tables (threads.c).
McrtPor *mcrt_por_new(McrtCtx *ctx);
McrtPor *mcrt_por_worker(const McrtPor *main);
void mcrt_por_free(McrtPor *p);
// The successors of a state (every enabled rule's, in rule order) and those
// to take: take[i] for successor i, or take NULL: all of them. Valid until
// the next call on the same context.
typedef struct McrtPorBatch {
  uint32_t n;
  const uint8_t *states; // successor i at states + i * stride
  size_t stride;
  const uint64_t *rules;
  const uint32_t *actions;
  const bool *take;
  bool plain; // no closure was computed: expand the state as without --por
} McrtPorBatch;
// `successors` computes a state's successors (the engine's: mcrt_successors).
McrtPorBatch mcrt_por_choose(McrtCtx *ctx, const uint8_t *state,
                             void (*successors)(McrtCtx *ctx, const uint8_t *state));
// The search found a new state at `depth` (the proviso's "new").
void mcrt_por_discovered(McrtCtx *ctx, McrtFp fp, uint64_t depth);
typedef struct McrtPorStats {
  bool on;
  uint64_t reduced, full; // expansions with a proper subset of the enabled rules, with all
  uint64_t pruned;        // enabled rules left out, over all reduced expansions
  const char *futile;     // why the tables rule out any reduction (then nothing is tried)
  uint64_t skipped;       // full expansions that did not try the closures (sampling)
  bool retired;           // --por auto: retired from retired_depth on (mcrt_por_retired)
  uint64_t retired_depth;
} McrtPorStats;
McrtPorStats mcrt_por_stats(const McrtCtx *ctx);
// --por auto: the reduction did not pay even at the largest sampling period
// and is retired: every state from then on is expanded fully, as without
// --por, and nothing is recorded for the proviso (a full expansion needs
// none). The level where it retires depends only on the levels before, so
// the graph is the same at every --threads N.
bool mcrt_por_retired(const McrtCtx *ctx);
// After the options are read: -1 to go on, else MCRT_EXIT_USAGE after a
// message (no tables, a net, liveness, the MPI engine).
int mcrt_por_check(const McrtModel *m, const McrtOptions *opt, FILE *err);
// --por auto, the default: the reduction wherever --por on would be accepted
// and keeps every answer the run gives; elsewhere off, as with --por off, and
// this says why (NULL: it fits). Off where --por on is refused (liveness, a
// net, the MPI engine, no tables, checkpoints), and where --por on is taken
// but the run's answers are those of the whole graph or of a bounded one
// (exports, --max-depth, --simulate, --search odpor).
const char *mcrt_por_unfit(const McrtModel *m, const McrtOptions *opt);

// ---------------------------------------------------------------------------
// profile.c: the profile of a search (McrtProfile, above). Its counters
// cost an increment per expansion and per successor; every `period`-th
// expansion is timed action by action (McrtModel.action_steps,
// engine/search.c).
bool mcrt_profile_init(McrtProfile *p, const McrtModel *m);
void mcrt_profile_free(McrtProfile *p);
// A worker's counts added to the run's (then freed).
void mcrt_profile_merge(McrtCtx *ctx, McrtCtx *worker);
// The search began, and ended: the clock, and the coverage it reached (the
// exports and the trace printers run the spec's code again later).
void mcrt_profile_begin(McrtCtx *ctx);
void mcrt_profile_end(McrtCtx *ctx);
// Per action: the states it found first (the log's records; NULL when
// the log does not hold every state: under MPI, rank 0's part). Malloc'd.
uint64_t *mcrt_profile_new_states(const McrtCtx *ctx);
// Per action: bindings whose guard was evaluated, or UINT64_MAX when that
// depends on the state (a parameter `x in EXPR`).
uint64_t mcrt_profile_tried(const McrtCtx *ctx, uint32_t action);
// The seconds action's successors took, handing them to the search
// included (an estimate from the timed expansions: -1 when none was
// timed); the CPU seconds of the whole search, every thread's.
double mcrt_profile_seconds(const McrtCtx *ctx, uint32_t action);
double mcrt_profile_cpu_seconds(const McrtCtx *ctx);

// ---------------------------------------------------------------------------
// timeline.c: the search's course over time (McrtTimeline, above).
// A sample now, if one is due (force: in any case).
void mcrt_timeline_sample(McrtCtx *ctx, bool force);

// ---------------------------------------------------------------------------
// replay.c: replaying rules through the generated code.
// Runs one step of a replay: init rule into b, or action rule from a into b.
// Returns false (and the failure in ctx->err) when the rule does not apply.
bool mcrt_replay_step(McrtCtx *ctx, bool init, uint64_t rule, const uint8_t *a, uint8_t *b);

// Turns the path of rules to a canonical state (mcrt_path_to under
// symmetry) into a genuine execution: rewrites each action rule, and the
// failing step's, so that replaying them without canonicalisation is a run
// of the spec through states of the same classes. False if impossible (a
// bug: the trace is then wrong).
bool mcrt_sym_realize(McrtCtx *ctx, uint64_t *path, size_t n, bool has_step, uint64_t *step_rule);

// ---------------------------------------------------------------------------
// checkpoint.c: --checkpoint DIR, --resume DIR (docs/DESIGN.md).

// After the options are read: -1 to go on, else an exit code after a
// message (combinations refused).
int mcrt_checkpoint_check(const McrtModel *model, const McrtOptions *opt, FILE *err);
// Sets up checkpoints (after mcrt_ctx_init) and with --resume loads the
// checkpoint into ctx: the set, the log, the frontier, the counters. -1 on
// success, else an exit code after a message on err.
int mcrt_checkpoint_start(McrtCtx *ctx, FILE *err);
// Whether the run went on from a checkpoint (its initial states are in it),
// and where: the id of the frontier's first state, the first id of the next
// level (ctx->cur_depth is the level's depth). False: a fresh run.
bool mcrt_checkpoint_resumed(const McrtCtx *ctx);
bool mcrt_checkpoint_position(const McrtCtx *ctx, uint64_t *popped, uint64_t *level_end);
// Writes a checkpoint when --checkpoint is on and it is time (or `now`):
// the search stands between two expansions, nothing pending; the frontier
// holds the states from id `popped` on. A failure is reported on stderr
// and the search goes on (the previous checkpoint stays).
void mcrt_checkpoint_maybe(McrtCtx *ctx, uint64_t popped, uint64_t level_end, bool now);
// Whether a checkpoint is due (now: a signal asks for one); cheap, so that
// the search may ask between any two expansions.
bool mcrt_checkpoint_due(McrtCtx *ctx, bool now);
void mcrt_checkpoint_summary(FILE *f, const McrtCtx *ctx);
// The same for the JSON report: `, "resumed": {...}, "checkpoints": {...}`
// (each only when it applies).
void mcrt_checkpoint_report_json(FILE *f, const McrtCtx *ctx);
void mcrt_checkpoint_free(McrtCtx *ctx);

#endif
