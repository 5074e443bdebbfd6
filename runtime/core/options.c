// options.c: the checker's command line, as docs/DESIGN.md lists it. Options take
// their value as the next argument or after '=' (--max-states=1000). Options
// that belong to later issues are recognised and refused with a plain
// "not implemented yet" (exit 2) rather than "unknown option".
#include "core/core.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <unistd.h>

// The name the checker was started under (it may have been built with -o).
static const char *program_name(const McrtModel *m, int argc, char **argv) {
  if (argc < 1 || !argv[0] || !*argv[0])
    return m->name;
  const char *slash = strrchr(argv[0], '/');
  return slash ? slash + 1 : argv[0];
}

static void usage(FILE *f, const McrtModel *m, const char *prog) {
  fprintf(f,
          "usage: %s [options]\n"
          "Checks the model '%s' (%s) by breadth-first search.\n"
          "\n"
          "  --max-states N         stop after N distinct states (result: incomplete)\n"
          "  --max-steps N          stop after N transitions (result: incomplete)\n"
          "  --max-depth N          do not expand states at depth N (initial states: depth 0)\n"
          "  --memory SIZE          limit the fingerprint set + trace log + frontier\n"
          "                         (e.g. 512M, 4G; result: incomplete when reached)\n"
          "  --fingerprint 64|128   fingerprint width in bits (default 64)\n"
          "  --compact-set          64-bit fingerprints in the compact set: at most 6 bytes\n"
          "                         per state from 8.3M states on (up to 6.6 below) instead\n"
          "                         of 9.4 to 10.6, inserts slower\n"
          "  --symmetry on|off|verify  one state per symmetry class (default on; off with\n"
          "                         liveness); verify: run with and without, compare\n"
          "  --symmetry-method auto|exhaustive|sorted  how canonical forms are found\n"
          "                         (exhaustive: all N! permutations, the reference)\n"
          "  --por auto|on|off      partial-order reduction: expand a stubborn subset of the\n"
          "                         enabled actions; deadlocks and safety kept, fewer states\n"
          "                         (default auto: on for the safety search, off with liveness,\n"
          "                         nets, MPI, --max-depth, exports; off: the full graph;\n"
          "                         auto searches the full graph again to a violation's\n"
          "                         depth for the shortest trace, and retires the reduction\n"
          "                         where it does not pay; on does neither)\n"
          "  --no-deadlock          do not report states without successors\n"
          "  --liveness on|off      check the temporal properties under fairness (default:\n"
          "                         on when the spec has a property); 'off' skips them\n"
          "  --liveness-engine parallel|serial  how the properties are decided: one\n"
          "                         decomposition into fair components for all, on the\n"
          "                         threads (default), or Tarjan per property instance on\n"
          "                         one thread (the reference; same verdicts and lassos)\n"
          "  --trace-format text|json  how counterexample traces are printed\n"
          "  --report FILE.json     write the result as JSON\n"
          "  --progress SECONDS     progress line on stderr every SECONDS (default 10, 0 off)\n"
          "  --extern-timeout SECONDS  a call of a C function (extern fn) that runs longer is\n"
          "                         a run-time error, with its trace (default 10, 0 no limit)\n"
          "  --threads N            worker threads (default: the cores online that this process\n"
          "                         may run on; 1: the serial search)\n"
          "  --order fixed|free     with threads: free (default) inserts states as the threads\n"
          "                         make them (same counts, verdict and trace length; the trace\n"
          "                         may differ between runs); fixed gives --threads 1's ids and\n"
          "                         trace at every N (slower)\n"
          "  --fixed-trace          under mpirun: the same trace whatever the number of ranks\n"
          "                         (more CPU); without MPI the same as --order fixed\n"
          "  --search bfs|odpor     breadth-first search (default), or optimal dynamic partial-order\n"
          "                         reduction: one execution per trace, no state stored (acyclic\n"
          "                         state spaces, or under --max-depth)\n"
          "  --graph FILE.json      write the explored transition system as JSON\n"
          "  --graph-max-states N   no --graph past N states (default 100000)\n"
          "  --dot FILE             write it for graphviz, the violation's path in red\n"
          "  --dot-max-states N     past N states (default 200), --dot draws the violation's\n"
          "                         path alone, or nothing without one\n"
          "  --tests FILE.json      write test paths covering the graph's transitions\n"
          "  --tests-cover transitions|accepting  what the test paths cover\n"
          "  --tests-max-steps N    no --tests past N steps in all (default 100000)\n"
          "                         (an export not written is a warning: the exit code\n"
          "                         stays the verdict's)\n"
          "  --simulate RUNS        random runs instead of the search (not a proof)\n"
          "  --depth D, --seed S    steps per run (default 100), random seed (default 1)\n"
          "  --quiet                print only the verdict and the trace\n"
          "  --mcc                  a Petri net's answers as the Model Checking Contest's\n"
          "                         STATE_SPACE and FORMULA lines, nothing else\n"
          "  --disk DIR             keep the trace log and the frontier in files in DIR\n"
          "  --checkpoint DIR       save the search's state to DIR/checkpoint now and then\n"
          "  --checkpoint-every MINUTES  how often (default 10; fractions allowed)\n"
          "  --resume DIR           go on from DIR/checkpoint, written by this same build of\n"
          "                         the model with the same answer-changing options\n"
          "  --help, --version\n"
          "\n"
          "Exit codes: 0 every property holds (exhaustive search), 1 violation,\n"
          "2 usage or system error, 3 incomplete (a bound was hit).\n",
          prog, m->name, m->source_file ? m->source_file : "?");
}

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

