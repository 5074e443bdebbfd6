// main.c: the driver. Reads the command line, finds the templates and the
// runtime (paths.c), then runs the pipeline one stage per call: read,
// tokenize, parse, check, layout, emit, m4, cc.
#include "mcgen.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

typedef struct Options {
  const char *spec;
  const char *output; // checker path; the C file is OUTPUT.c
  Vec defines;        // Define*
  bool emit_c_only;
  bool keep;
  bool debug;         // -O0 -g, accessors kept for the debugger
  bool net_info;      // a .pnml: print its structural analyses, build nothing
  int deps;           // --deps (1) or --deps-json (2): print the dependency tables
  const char *cc;
  bool cc_given;      // --cc (under --mpi it names the MPI compiler wrapper)
  const char *cflags;
  ScenarioOptions scenario;
  int words;          // --scenario-words N: print the scenario's language, build nothing
  bool mpi;           // build against Open MPI (runtime/mpi/mpi.c)
} Options;

static void usage(FILE *out) {
  fprintf(out,
          "usage: mcgen [-o NAME] [-D CONST=VALUE]... [--emit-c] [--debug] [--cc CC]\n"
          "             [--cflags FLAGS] [--keep] [--mpi] [--scenario NAME [--behaviour-only]]\n"
          "             [--scenario-max-states N] [--] SPEC\n"
          "       mcgen --scenario NAME --scenario-words N [-D CONST=VALUE]... [--] SPEC\n"
          "       mcgen --deps|--deps-json [-D CONST=VALUE]... [--] SPEC\n"
          "       mcgen --net-info [--] SPEC.pnml\n"
          "       mcgen --help | --version\n"
          "\n"
          "Compiles SPEC into a standalone model checker: NAME.c and NAME (default\n"
          "MODEL_checker, MODEL from `model MODEL;` or the file name). SPEC is a spec in\n"
          "mcgen's language (.mc), a DVE model of the BEEM suite (.dve), a Petri net\n"
          "in PNML (.pnml) or a Murphi model (.m); its extension chooses the language.\n"
          "\n"
          "  -o NAME          name of the checker (and NAME.c)\n"
          "  -D CONST=VALUE   override a constant of the spec (integer, true, false; once per CONST)\n"
          "  --emit-c         write NAME.c only, do not compile it\n"
          "  --debug          build for a debugger: -O0 -g, every state accessor kept\n"
          "                   in the checker (gdb: print get_VAR(s, ...))\n"
          "  --cc CC          C compiler (default: $CC or cc; with --mpi: $MPICC or mpicc)\n"
          "  --cflags FLAGS   extra flags for the C compiler (e.g. \"-march=native\")\n"
          "  --scenario NAME  check the model restricted to scenario NAME (the product of\n"
          "                   the model and the scenario's automaton)\n"
          "  --behaviour-only with --scenario: ignore the actions' guards and bodies and\n"
          "                   explore the scenario's automaton alone\n"
          "  --scenario-max-states N  the size cap of a scenario's automaton (default 4096;\n"
          "                   its construction may go through 16 times as many states)\n"
          "  --scenario-words N  print the action sequences of up to N steps that scenario\n"
          "                   NAME accepts, one a line, and build nothing\n"
          "  --mpi            build with Open MPI's mpicc for distributed runs:\n"
          "                   mpirun -np K ./NAME [options] (runs as one rank without mpirun)\n"
          "  --keep           keep the intermediate m4 definitions (NAME.m4)\n"
          "  --net-info       SPEC is a Petri net (.pnml): print its semiflows, place\n"
          "                   bounds and workflow soundness, build nothing\n"
          "  --deps           print what each action rule reads and writes, its process,\n"
          "                   the cells the predicates read and which rules can enable\n"
          "                   or disable which; build nothing (--deps-json: as JSON)\n"
          "  --version        print the version\n"
          "  --help           print this help\n"
          "  --               end of the options (for a SPEC whose name begins with -)\n"
          "\n"
          "Exit codes: 0 built, 1 the spec has errors (all reported), 2 usage or system error.\n");
}

static _Noreturn void usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "mcgen: %s\n", vformat(fmt, ap));
  va_end(ap);
  fprintf(stderr, "Try 'mcgen --help'.\n");
  exit(2);
}

