// SPDX-License-Identifier: MIT
// options.c: the checker's command line, as docs/DESIGN.md lists it, parsed
// from one table (options[] below): each option's name, short form, kind of
// value, range and help, from which --help is printed (the man page's
// SYNOPSIS is checked against --help by tests/install). A long option takes
// its value as the next argument or after '=' (--max-states=1000); a short
// one as the next argument or glued to it (-t4); short flags combine (-qv).
// A misspelt long option gets the nearest name as a hint.
#include "core/core.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <unistd.h>

// ---------------------------------------------------------------------------
// The table.

// The kinds of value an option takes.
typedef enum {
  VAL_NONE,    // a flag
  VAL_COUNT,   // a whole number from min to max
  VAL_SECONDS, // a number of seconds from 0 to 10^9, fractions allowed
  VAL_MINUTES, // a number of minutes above 0 up to 10^7, fractions allowed
  VAL_SIZE,    // a number of bytes with an optional suffix: 512M, 4G
  VAL_WORD,    // one of the words of `arg`, separated by '|'
  VAL_PATH,    // a file or directory name, not empty
} ValueKind;

typedef enum {
  O_MAX_STATES, O_MAX_STEPS, O_MAX_DEPTH, O_MEMORY, O_FINGERPRINT, O_COMPACT_SET, O_SYMMETRY,
  O_SYMMETRY_METHOD, O_POR, O_NO_DEADLOCK, O_LIVENESS, O_LIVENESS_ENGINE, O_TRACE_FORMAT,
  O_TRACE_STYLE, O_REPORT, O_PROGRESS, O_EXTERN_TIMEOUT, O_THREADS, O_ORDER, O_FIXED_TRACE,
  O_SEARCH, O_GRAPH, O_GRAPH_MAX_STATES,
  O_DOT, O_DOT_MAX_STATES, O_TESTS, O_TESTS_COVER, O_TESTS_MAX_STEPS, O_SIMULATE, O_DEPTH,
  O_SEED, O_PRINT_RUNS, O_COLOR, O_TRAIL, O_NO_TRAIL, O_REPLAY, O_FORMAT, O_QUIET, O_MCC, O_DISK, O_CHECKPOINT, O_CHECKPOINT_EVERY, O_RESUME, O_HELP,
  O_VERSION,
} OptionId;

typedef struct OptionSpec {
  OptionId id;
  const char *name;   // the long form, without its dashes
  char letter;        // the short form (0: none)
  ValueKind kind;
  const char *arg;    // the value as --help shows it ("N", "on|off|verify")
  uint64_t min, max;  // VAL_COUNT: the range
  const char *expect; // what a bad value should have been (VAL_WORD: from arg)
  const char *help;   // --help's lines, '\n' between them
} OptionSpec;