// A number of seconds from 0 to 10^9, fractions allowed.
static bool parse_seconds(const char *s, double *seconds) {
  char *end;
  errno = 0;
  double x = strtod(s, &end);
  if ((*s < '0' || *s > '9') && *s != '.') // (strtod would take blanks, a sign)
    return false;
  if (errno || *end || end == s || !(x >= 0) || x > 1e9)
    return false;
  *seconds = x;
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

static int bad(FILE *err, const char *opt, const char *val, const char *expect) {
  fprintf(err, "error: bad value '%s' for %s (expected %s); try --help\n", val, opt, expect);
  return MCRT_EXIT_USAGE;
}

int mcrt_parse_options(McrtOptions *opt, const McrtModel *m, int argc, char **argv, FILE *out,
                       FILE *err) {
  *opt = (McrtOptions){
      .threads = 0, // the cores this process may run on, below
      .max_states = MCRT_UNLIMITED,
      .max_steps = MCRT_UNLIMITED,
      .max_depth = MCRT_UNLIMITED,
      .memory = MCRT_UNLIMITED,
      .fingerprint_bits = 64,
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
  bool sim_depth_given = false, sim_seed_given = false;
  bool help = false, version = false;
  const char *dot = NULL, *graph = NULL;

  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (strncmp(arg, "--", 2) != 0) {
      fprintf(err, "error: unexpected argument '%s'; try --help\n", arg);
      return MCRT_EXIT_USAGE;
    }
    // Split "--name=value".
    char name[64];
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    if (len >= sizeof name) {
      fprintf(err, "error: unknown option '%s'; try --help\n", arg);
      return MCRT_EXIT_USAGE;
    }
    memcpy(name, arg, len);
    name[len] = 0;

    // Flags.
    static const char *const flags[] = {"--help", "--version", "--quiet", "--no-deadlock",
                                        "--mcc", "--compact-set", "--fixed-trace"};
    bool is_flag = false;
    for (size_t k = 0; k < sizeof flags / sizeof *flags; k++)
      is_flag |= strcmp(name, flags[k]) == 0;
    if (is_flag) {
      if (eq) {
        fprintf(err, "error: option %s takes no value; try --help\n", name);
        return MCRT_EXIT_USAGE;
      }
      if (!strcmp(name, "--help"))
        help = true;
      else if (!strcmp(name, "--version"))
        version = true;
      else if (!strcmp(name, "--quiet"))
        opt->quiet = true;
      else if (!strcmp(name, "--mcc"))
        opt->mcc = true;
      else if (!strcmp(name, "--compact-set"))
        opt->compact_set = true;
      else if (!strcmp(name, "--fixed-trace"))
        opt->fixed_trace = true;
      else
        opt->deadlock = false;
      continue;
    }

    // Options with a value.
    static const char *const valued[] = {
        "--threads",  "--max-states",   "--max-steps",    "--max-depth", "--memory",
        "--fingerprint", "--symmetry",  "--symmetry-method", "--liveness",     "--trace-format", "--report",
        "--liveness-engine", "--dot",   "--graph",        "--progress",     "--por",
        "--tests",    "--tests-cover",  "--tests-max-steps", "--dot-max-states", "--graph-max-states",
        "--simulate", "--depth",        "--seed",
        "--disk",     "--checkpoint",   "--checkpoint-every", "--resume",
        "--search",   "--order",        "--extern-timeout",
    };
    bool known = false;
    for (size_t k = 0; k < sizeof valued / sizeof *valued; k++)
      known |= strcmp(name, valued[k]) == 0;
    if (!known) {
      fprintf(err, "error: unknown option '%s'; try --help\n", name);
      return MCRT_EXIT_USAGE;
    }
    const char *val = eq ? eq + 1 : NULL;
    if (!val) {
      if (i + 1 >= argc) {
        fprintf(err, "error: option %s needs a value; try --help\n", name);
        return MCRT_EXIT_USAGE;
      }
      val = argv[++i];
      // `--report --quiet` would write a report named --quiet and drop
      // --quiet: a separate file name may not look like an option.
      static const char *const files[] = {"--report", "--dot",        "--graph",  "--tests",
                                          "--disk",   "--checkpoint", "--resume"};
      for (size_t k = 0; val[0] == '-' && k < sizeof files / sizeof *files; k++)
        if (!strcmp(name, files[k])) {
          fprintf(err,
                  "error: %s %s: a file name that starts with '-' looks like an option; "
                  "write %s ./%s or %s=%s\n",
                  name, val, name, val, name, val);
          return MCRT_EXIT_USAGE;
        }
    }

    if (!strcmp(name, "--threads")) {
      if (!parse_u64(val, &opt->threads) || opt->threads == 0 ||
          opt->threads > MCRT_MAX_THREADS)
        return bad(err, name, val, "a number of threads from 1 to 1024");
      opt->threads_given = true;
    } else if (!strcmp(name, "--search")) {
      if (!strcmp(val, "bfs"))
        opt->search = MCRT_SEARCH_BFS;
      else if (!strcmp(val, "odpor"))
        opt->search = MCRT_SEARCH_ODPOR;
      else
        return bad(err, name, val, "bfs or odpor");
    } else if (!strcmp(name, "--order")) {
      if (!strcmp(val, "fixed"))
        opt->order_free = false;
      else if (!strcmp(val, "free"))
        opt->order_free = true;
      else
        return bad(err, name, val, "fixed or free");
      opt->order_given = true;
    } else if (!strcmp(name, "--max-states")) {
      if (!parse_u64(val, &opt->max_states))
        return bad(err, name, val, "a number of states");
    } else if (!strcmp(name, "--max-steps")) {
      if (!parse_u64(val, &opt->max_steps))
        return bad(err, name, val, "a number of transitions");
    } else if (!strcmp(name, "--max-depth")) {
      if (!parse_u64(val, &opt->max_depth))
        return bad(err, name, val, "a depth");
    } else if (!strcmp(name, "--memory")) {
      if (!mcrt_parse_size(val, &opt->memory) || opt->memory == 0)
        return bad(err, name, val, "a size such as 512M or 4G");
    } else if (!strcmp(name, "--fingerprint")) {
      if (!strcmp(val, "64"))
        opt->fingerprint_bits = 64;
      else if (!strcmp(val, "128"))
        opt->fingerprint_bits = 128;
      else
        return bad(err, name, val, "64 or 128");
    } else if (!strcmp(name, "--por")) {
      if (!strcmp(val, "auto"))
        opt->por_mode = MCRT_POR_AUTO;
      else if (!strcmp(val, "on"))
        opt->por_mode = MCRT_POR_ON;
      else if (!strcmp(val, "off"))
        opt->por_mode = MCRT_POR_OFF;
      else
        return bad(err, name, val, "auto, on or off");
      opt->por = opt->por_mode == MCRT_POR_ON;
    } else if (!strcmp(name, "--symmetry")) {
      if (!strcmp(val, "on"))
        opt->symmetry = MCRT_SYM_ON;
      else if (!strcmp(val, "off"))
        opt->symmetry = MCRT_SYM_OFF;
      else if (!strcmp(val, "verify"))
        opt->symmetry = MCRT_SYM_VERIFY;
      else
        return bad(err, name, val, "on, off or verify");
    } else if (!strcmp(name, "--symmetry-method")) {
      if (!strcmp(val, "auto"))
        opt->sym_method = MCRT_SYM_METHOD_AUTO;
      else if (!strcmp(val, "exhaustive"))
        opt->sym_method = MCRT_SYM_METHOD_EXHAUSTIVE;
      else if (!strcmp(val, "sorted"))
        opt->sym_method = MCRT_SYM_METHOD_SORTED;
      else
        return bad(err, name, val, "auto, exhaustive or sorted");
    } else if (!strcmp(name, "--liveness")) {
      if (!strcmp(val, "on"))
        opt->liveness = MCRT_LIVENESS_ON;
      else if (!strcmp(val, "off"))
        opt->liveness = MCRT_LIVENESS_OFF;
      else
        return bad(err, name, val, "on or off");
    } else if (!strcmp(name, "--liveness-engine")) {
      if (!strcmp(val, "parallel"))
        opt->live_engine = MCRT_LIVE_ENGINE_PARALLEL;
      else if (!strcmp(val, "serial"))
        opt->live_engine = MCRT_LIVE_ENGINE_SERIAL;
      else
        return bad(err, name, val, "parallel or serial");
    } else if (!strcmp(name, "--trace-format")) {
      if (!strcmp(val, "text"))
        opt->trace_json = false;
      else if (!strcmp(val, "json"))
        opt->trace_json = true;
      else
        return bad(err, name, val, "text or json");
    } else if (!strcmp(name, "--report")) {
      if (!*val)
        return bad(err, name, val, "a file name");
      opt->report_file = val;
    } else if (!strcmp(name, "--dot")) {
      dot = val;
    } else if (!strcmp(name, "--graph")) {
      graph = val;
    } else if (!strcmp(name, "--tests")) {
      if (!*val)
        return bad(err, name, val, "a file name");
      opt->tests_file = val;
    } else if (!strcmp(name, "--tests-cover")) {
      if (strcmp(val, "transitions") && strcmp(val, "accepting"))
        return bad(err, name, val, "transitions or accepting");
      opt->tests_cover_accepting = !strcmp(val, "accepting");
    } else if (!strcmp(name, "--tests-max-steps")) {
      if (!parse_u64(val, &opt->tests_max_steps) || !opt->tests_max_steps)
        return bad(err, name, val, "a number of steps (at least 1)");
    } else if (!strcmp(name, "--dot-max-states")) {
      if (!parse_u64(val, &opt->dot_max_states) || !opt->dot_max_states)
        return bad(err, name, val, "a number of states (at least 1)");
    } else if (!strcmp(name, "--graph-max-states")) {
      if (!parse_u64(val, &opt->graph_max_states) || !opt->graph_max_states)
        return bad(err, name, val, "a number of states (at least 1)");
    } else if (!strcmp(name, "--simulate")) {
      if (!parse_u64(val, &opt->sim_runs) || !opt->sim_runs)
        return bad(err, name, val, "a number of runs (at least 1)");
    } else if (!strcmp(name, "--depth")) {
      if (!parse_u64(val, &opt->sim_depth))
        return bad(err, name, val, "a number of steps");
      sim_depth_given = true;
    } else if (!strcmp(name, "--seed")) {
      if (!parse_u64(val, &opt->sim_seed))
        return bad(err, name, val, "a number");
      sim_seed_given = true;
    } else if (!strcmp(name, "--disk") || !strcmp(name, "--checkpoint") ||
               !strcmp(name, "--resume")) {
      if (!*val)
        return bad(err, name, val, "a directory");
      *(!strcmp(name, "--disk")         ? &opt->disk_dir
        : !strcmp(name, "--checkpoint") ? &opt->checkpoint_dir
                                        : &opt->resume_dir) = val;
    } else if (!strcmp(name, "--checkpoint-every")) {
      char *end;
      errno = 0;
      double minutes = strtod(val, &end);
      if (errno || *end || end == val || !(minutes > 0) || minutes > 1e7)
        return bad(err, name, val, "a number of minutes above 0, such as 10 or 0.05");
      opt->checkpoint_every_s = minutes * 60;
    } else if (!strcmp(name, "--progress") || !strcmp(name, "--extern-timeout")) {
      bool progress = !strcmp(name, "--progress");
      if (!parse_seconds(val, progress ? &opt->progress_s : &opt->extern_timeout_s))
        return bad(err, name, val, progress ? "a number of seconds (0: off)"
                                            : "a number of seconds (0: no limit)");
    }
  }

  if (opt->checkpoint_dir && opt->checkpoint_every_s == 0)
    opt->checkpoint_every_s = 600; // --checkpoint-every 10
  if (help) {
    usage(out, m, program_name(m, argc, argv));
    return MCRT_EXIT_OK;
  }
  if (version) {
    fprintf(out, "%s: generated by mcgen %s from %s; runtime %s (ABI %d)\n",
            program_name(m, argc, argv),
            m->mcgen_version ? m->mcgen_version : "?", m->source_file ? m->source_file : "?",
            MCRT_VERSION, MCRT_ABI_VERSION);
    return MCRT_EXIT_OK;
  }
  if (opt->threads == 0)
    opt->threads = mcrt_cores();
  if ((sim_depth_given || sim_seed_given) && !opt->sim_runs) {
    fprintf(err, "error: --depth and --seed go with --simulate RUNS\n");
    return MCRT_EXIT_USAGE;
  }
  if (opt->sim_runs && (dot || graph || opt->tests_file || opt->report_file ||
                        opt->symmetry == MCRT_SYM_VERIFY)) {
    fprintf(err, "error: --simulate walks random runs: it has no graph to export, no report "
                 "and no symmetry to verify\n");
    return MCRT_EXIT_USAGE;
  }
  if ((dot || graph || opt->tests_file) && opt->symmetry == MCRT_SYM_VERIFY) {
    fprintf(err, "error: --dot, --graph and --tests export one search: not with --symmetry "
                 "verify\n");
    return MCRT_EXIT_USAGE;
  }
  opt->dot_file = dot;
  opt->graph_file = graph;
  return -1;
}

bool mcrt_liveness_wanted(const McrtModel *m, const McrtOptions *opt) {
  if (opt->liveness == MCRT_LIVENESS_OFF)
    return false;
  // A net's liveness answer (netreport.c) reads the recorded graph.
  return opt->liveness == MCRT_LIVENESS_ON || m->ninstances > 0 || m->net;
}