static Options parse_args(int argc, char **argv) {
  Options o = {.cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc", .cflags = ""};
  bool options_done = false; // after `--`, every argument is a SPEC
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *val = NULL;
#define NEEDS_VALUE(flag)                                                                          \
  do {                                                                                             \
    if (i + 1 >= argc)                                                                             \
      usage_error("option %s needs a value", flag);                                                \
    val = argv[++i];                                                                               \
  } while (0)
    if (options_done) {
      if (o.spec)
        usage_error("only one SPEC may be given ('%s' and '%s')", o.spec, a);
      o.spec = a;
    } else if (!strcmp(a, "--")) {
      options_done = true;
    } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      exit(0);
    } else if (!strcmp(a, "--version")) {
      printf("mcgen %s\n", MCGEN_VERSION);
      exit(0);
    } else if (!strcmp(a, "-o")) {
      NEEDS_VALUE("-o");
      o.output = val;
    } else if (!strncmp(a, "-D", 2)) {
      if (a[2])
        val = a + 2;
      else
        NEEDS_VALUE("-D");
      const char *eq = strchr(val, '=');
      if (!eq || eq == val || !eq[1])
        usage_error("-D expects CONST=VALUE, got '%s'", val);
      Define *d = xcalloc(1, sizeof *d);
      d->name = xstrndup(val, eq - val);
      d->value = xstrdup(eq + 1);
      vec_push(&o.defines, d);
    } else if (!strcmp(a, "--emit-c")) {
      o.emit_c_only = true;
    } else if (!strcmp(a, "--debug")) {
      o.debug = true;
    } else if (!strcmp(a, "--net-info")) {
      o.net_info = true;
    } else if (!strcmp(a, "--deps") || !strcmp(a, "--deps-json")) {
      o.deps = strcmp(a, "--deps") ? 2 : 1;
    } else if (!strcmp(a, "--keep")) {
      o.keep = true;
    } else if (!strcmp(a, "--cc")) {
      NEEDS_VALUE("--cc");
      o.cc = val;
      o.cc_given = true;
    } else if (!strcmp(a, "--cflags")) {
      NEEDS_VALUE("--cflags");
      o.cflags = val;
    } else if (!strcmp(a, "--scenario")) {
      NEEDS_VALUE("--scenario");
      o.scenario.name = val;
    } else if (!strcmp(a, "--behaviour-only")) {
      o.scenario.behaviour_only = true;
    } else if (!strcmp(a, "--scenario-max-states") || !strcmp(a, "--scenario-words")) {
      NEEDS_VALUE(a);
      char *end;
      long n = strtol(val, &end, 10);
      if (*end || n < 1 || n > 1000000)
        usage_error("%s expects a number from 1 to 1000000, got '%s'", a, val);
      if (!strcmp(a, "--scenario-words"))
        o.words = (int)n;
      else
        o.scenario.max_states = (int)n;
    } else if (!strcmp(a, "--mpi")) {
      o.mpi = true;
    } else if (a[0] == '-' && a[1]) {
      usage_error("unknown option '%s'", a);
    } else if (o.spec) {
      usage_error("only one SPEC may be given ('%s' and '%s')", o.spec, a);
    } else {
      o.spec = a;
    }
#undef NEEDS_VALUE
  }
  if (!o.spec)
    usage_error("no SPEC given");
  if ((o.scenario.behaviour_only || o.words) && !o.scenario.name)
    usage_error("%s needs --scenario NAME", o.words ? "--scenario-words" : "--behaviour-only");
  if (o.output) {
    size_t n = strlen(o.output);
    struct stat st;
    if (!n || o.output[n - 1] == '/')
      usage_error("-o needs a file name, got '%s'", o.output);
    if (stat(o.output, &st) == 0 && S_ISDIR(st.st_mode))
      usage_error("-o names a directory ('%s'): give the checker's file name", o.output);
  }
  return o;
}

// Whether PATH and the file IN are one file (IN need not exist).
static bool same_file(const struct stat *out, const char *in) {
  struct stat st;
  return stat(in, &st) == 0 && out->st_dev == st.st_dev && out->st_ino == st.st_ino;
}