static const OptionSpec options[] = {
    {O_MAX_STATES, "max-states", 0, VAL_COUNT, "N", 0, UINT64_MAX, "a number of states",
     "stop after N distinct states (result: incomplete)"},
    {O_MAX_STEPS, "max-steps", 0, VAL_COUNT, "N", 0, UINT64_MAX, "a number of transitions",
     "stop after N transitions (result: incomplete)"},
    {O_MAX_DEPTH, "max-depth", 0, VAL_COUNT, "N", 0, UINT64_MAX, "a depth",
     "do not expand states at depth N (initial states: depth 0)"},
    {O_MEMORY, "memory", 'm', VAL_SIZE, "SIZE", 1, UINT64_MAX, "a size such as 512M or 4G",
     "limit the fingerprint set + trace log + frontier\n"
     "(e.g. 512M, 4G; result: incomplete when reached)"},
    {O_FINGERPRINT, "fingerprint", 0, VAL_WORD, "64|128", 0, 0, NULL,
     "fingerprint width in bits (default 64)"},
    {O_COMPACT_SET, "compact-set", 0, VAL_NONE, NULL, 0, 0, NULL,
     "64-bit fingerprints in the compact set: at most 6 bytes\n"
     "per state from 8.3M states on (up to 6.6 below) instead\n"
     "of 9.4 to 10.6, inserts slower"},
    {O_SYMMETRY, "symmetry", 0, VAL_WORD, "on|off|verify", 0, 0, NULL,
     "one state per symmetry class (default on; off with\n"
     "liveness); verify: run with and without, compare"},
    {O_SYMMETRY_METHOD, "symmetry-method", 0, VAL_WORD, "auto|exhaustive|sorted", 0, 0, NULL,
     "how canonical forms are found\n"
     "(exhaustive: all N! permutations, the reference)"},
    {O_POR, "por", 0, VAL_WORD, "auto|on|off", 0, 0, NULL,
     "partial-order reduction: expand a stubborn subset of the\n"
     "enabled actions; deadlocks and safety kept, fewer states\n"
     "(default auto: on for the safety search, off with liveness,\n"
     "nets, MPI, --max-depth, exports; off: the full graph;\n"
     "auto searches the full graph again to a violation's\n"
     "depth for the shortest trace, and retires the reduction\n"
     "where it does not pay; on does neither)"},
    {O_NO_DEADLOCK, "no-deadlock", 0, VAL_NONE, NULL, 0, 0, NULL,
     "do not report states without successors"},
    {O_LIVENESS, "liveness", 0, VAL_WORD, "on|off", 0, 0, NULL,
     "check the temporal properties under fairness (default:\n"
     "on when the spec has a property); 'off' skips them.\n"
     "They hold over infinite fair behaviours: a state\n"
     "without successors (a deadlock) repeats for ever; no\n"
     "other stuttering is assumed (unlike TLA+)"},
    {O_LIVENESS_ENGINE, "liveness-engine", 0, VAL_WORD, "parallel|serial", 0, 0, NULL,
     "how properties are decided: one\n"
     "decomposition into fair components for all,\n"
     "on the threads (default), or Tarjan per\n"
     "property instance on one thread (the\n"
     "reference; same verdicts and lassos)"},
    {O_TRACE_FORMAT, "trace-format", 0, VAL_WORD, "text|json", 0, 0, NULL,
     "how counterexample traces are printed"},
    {O_TRACE_STYLE, "trace-style", 0, VAL_WORD, "changes|full", 0, 0, NULL,
     "a text trace's states: the values each step changed (the\n"
     "default), or every value at every step"},
    {O_REPORT, "report", 'o', VAL_PATH, "FILE.json", 0, 0, "a file name",
     "write the result as JSON (-: on stdout, as --format json)"},
    {O_PROGRESS, "progress", 0, VAL_SECONDS, "SECONDS", 0, 0, "a number of seconds (0: off)",
     "progress line on stderr every SECONDS (default 10, 0 off)"},
    {O_EXTERN_TIMEOUT, "extern-timeout", 0, VAL_SECONDS, "SECONDS", 0, 0,
     "a number of seconds (0: no limit)",
     "a call of a C function (extern fn) that runs longer is\n"
     "a run-time error, with its trace (default 10, 0 no limit)"},
    {O_THREADS, "threads", 't', VAL_COUNT, "N", 1, MCRT_MAX_THREADS,
     "a number of threads from 1 to 1024",
     "worker threads (default: the cores online that this process\n"
     "may run on; 1: the serial search)"},
    {O_ORDER, "order", 0, VAL_WORD, "fixed|free", 0, 0, NULL,
     "with threads: free (default) inserts states as the threads\n"
     "make them (same counts, verdict and trace length; the trace\n"
     "may differ between runs); fixed gives --threads 1's ids and\n"
     "trace at every N (slower)"},
    {O_FIXED_TRACE, "fixed-trace", 0, VAL_NONE, NULL, 0, 0, NULL,
     "under mpirun: the same trace whatever the number of ranks\n"
     "(more CPU); without MPI the same as --order fixed"},
    {O_SEARCH, "search", 0, VAL_WORD, "bfs|odpor", 0, 0, NULL,
     "breadth-first search (default), or optimal dynamic partial-order\n"
     "reduction: one execution per trace, no state stored (acyclic\n"
     "state spaces, or under --max-depth)"},
    {O_GRAPH, "graph", 0, VAL_PATH, "FILE.json", 0, 0, "a file name",
     "write the explored transition system as JSON"},
    {O_GRAPH_MAX_STATES, "graph-max-states", 0, VAL_COUNT, "N", 1, UINT64_MAX,
     "a number of states (at least 1)", "no --graph past N states (default 100000)"},
    {O_DOT, "dot", 0, VAL_PATH, "FILE", 0, 0, "a file name",
     "write it for graphviz, the violation's path in red"},
    {O_DOT_MAX_STATES, "dot-max-states", 0, VAL_COUNT, "N", 1, UINT64_MAX,
     "a number of states (at least 1)",
     "past N states (default 200), --dot draws the violation's\n"
     "path alone, or nothing without one"},
    {O_TESTS, "tests", 0, VAL_PATH, "FILE.json", 0, 0, "a file name",
     "write test paths covering the graph's transitions"},
    {O_TESTS_COVER, "tests-cover", 0, VAL_WORD, "transitions|accepting", 0, 0, NULL,
     "what the test paths cover"},
    {O_TESTS_MAX_STEPS, "tests-max-steps", 0, VAL_COUNT, "N", 1, UINT64_MAX,
     "a number of steps (at least 1)",
     "no --tests past N steps in all (default 100000)\n"
     "(an export not written is a warning: the exit code\n"
     "stays the verdict's)"},
    {O_SIMULATE, "simulate", 0, VAL_COUNT, "RUNS", 1, UINT64_MAX, "a number of runs (at least 1)",
     "random runs instead of the search (not a proof)"},
    {O_DEPTH, "depth", 0, VAL_COUNT, "D", 0, UINT64_MAX, "a number of steps",
     "steps per --simulate run (default 100)"},
    {O_SEED, "seed", 0, VAL_COUNT, "S", 0, UINT64_MAX, "a number", "--simulate's random seed (default 1)"},
    {O_PRINT_RUNS, "print-runs", 0, VAL_NONE, NULL, 0, 0, NULL,
     "print every --simulate run, step by step, as it ends"},
    {O_COLOR, "color", 0, VAL_WORD, "never|auto|always", 0, 0, NULL,
     "colour the verdict: auto (the default) on a\n"
     "terminal unless NO_COLOR is set, always, or never"},
    {O_TRAIL, "trail", 0, VAL_PATH, "FILE", 0, 0, "a file name",
     "where a violation's trail goes (default\n"
     "NAME.trail.json in the current directory, NAME the\n"
     "checker's)"},
    {O_NO_TRAIL, "no-trail", 0, VAL_NONE, NULL, 0, 0, NULL, "write no trail"},
    {O_REPLAY, "replay", 0, VAL_PATH, "FILE", 0, 0, "a file name",
     "replay a trail (a checker's, or one written by\n"
     "hand) with full checking instead of searching; exit 1\n"
     "when it ends in a violation, 0 when it is a run that\n"
     "violates nothing, 2 when a step is not enabled or the\n"
     "trail is another spec's"},
    {O_FORMAT, "format", 0, VAL_WORD, "text|json", 0, 0, NULL,
     "the result on stdout: text (the trace and the summary, the\n"
     "default) or json (the report alone, as --report writes it;\n"
     "the text goes to stderr)"},
    {O_QUIET, "quiet", 'q', VAL_NONE, NULL, 0, 0, NULL, "print only the verdict and the trace"},
    {O_MCC, "mcc", 0, VAL_NONE, NULL, 0, 0, NULL,
     "a Petri net's answers as the Model Checking Contest's\n"
     "STATE_SPACE and FORMULA lines, nothing else"},
    {O_DISK, "disk", 0, VAL_PATH, "DIR", 0, 0, "a directory",
     "keep the trace log and the frontier in files in DIR"},
    {O_CHECKPOINT, "checkpoint", 0, VAL_PATH, "DIR", 0, 0, "a directory",
     "save the search's state to DIR/checkpoint now and then"},
    {O_CHECKPOINT_EVERY, "checkpoint-every", 0, VAL_MINUTES, "MINUTES", 0, 0,
     "a number of minutes above 0, such as 10 or 0.05",
     "how often (default 10; fractions allowed)"},
    {O_RESUME, "resume", 0, VAL_PATH, "DIR", 0, 0, "a directory",
     "go on from DIR/checkpoint, written by this same build of\n"
     "the model with the same answer-changing options"},
    {O_HELP, "help", 'h', VAL_NONE, NULL, 0, 0, NULL, "this help"},
    {O_VERSION, "version", 0, VAL_NONE, NULL, 0, 0, NULL,
     "the mcgen version, spec and runtime the checker was built with"},
};

#define NOPTIONS (sizeof options / sizeof *options)

// ---------------------------------------------------------------------------
// --help, from the table.

// The name the checker was started under (it may have been built with -o).
static const char *program_name(const McrtModel *m, int argc, char **argv) {
  if (argc < 1 || !argv[0] || !*argv[0])
    return m->name;
  const char *slash = strrchr(argv[0], '/');
  return slash ? slash + 1 : argv[0];
}

enum { HELP_COLUMN = 25 }; // where the help text starts

// "  -t, --threads N", its width.
static int print_option_name(FILE *f, const OptionSpec *o) {
  int n = o->letter ? fprintf(f, "  -%c, --%s", o->letter, o->name) : fprintf(f, "  --%s", o->name);
  if (o->arg)
    n += fprintf(f, " %s", o->arg);
  return n;
}

static void print_option_help(FILE *f, const OptionSpec *o) {
  int n = print_option_name(f, o);
  fprintf(f, "%*s", n < HELP_COLUMN - 2 ? HELP_COLUMN - n : 2, "");
  for (const char *p = o->help; *p; p++) {
    fputc(*p, f);
    if (*p == '\n')
      fprintf(f, "%*s", HELP_COLUMN, "");
  }
  fputc('\n', f);
}

static void usage(FILE *f, const McrtModel *m, const char *prog) {
  fprintf(f, "usage: %s [options]\nChecks the model '%s' (%s) by breadth-first search.\n\n", prog,
          m->name, m->source_file ? m->source_file : "?");
  for (size_t i = 0; i < NOPTIONS; i++)
    print_option_help(f, &options[i]);
  fputs("\nExit codes: 0 every property holds (exhaustive search), 1 violation,\n"
        "2 usage or system error, 3 incomplete (a bound was hit).\n",
        f);
}