// mcgen writes NAME, NAME.c and NAME.m4: none may be the spec itself or a
// C file the spec's `extern` reads (either would be lost: `-o sum` beside
// `sources "sum.c"` would write the generated C over the user's), nor an
// existing file that is not a regular file (a device or a pipe: `-o
// /dev/null` would write /dev/null.c and send the checker nowhere).
// c_files is extern_file_hashes()'s list, a line `PATH=HASH` per file.
static void check_output_path(const char *path, const char *spec, const char *c_files) {
  struct stat out;
  if (stat(path, &out) != 0)
    return;
  if (strcmp(spec, "-") && same_file(&out, spec))
    usage_error("-o would overwrite the spec '%s' with '%s': give the checker another name", spec,
                path);
  for (const char *line = c_files; *line;) {
    const char *end = strchr(line, '\n'), *eq = end ? end : line + strlen(line);
    while (eq > line && *eq != '=')
      eq--;
    char *c_file = format("%.*s", (int)(eq - line), line);
    if (same_file(&out, c_file))
      usage_error("-o would overwrite the C file '%s' that the spec's extern reads with '%s': give "
                  "the checker another name",
                  c_file, path);
    free(c_file);
    line = end ? end + 1 : line + strlen(line);
  }
  if (!S_ISREG(out.st_mode))
    usage_error("'%s' exists and is not a regular file: give the checker another name (-o)", path);
}