// ---------------------------------------------------------------------------
// Values.

static bool parse_u64(const char *s, uint64_t *v) {
  if (*s < '0' || *s > '9') // (strtoull would take blanks, a sign)
    return false;
  char *end;
  errno = 0;
  unsigned long long x = strtoull(s, &end, 10);
  if (errno || *end)
    return false;
  *v = x;
  return true;
}

// A number from 0 to most, fractions allowed.
static bool parse_real(const char *s, double most, double *x) {
  if ((*s < '0' || *s > '9') && *s != '.') // (strtod would take blanks, a sign)
    return false;
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || *end || end == s || !(v >= 0) || v > most)
    return false;
  *x = v;
  return true;
}

bool mcrt_parse_size(const char *s, uint64_t *bytes) {
  if (*s < '0' || *s > '9')
    return false;
  char *end;
  errno = 0;
  unsigned long long x = strtoull(s, &end, 10);
  if (errno)
    return false;
  unsigned shift = 0;
  switch (*end) {
  case 'k': case 'K': shift = 10, end++; break;
  case 'm': case 'M': shift = 20, end++; break;
  case 'g': case 'G': shift = 30, end++; break;
  case 't': case 'T': shift = 40, end++; break;
  default: break;
  }
  if (shift && end[0] == 'i' && end[1] == 'B')
    end += 2;
  else if (end[0] == 'B')
    end++;
  if (*end || (shift && x > (UINT64_MAX >> shift)))
    return false;
  *bytes = (uint64_t)x << shift;
  return true;
}

// The index of val among the words "a|b|c", or -1.
static int word_index(const char *words, const char *val) {
  size_t len = strlen(val);
  int i = 0;
  for (const char *w = words;; i++) {
    const char *bar = strchr(w, '|');
    size_t n = bar ? (size_t)(bar - w) : strlen(w);
    if (n == len && !strncmp(w, val, n))
      return i;
    if (!bar)
      return -1;
    w = bar + 1;
  }
}

// "a, b or c" from "a|b|c".
static void print_words(FILE *f, const char *words) {
  for (const char *w = words; *w;) {
    const char *bar = strchr(w, '|');
    size_t n = bar ? (size_t)(bar - w) : strlen(w);
    fwrite(w, 1, n, f);
    if (!bar)
      return;
    w = bar + 1;
    fputs(strchr(w, '|') ? ", " : " or ", f);
  }
}

// A value, as its option's kind reads it.
typedef struct Value {
  const char *text;
  uint64_t n;    // VAL_COUNT, VAL_SIZE
  double real;   // VAL_SECONDS, VAL_MINUTES
  int word;      // VAL_WORD: the index of the word
} Value;

static bool read_value(const OptionSpec *o, Value *v) {
  const char *s = v->text;
  switch (o->kind) {
  case VAL_NONE:
    return true;
  case VAL_COUNT:
    return parse_u64(s, &v->n) && v->n >= o->min && v->n <= o->max;
  case VAL_SIZE:
    return mcrt_parse_size(s, &v->n) && v->n >= o->min;
  case VAL_SECONDS:
    return parse_real(s, 1e9, &v->real);
  case VAL_MINUTES:
    return parse_real(s, 1e7, &v->real) && v->real > 0;
  case VAL_WORD:
    return (v->word = word_index(o->arg, s)) >= 0;
  case VAL_PATH:
    return *s != 0;
  }
  return false;
}

static int bad_value(FILE *err, const OptionSpec *o, const char *val) {
  fprintf(err, "error: bad value '%s' for --%s (expected ", val, o->name);
  if (o->kind == VAL_WORD)
    print_words(err, o->arg);
  else
    fputs(o->expect, err);
  fputs("); try --help\n", err);
  return MCRT_EXIT_USAGE;
}

// ---------------------------------------------------------------------------
// Finding options: by name, by letter, and the nearest to a misspelt name.

static const OptionSpec *by_name(const char *name, size_t len) {
  for (size_t i = 0; i < NOPTIONS; i++)
    if (strlen(options[i].name) == len && !strncmp(options[i].name, name, len))
      return &options[i];
  return NULL;
}

static const OptionSpec *by_letter(char c) {
  for (size_t i = 0; i < NOPTIONS; i++)
    if (options[i].letter == c)
      return &options[i];
  return NULL;
}

// The edit distance (insertions, deletions, substitutions, transpositions of
// neighbours) between a and b, up to 64 characters each.
static unsigned distance(const char *a, size_t n, const char *b) {
  size_t m = strlen(b);
  if (n > 64 || m > 64)
    return UINT32_MAX;
  unsigned d[65][65];
  for (size_t i = 0; i <= n; i++)
    d[i][0] = (unsigned)i;
  for (size_t j = 0; j <= m; j++)
    d[0][j] = (unsigned)j;
  for (size_t i = 1; i <= n; i++)
    for (size_t j = 1; j <= m; j++) {
      unsigned best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      if (d[i - 1][j] + 1 < best)
        best = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < best)
        best = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
        best = d[i - 2][j - 2] + 1;
      d[i][j] = best;
    }
  return d[n][m];
}

// The option a misspelt name most likely meant: the nearest within a third
// of its length (at least 2 edits), or the one it begins (--max-state), or
// NULL.
static const OptionSpec *nearest(const char *name, size_t len) {
  const OptionSpec *best = NULL;
  unsigned best_d = len / 3 > 2 ? (unsigned)(len / 3) : 2;
  for (size_t i = 0; i < NOPTIONS; i++) {
    unsigned d = distance(name, len, options[i].name);
    if (d <= best_d && (!best || d < best_d))
      best = &options[i], best_d = d;
  }
  for (size_t i = 0; !best && len >= 3 && i < NOPTIONS; i++)
    if (!strncmp(options[i].name, name, len))
      best = &options[i];
  return best;
}

// An option that is not in the table: `shown` as given; a long one's name
// (without its dashes) gets the nearest known one as a hint.
static int unknown_option(FILE *err, const char *shown, const char *name, size_t len) {
  fprintf(err, "error: unknown option '%s'", shown);
  const OptionSpec *near = name ? nearest(name, len) : NULL;
  if (near)
    fprintf(err, "; did you mean --%s?", near->name);
  fputs(" (try --help)\n", err);
  return MCRT_EXIT_USAGE;
}

// ---------------------------------------------------------------------------
// Parsing.

// What the parse keeps besides McrtOptions.
typedef struct Parse {
  bool help, version;
  bool sim_depth_given, sim_seed_given;
  bool format_given;
  bool no_trail;
} Parse;