// Runs a command (argv[0] looked up in PATH) with stdout optionally sent
// to a file; returns its exit status, or -1 if it could not be started.
static int run(char **argv, const char *stdout_path) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (stdout_path)
    posix_spawn_file_actions_addopen(&fa, 1, stdout_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid;
  int err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (err) {
    errno = err;
    return -1;
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Writes the generated file's #line directives as the C compiler and
// debuggers need them. emit.c writes one before every line from the spec
// (each C line of a statement names the statement's line); it is kept, but
// names its file only when the file changes. Each `#line MCGEN_HERE` marker
// (glue after spec code) becomes a #line naming the generated file itself,
// so that messages about the glue point there, unless the glue is already
// attributed so. A directive followed by another one before any line of C
// is dropped.
static bool fix_line_markers(const char *path) {
  SrcFile *f = read_file(path);
  if (!f)
    return false;
  FILE *out = fopen(path, "w");
  if (!out)
    return false;
  Buf self = {0}; // the generated file's name as a C string literal
  buf_printf(&self, "\"%s\"", c_escape(path));
  int out_line = 1;             // line number in the output of the next line written
  const char *file = self.data; // the next line's attribution without a directive:
  int file_line = 1;            // file and line
  const char *to_file = NULL;   // the last directive read, not yet written
  int to_line = 0;
  const char *p = f->text;
  while (*p) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    char *end;
    if (len == 16 && !strncmp(p, "#line MCGEN_HERE", 16)) {
      to_file = self.data;
      to_line = 0; // the line after the directive, if it is written
    } else if (!strncmp(p, "#line ", 6) && p[6] >= '0' && p[6] <= '9') {
      to_line = (int)strtol(p + 6, &end, 10);
      to_file = *end == ' ' ? xstrndup(end + 1, len - (size_t)(end + 1 - p)) : file;
    } else {
      if (to_file) {
        // A spec line's directive always changes the attribution or starts
        // a new spec line; glue's may already be attributed to itself.
        bool same_file = !strcmp(to_file, file);
        bool glue = to_file == self.data;
        if (!glue || !same_file || file_line != out_line) {
          if (glue)
            to_line = out_line + 1;
          if (same_file)
            fprintf(out, "#line %d\n", to_line);
          else
            fprintf(out, "#line %d %s\n", to_line, to_file);
          out_line++;
          file = to_file;
          file_line = to_line;
        }
        to_file = NULL;
      }
      fprintf(out, "%.*s\n", (int)len, p);
      out_line++;
      file_line++;
    }
    p += len + (nl ? 1 : 0);
  }
  return fclose(out) == 0;
}

// Every stage recurses once per level of an expression tree (check()
// allows a few thousand, as long operator chains make): give the stack room
// for that whatever `ulimit -s` says. The main thread's stack grows up to the
// current limit; 64 MiB stays below the gap Linux leaves under it.
static void raise_stack_limit(void) {
  const rlim_t want = (rlim_t)64 << 20;
  struct rlimit rl;
  if (getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= want)
    return;
  rl.rlim_cur = rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want ? rl.rlim_max : want;
  setrlimit(RLIMIT_STACK, &rl);
}

// The spec, read and parsed; NULL if it cannot be read (reported). The
// file's extension chooses the language: .dve is DiVinE's DVE, .pnml a
// Petri net, .m Murphi.
static Program *read_and_parse(const char *spec) {
  SrcFile *file = read_file(spec);
  if (!file) {
    fprintf(stderr, "mcgen: cannot read %s: %s\n", spec, strerror(errno));
    return NULL;
  }
  size_t nlen = strlen(spec);
  bool is_dve = nlen > 4 && !strcmp(spec + nlen - 4, ".dve");
  if (nlen > 5 && !strcmp(spec + nlen - 5, ".pnml"))
    return parse_pnml(file);
  if (nlen > 2 && !strcmp(spec + nlen - 2, ".m"))
    return parse_murphi(file);
  return is_dve ? parse_dve(file) : parse(tokenize(file));
}

// check() with the -D overrides of the command line.
static bool check_with_defines(Program *prog, Options *o) {
  Define *defs = xcalloc(o->defines.len + 1, sizeof *defs);
  for (int i = 0; i < o->defines.len; i++)
    defs[i] = *(Define *)o->defines.data[i];
  return check(prog, defs, o->defines.len);
}

// The checker's file name: -o, or MODEL_checker.
static const char *checker_name(Options *o, Program *prog) {
  const char *name = o->output ? o->output : format("%s_checker", model_name(prog));
  // A name beginning with `-` would read as an option to m4 and cc.
  if (name[0] == '-')
    name = format("./%s", name);
  return name;
}

// emit() into the m4 definitions file DEFS_PATH: 0 written, 1 the spec has
// errors (the file removed), 2 the file cannot be written (reported).
static int emit_definitions(Program *prog, Layout *lay, const char *defs_path) {
  FILE *defs_out = fopen(defs_path, "w");
  if (!defs_out) {
    fprintf(stderr, "mcgen: cannot write %s: %s\n", defs_path, strerror(errno));
    return 2;
  }
  bool ok = emit(prog, lay, defs_out);
  if (fclose(defs_out) != 0) {
    fprintf(stderr, "mcgen: cannot write %s: %s\n", defs_path, strerror(errno));
    return 2;
  }
  if (!ok || error_count()) {
    remove(defs_path);
    return 1;
  }
  return 0;
}

// m4: definitions + template -> C (C_PATH, its #line directives fixed).
static bool run_m4(Options *o, Paths *paths, const char *defs_path, const char *c_path) {
  const char *c_base = strrchr(c_path, '/') ? strrchr(c_path, '/') + 1 : c_path;
  // MCGEN_MPI: the checker's main enters the MPI engine (mcrt_mpi_main).
  // MCGEN_CFLAGS: --cflags, which may define macros the extern C reads, is
  // part of the build's identity (stamp_identity).
  char *m4_argv[] = {"m4", "-P", format("-DMCGEN_OUTPUT=%s", c_comment_escape(c_base)),
                     o->mpi ? "-DMCGEN_MPI" : "-UMCGEN_MPI",
                     format("-DMCGEN_CFLAGS=\"%s\"", c_escape(o->cflags)), "--",
                     (char *)defs_path, format("%s/checker.c.m4", paths->templates), NULL};
  int status = run(m4_argv, c_path);
  if (status != 0) {
    if (status < 0)
      fprintf(stderr, "mcgen: cannot run m4 (%s); install GNU m4 (Debian: apt-get install m4)\n",
              strerror(errno));
    else
      fprintf(stderr, "mcgen: m4 failed on %s (exit %d): this is a bug in mcgen\n", defs_path,
              status);
    return false;
  }
  if (!o->keep)
    remove(defs_path);
  if (!fix_line_markers(c_path)) {
    fprintf(stderr, "mcgen: cannot rewrite %s: %s\n", c_path, strerror(errno));
    return false;
  }
  return true;
}

// Appends the build's identity to the generated C: the XXH3-64 of every
// byte before it, the definition of the mc_c_hash the template declares.
// The C holds the constants' values, the extern C files' hashes and
// --cflags, so a checker built from anything else has another identity, and
// refuses the checkpoints of this one (runtime/context/checkpoint.c).
static bool stamp_identity(const char *c_path) {
  SrcFile *f = read_file(c_path);
  FILE *out = f ? fopen(c_path, "a") : NULL;
  if (out) {
    fprintf(out,
            "/* The build's identity: the XXH3-64 of every byte of this file above this "
            "comment. */\n"
            "static const char mc_c_hash[17] = \"%016llx\";\n",
            (unsigned long long)bytes_hash(f->text, f->len));
  }
  if (!out || fclose(out) != 0) {
    fprintf(stderr, "mcgen: cannot write %s: %s\n", c_path, strerror(errno));
    return false;
  }
  return true;
}

// cc: the C file + the runtime -> one standalone checker NAME.
static bool run_cc(Options *o, Paths *paths, Program *prog, const char *c_path, const char *name) {
  Vec cc = {0};
  vec_push(&cc, (void *)o->cc);
  // -fno-var-tracking: at -O2, tracking where each local lives for the
  // debugger is about a third of the C compiler's time on the largest
  // models (docs/performance.md, "Compile time"); the machine code is the
  // same, and line tables and backtraces stay. Locals of an optimised
  // checker show as <optimized out> in gdb: --debug (-O0) is the build for
  // that. GCC and Clang both accept the flag; at -O0 it changes nothing.
  char *std_flags[] = {"-std=c11", "-O2", "-g", "-fno-var-tracking", "-Wall", "-Wextra"};
  if (o->debug) {
    // MC_DEBUG: the accessors are compiled as functions of their own that
    // the debugger can call (see templates/checker.c.m4).
    std_flags[1] = "-O0";
    vec_push(&cc, "-DMC_DEBUG");
  }
  for (size_t i = 0; i < sizeof std_flags / sizeof *std_flags; i++)
    vec_push(&cc, std_flags[i]);
  vec_push(&cc, format("-I%s", paths->include));
  // --cflags is split on blanks (no shell quoting).
  char *extra = xstrdup(o->cflags);
  for (char *t = strtok(extra, " \t\n"); t; t = strtok(NULL, " \t\n"))
    vec_push(&cc, t);
  vec_push(&cc, (void *)c_path);
  Vec sources = extern_sources(prog); // the C of `extern` (extern.c)
  for (int i = 0; i < sources.len; i++)
    vec_push(&cc, sources.data[i]);
  if (o->mpi)
    vec_push(&cc, format("%s/libmcrt_mpi.a", paths->runtime));
  vec_push(&cc, format("%s/libmcrt.a", paths->runtime));
  vec_push(&cc, "-lm");
  vec_push(&cc, "-pthread"); // --threads (runtime/engine/threads.c)
  vec_push(&cc, "-o");
  vec_push(&cc, (void *)name);
  vec_push(&cc, NULL);
  int status = run((char **)cc.data, NULL);
  if (status != 0) {
    if (status < 0 && o->mpi)
      fprintf(stderr, "mcgen: --mpi: cannot run the MPI C compiler '%s': %s; install Open MPI "
                      "(Debian: apt-get install openmpi-bin libopenmpi-dev) or name the wrapper "
                      "with --cc\n", o->cc, strerror(errno));
    else if (status < 0)
      fprintf(stderr, "mcgen: cannot run the C compiler '%s': %s\n", o->cc, strerror(errno));
    else if (*o->cflags || getenv("CC") || strcmp(o->cc, "cc"))
      fprintf(stderr, "mcgen: the C compiler '%s' failed on %s (exit %d); check --cc and "
                      "--cflags\n", o->cc, c_path, status);
    else
      fprintf(stderr, "mcgen: the C compiler failed on %s (exit %d): this is a bug in mcgen,\n"
                      "       please report it with the spec\n", c_path, status);
    return false;
  }
  return true;
}

// --mpi links the MPI engine (libmcrt_mpi.a, which make builds beside
// libmcrt.a when Open MPI's mpicc is installed) and compiles with the MPI
// wrapper: checked before any work, like the other paths.
static bool mpi_runtime_ok(Options *o, Paths *paths) {
  if (!o->cc_given)
    o->cc = getenv("MPICC") && *getenv("MPICC") ? getenv("MPICC") : "mpicc";
  const char *lib = format("%s/libmcrt_mpi.a", paths->runtime);
  if (access(lib, R_OK) == 0)
    return true;
  fprintf(stderr, "mcgen: --mpi needs the MPI runtime %s, which was not built: install Open MPI "
                  "(Debian: apt-get install openmpi-bin libopenmpi-dev), then run make again\n",
          lib);
  return false;
}

// Exit status 1 after the spec's errors, with their count, and the -D
// overrides they were found under (an error there may come from a value
// given on the command line rather than written in the spec).
static int spec_errors(Options *o) {
  fprintf(stderr, "%d error%s in %s", error_count(), error_count() == 1 ? "" : "s", o->spec);
  for (int i = 0; i < o->defines.len; i++) {
    Define *d = o->defines.data[i];
    fprintf(stderr, "%s-D %s=%s", i ? " " : " (with ", d->name, d->value);
  }
  fputs(o->defines.len ? ")\n" : "\n", stderr);
  return 1;
}

// The pipeline: parse, check, layout, emit (m4 definitions), m4 (C), cc
// (the checker). A spec with errors stops after the pass that found them.
int main(int argc, char **argv) {
  raise_stack_limit();
  Options o = parse_args(argc, argv);
  // The templates and the runtime, looked for first: a broken installation
  // is reported before any work is done.
  Paths paths;
  if (!find_paths(argv[0], !o.emit_c_only && !o.deps, &paths))
    return 2;
  if (o.mpi && !o.emit_c_only && !mpi_runtime_ok(&o, &paths))
    return 2;

  if (o.net_info) {
    size_t n = strlen(o.spec);
    if (n <= 5 || strcmp(o.spec + n - 5, ".pnml"))
      usage_error("--net-info needs a Petri net (a .pnml file), got '%s'", o.spec);
    SrcFile *file = read_file(o.spec);
    if (!file) {
      fprintf(stderr, "mcgen: cannot read %s: %s\n", o.spec, strerror(errno));
      return 2;
    }
    int status = pnml_net_info(file, stdout);
    return status == 1 ? spec_errors(&o) : status;
  }
  Program *prog = read_and_parse(o.spec);
  if (!prog)
    return 2;
  // Syntax errors stop here: checking a half-parsed file would only add
  // errors that are consequences of the first ones.
  if (error_count())
    return spec_errors(&o);
  // The C of `extern` declarations (extern.c): its constants before
  // check(), its functions and types compared after. Errors in the C input
  // itself (a missing file, C that does not compile) exit 2.
  if (!extern_load(prog))
    return extern_input_bad() ? (spec_errors(&o), 2) : spec_errors(&o);
  if (!check_with_defines(prog, &o))
    return spec_errors(&o);
  if (!extern_check(prog))
    return extern_input_bad() ? (spec_errors(&o), 2) : spec_errors(&o);
  if (!scenario_compile(prog, &o.scenario))
    return spec_errors(&o);
  if (o.words)
    return scenario_print_words(stdout, o.words) ? 0 : 1;
  Layout lay;
  if (!layout(prog, &lay))
    return spec_errors(&o);
  if (o.deps)
    return deps_print(prog, &lay, stdout, o.deps == 2);

  const char *name = checker_name(&o, prog);
  char *defs_path = format("%s.m4", name), *c_path = format("%s.c", name);
  const char *c_files = extern_file_hashes();
  check_output_path(name, o.spec, c_files);
  check_output_path(defs_path, o.spec, c_files);
  check_output_path(c_path, o.spec, c_files);
  int emitted = emit_definitions(prog, &lay, defs_path);
  if (emitted == 1)
    return spec_errors(&o);
  if (emitted == 2)
    return 2;
  if (!run_m4(&o, &paths, defs_path, c_path) || !stamp_identity(c_path))
    return 2;
  if (o.emit_c_only)
    return 0;
  if (!run_cc(&o, &paths, prog, c_path, name))
    return 2;
  return 0;
}