// Sets what option o with value v says.
static void apply(McrtOptions *opt, Parse *p, const OptionSpec *o, const Value *v) {
  switch (o->id) {
  case O_MAX_STATES: opt->max_states = v->n; break;
  case O_MAX_STEPS: opt->max_steps = v->n; break;
  case O_MAX_DEPTH: opt->max_depth = v->n; break;
  case O_MEMORY: opt->memory = v->n; break;
  case O_FINGERPRINT: opt->fingerprint_bits = v->word ? 128 : 64; break;
  case O_COMPACT_SET: opt->compact_set = true; break;
  case O_SYMMETRY:
    opt->symmetry = (McrtSymmetry[]){MCRT_SYM_ON, MCRT_SYM_OFF, MCRT_SYM_VERIFY}[v->word];
    break;
  case O_SYMMETRY_METHOD:
    opt->sym_method = (McrtSymMethod[]){MCRT_SYM_METHOD_AUTO, MCRT_SYM_METHOD_EXHAUSTIVE,
                                        MCRT_SYM_METHOD_SORTED}[v->word];
    break;
  case O_POR:
    opt->por_mode = (McrtPorMode[]){MCRT_POR_AUTO, MCRT_POR_ON, MCRT_POR_OFF}[v->word];
    opt->por = opt->por_mode == MCRT_POR_ON;
    break;
  case O_NO_DEADLOCK: opt->deadlock = false; break;
  case O_LIVENESS: opt->liveness = v->word ? MCRT_LIVENESS_OFF : MCRT_LIVENESS_ON; break;
  case O_LIVENESS_ENGINE:
    opt->live_engine = v->word ? MCRT_LIVE_ENGINE_SERIAL : MCRT_LIVE_ENGINE_PARALLEL;
    break;
  case O_TRACE_FORMAT: opt->trace_json = v->word == 1; break;
  case O_TRACE_STYLE: opt->trace_full = v->word == 1; break;
  case O_REPORT: opt->report_file = v->text; break;
  case O_PROGRESS: opt->progress_s = v->real; break;
  case O_EXTERN_TIMEOUT: opt->extern_timeout_s = v->real; break;
  case O_THREADS: opt->threads = v->n, opt->threads_given = true; break;
  case O_ORDER: opt->order_free = v->word == 1, opt->order_given = true; break;
  case O_FIXED_TRACE: opt->fixed_trace = true; break;
  case O_SEARCH: opt->search = v->word ? MCRT_SEARCH_ODPOR : MCRT_SEARCH_BFS; break;
  case O_GRAPH: opt->graph_file = v->text; break;
  case O_GRAPH_MAX_STATES: opt->graph_max_states = v->n; break;
  case O_DOT: opt->dot_file = v->text; break;
  case O_DOT_MAX_STATES: opt->dot_max_states = v->n; break;
  case O_TESTS: opt->tests_file = v->text; break;
  case O_TESTS_COVER: opt->tests_cover_accepting = v->word == 1; break;
  case O_TESTS_MAX_STEPS: opt->tests_max_steps = v->n; break;
  case O_SIMULATE: opt->sim_runs = v->n; break;
  case O_DEPTH: opt->sim_depth = v->n, p->sim_depth_given = true; break;
  case O_SEED: opt->sim_seed = v->n, p->sim_seed_given = true; break;
  case O_PRINT_RUNS: opt->print_runs = true; break;
  case O_COLOR: opt->color = (McrtColor)v->word; break;
  case O_TRAIL: opt->trail_file = v->text, opt->trail_given = true; break;
  case O_NO_TRAIL: p->no_trail = true; break;
  case O_REPLAY: opt->replay_file = v->text; break;
  case O_FORMAT: opt->format_json = v->word == 1, p->format_given = true; break;
  case O_QUIET: opt->quiet = true; break;
  case O_MCC: opt->mcc = true; break;
  case O_DISK: opt->disk_dir = v->text; break;
  case O_CHECKPOINT: opt->checkpoint_dir = v->text; break;
  case O_CHECKPOINT_EVERY: opt->checkpoint_every_s = v->real * 60; break;
  case O_RESUME: opt->resume_dir = v->text; break;
  case O_HELP: p->help = true; break;
  case O_VERSION: p->version = true; break;
  }
}

// The command line being read.
typedef struct Args {
  int argc, i; // argv[i]: the argument being read
  char **argv;
  FILE *err;
} Args;

// A file name given as the next argument may not look like an option:
// `--report --quiet` would write a report named --quiet and drop --quiet.
static int looks_like_option(Args *a, const OptionSpec *o, const char *val) {
  fprintf(a->err,
          "error: --%s %s: a file name that starts with '-' looks like an option; write --%s "
          "./%s or --%s=%s\n",
          o->name, val, o->name, val, o->name, val);
  return MCRT_EXIT_USAGE;
}

// Takes option o's value (glued: after '=' or a short option's letter, else
// NULL: the next argument) and applies it. -1 to go on, else the exit code
// after a message.
static int take(McrtOptions *opt, Parse *p, Args *a, const OptionSpec *o, const char *glued) {
  Value v = {.text = glued};
  if (o->kind == VAL_NONE && glued) {
    fprintf(a->err, "error: option --%s takes no value; try --help\n", o->name);
    return MCRT_EXIT_USAGE;
  }
  if (o->kind != VAL_NONE && !glued) {
    if (a->i + 1 >= a->argc) {
      fprintf(a->err, "error: option --%s needs a value; try --help\n", o->name);
      return MCRT_EXIT_USAGE;
    }
    v.text = a->argv[++a->i];
    bool stdout_name = o->id == O_REPORT && !strcmp(v.text, "-");
    if (o->kind == VAL_PATH && v.text[0] == '-' && !stdout_name)
      return looks_like_option(a, o, v.text);
  }
  if (!read_value(o, &v))
    return bad_value(a->err, o, v.text);
  apply(opt, p, o, &v);
  return -1;
}

// "--name" or "--name=value".
static int long_option(McrtOptions *opt, Parse *p, Args *a) {
  const char *arg = a->argv[a->i], *name = arg + 2;
  const char *eq = strchr(name, '=');
  size_t len = eq ? (size_t)(eq - name) : strlen(name);
  const OptionSpec *o = by_name(name, len);
  if (!o) {
    char shown[80];
    snprintf(shown, sizeof shown, "--%.*s%s", len > 64 ? 64 : (int)len, name, len > 64 ? "..." : "");
    return unknown_option(a->err, shown, name, len);
  }
  return take(opt, p, a, o, eq ? eq + 1 : NULL);
}

// "-t 4", "-t4", "-qv": letters, the last (or one with a value glued) may
// take a value.
static int short_options(McrtOptions *opt, Parse *p, Args *a) {
  const char *arg = a->argv[a->i];
  for (const char *c = arg + 1; *c; c++) {
    const OptionSpec *o = by_letter(*c);
    if (!o)
      return unknown_option(a->err, (char[]){'-', *c, 0}, NULL, 0);
    if (o->kind != VAL_NONE)
      return take(opt, p, a, o, c[1] ? c + 1 : NULL);
    int code = take(opt, p, a, o, NULL);
    if (code >= 0)
      return code;
  }
  return -1;
}

// The trail's default name: NAME.trail.json in the current directory,
// NAME the checker's (argv[0]'s last component).
static const char *default_trail(const char *prog) {
  static char name[4096];
  snprintf(name, sizeof name, "%s.trail.json", prog);
  return name;
}

// --replay replays one trail: nothing of a search goes with it.
static int replay_alone(const McrtOptions *opt, const Parse *p, FILE *err) {
  if (opt->sim_runs || opt->report_file || opt->dot_file || opt->graph_file || opt->tests_file ||
      opt->trail_given || p->no_trail || opt->symmetry == MCRT_SYM_VERIFY ||
      opt->checkpoint_dir || opt->resume_dir || opt->mcc) {
    fprintf(err, "error: --replay replays one trail: it writes no report, export or trail and "
                 "runs no search, simulation or comparison (--format json or --trace-format "
                 "json print the replayed trace as JSON)\n");
    return MCRT_EXIT_USAGE;
  }
  return -1;
}

// After every option is read: the defaults that depend on others, and the
// combinations refused whatever the model. -1 to go on, else the exit code.
static int settle(McrtOptions *opt, const Parse *p, FILE *err) {
  if (opt->replay_file && replay_alone(opt, p, err) >= 0)
    return MCRT_EXIT_USAGE;
  if (p->no_trail && opt->trail_given) {
    fprintf(err, "error: --trail FILE and --no-trail: give one of them\n");
    return MCRT_EXIT_USAGE;
  }
  if (!opt->trail_file && !p->no_trail && !opt->replay_file)
    opt->trail_file = default_trail(opt->program_name);
  if (opt->checkpoint_dir && opt->checkpoint_every_s == 0)
    opt->checkpoint_every_s = 600; // --checkpoint-every 10
  if (opt->threads == 0)
    opt->threads = mcrt_cores();
  if ((p->sim_depth_given || p->sim_seed_given || opt->print_runs) && !opt->sim_runs) {
    fprintf(err, "error: --depth, --seed and --print-runs go with --simulate RUNS\n");
    return MCRT_EXIT_USAGE;
  }
  if (opt->report_file && !strcmp(opt->report_file, "-")) { // the report on stdout
    if (p->format_given && !opt->format_json) {
      fprintf(err, "error: --report - writes the report on the standard output, where --format "
                   "text prints the summary: give one of them\n");
      return MCRT_EXIT_USAGE;
    }
    opt->report_file = NULL;
    opt->format_json = true;
  }
  if (opt->format_json && opt->mcc) {
    fprintf(err, "error: --mcc prints the Model Checking Contest's lines on the standard output, "
                 "--format json the report: give one of them (the report holds the net's "
                 "answers)\n");
    return MCRT_EXIT_USAGE;
  }
  bool exports = opt->dot_file || opt->graph_file || opt->tests_file;
  if (opt->sim_runs && (exports || opt->symmetry == MCRT_SYM_VERIFY)) {
    fprintf(err, "error: --simulate walks random runs: it has no graph to export and no "
                 "symmetry to verify\n");
    return MCRT_EXIT_USAGE;
  }
  if (exports && opt->symmetry == MCRT_SYM_VERIFY) {
    fprintf(err, "error: --dot, --graph and --tests export one search: not with --symmetry "
                 "verify\n");
    return MCRT_EXIT_USAGE;
  }
  return -1;
}

static McrtOptions defaults(const McrtModel *m) {
  return (McrtOptions){
      .threads = 0, // the cores this process may run on (settle)
      .max_states = MCRT_UNLIMITED,
      .max_steps = MCRT_UNLIMITED,
      .max_depth = MCRT_UNLIMITED,
      .memory = MCRT_UNLIMITED,
      .fingerprint_bits = 64,
      .color = MCRT_COLOR_AUTO,
      .symmetry = MCRT_SYM_DEFAULT,
      .deadlock = !m->net, // a net's deadlocks are an answer (net.c), not a violation
      .liveness = MCRT_LIVENESS_DEFAULT,
      .progress_s = 10,
      .dot_max_states = 200,
      .graph_max_states = 100000,
      .tests_max_steps = 100000,
      .sim_depth = 100,
      .sim_seed = 1,
      .por_mode = MCRT_POR_AUTO, // main.c decides, once the other options are known
      // Free order by default: the serial trace at every N (--order fixed)
      // cost more than 10% of the speed at 2 threads (docs/performance.md).
      .order_free = true,
      .extern_timeout_s = 10,
  };
}

static void print_version(FILE *out, const McrtModel *m, const char *prog) {
  fprintf(out, "%s: generated by mcgen %s from %s; runtime %s (ABI %d)\n", prog,
          m->mcgen_version ? m->mcgen_version : "?", m->source_file ? m->source_file : "?",
          MCRT_VERSION, MCRT_ABI_VERSION);
}

int mcrt_parse_options(McrtOptions *opt, const McrtModel *m, int argc, char **argv, FILE *out,
                       FILE *err) {
  *opt = defaults(m);
  opt->program = argc > 0 && argv[0] ? argv[0] : m->name;
  opt->program_name = program_name(m, argc, argv);
  Parse p = {0};
  Args a = {.argc = argc, .argv = argv, .err = err};
  for (a.i = 1; a.i < argc; a.i++) {
    const char *arg = argv[a.i];
    int code;
    if (!strncmp(arg, "--", 2) && arg[2])
      code = long_option(opt, &p, &a);
    else if (arg[0] == '-' && arg[1] && arg[1] != '-')
      code = short_options(opt, &p, &a);
    else {
      fprintf(err, "error: unexpected argument '%s'; try --help\n", arg);
      return MCRT_EXIT_USAGE;
    }
    if (code >= 0)
      return code;
  }
  if (p.help) {
    usage(out, m, program_name(m, argc, argv));
    return MCRT_EXIT_OK;
  }
  if (p.version) {
    print_version(out, m, program_name(m, argc, argv));
    return MCRT_EXIT_OK;
  }
  return settle(opt, &p, err);
}

// Whether option `name` (its long form) is on the command line, read as the
// parser reads it but without a message.
bool mcrt_option_given(int argc, char **argv, const char *name) {
  const OptionSpec *want = by_name(name, strlen(name));
  for (int i = 1; want && i < argc; i++) {
    const char *arg = argv[i];
    const OptionSpec *o = NULL;
    bool glued = false;
    if (!strncmp(arg, "--", 2) && arg[2]) {
      const char *eq = strchr(arg + 2, '=');
      o = by_name(arg + 2, eq ? (size_t)(eq - arg - 2) : strlen(arg + 2));
      glued = eq != NULL;
    } else if (arg[0] == '-' && arg[1] && arg[1] != '-') {
      for (const char *c = arg + 1; *c && (!o || o->kind == VAL_NONE); c++) {
        o = by_letter(*c);
        if (o == want)
          return true;
        glued = o && o->kind != VAL_NONE && c[1];
      }
    }
    if (o == want)
      return true;
    if (o && o->kind != VAL_NONE && !glued)
      i++; // its value
  }
  return false;
}

bool mcrt_liveness_wanted(const McrtModel *m, const McrtOptions *opt) {
  if (opt->liveness == MCRT_LIVENESS_OFF)
    return false;
  // A net's liveness answer (netreport.c) reads the recorded graph.
  return opt->liveness == MCRT_LIVENESS_ON || m->ninstances > 0 || m->net;
}
