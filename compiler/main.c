// SPDX-License-Identifier: MIT
// main.c: the driver. Reads the command line, finds the templates and the
// runtime (paths.c), then runs the pipeline one stage per call: read,
// tokenize, parse, check, layout, emit, m4, cc.
#include "mcgen.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
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
  Vec watches;        // const char*: -W NAME=EXPR, as given
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
  bool quiet;         // say nothing of what was built
  bool verbose;       // print each command run
  bool run;           // --run: run the checker once built
  char **checker_args; // --run: the checker's arguments (after `--`), NULL-terminated
  bool lsp;           // --lsp: the language server
  const char *color;  // --color: never, auto (the default) or always
  int given;          // how many options were given
} Options;

// The options of mcgen, a row each: getopt_long reads them from this
// table and --help prints it (tests/install checks the man page against
// --help). An option with a short form has its letter as its id.
typedef enum { ARG_NONE, ARG_TEXT, ARG_NUMBER, ARG_CHOICE } ArgKind;

enum {
  OPT_RUN = 256, OPT_EMIT_C, OPT_DEBUG, OPT_CC, OPT_CFLAGS, OPT_KEEP, OPT_MPI, OPT_SCENARIO,
  OPT_BEHAVIOUR_ONLY, OPT_SCENARIO_MAX_STATES, OPT_SCENARIO_WORDS, OPT_NET_INFO, OPT_DEPS,
  OPT_DEPS_JSON, OPT_COLOR, OPT_LSP, OPT_VERSION,
};

typedef struct OptionRow {
  int id;              // the short form's letter, or an OPT_ id
  const char *name;    // the long form without `--` (NULL: a short form only)
  ArgKind arg;
  const char *metavar; // the argument in --help; ARG_CHOICE: the choices, `|` between
  long min, max;       // ARG_NUMBER: its range
  const char *help;    // a `\n` starts a continuation line
} OptionRow;

static const OptionRow option_rows[] = {
    {'o', NULL, ARG_TEXT, "NAME", 0, 0, "name of the checker (and NAME.c)"},
    {'D', NULL, ARG_TEXT, "CONST=VALUE", 0, 0,
     "override a constant, once per CONST (integer, true\nor false)"},
    {'W', NULL, ARG_TEXT, "NAME=EXPR", 0, 0,
     "watch EXPR (over the state variables) at every step\n"
     "of a trace, as a `watch NAME: EXPR;` declaration would"},
    {'q', "quiet", ARG_NONE, NULL, 0, 0, "say nothing of what was built"},
    {'v', "verbose", ARG_NONE, NULL, 0, 0,
     "print each command mcgen runs (m4, cc, the checker)"},
    {OPT_RUN, "run", ARG_NONE, NULL, 0, 0,
     "build the checker, then run it with the arguments\n"
     "after `--` (mcgen --run SPEC -- --threads 2); exit with\n"
     "its status"},
    {OPT_EMIT_C, "emit-c", ARG_NONE, NULL, 0, 0, "write NAME.c only, do not compile it"},
    {OPT_DEBUG, "debug", ARG_NONE, NULL, 0, 0,
     "build for a debugger: -O0 -g, every state accessor kept\n"
     "in the checker (gdb: print get_VAR(s, ...))"},
    {OPT_CC, "cc", ARG_TEXT, "CC", 0, 0,
     "C compiler (default: $CC or cc; with --mpi: $MPICC or\n"
     "mpicc)"},
    {OPT_CFLAGS, "cflags", ARG_TEXT, "FLAGS", 0, 0,
     "extra flags for the C compiler (e.g. \"-march=native\")"},
    {OPT_SCENARIO, "scenario", ARG_TEXT, "NAME", 0, 0,
     "check the model restricted to scenario NAME (the\n"
     "product of the model and the scenario's automaton)"},
    {OPT_BEHAVIOUR_ONLY, "behaviour-only", ARG_NONE, NULL, 0, 0,
     "with --scenario: ignore the actions' guards and bodies and\n"
     "explore the scenario's automaton alone"},
    {OPT_SCENARIO_MAX_STATES, "scenario-max-states", ARG_NUMBER, "N", 1, 1000000,
     "the size cap of a scenario's automaton (default 4096;\n"
     "its construction may go through 16 times as many states)"},
    {OPT_SCENARIO_WORDS, "scenario-words", ARG_NUMBER, "N", 1, 1000000,
     "print the action sequences of up to N steps that scenario\n"
     "NAME accepts, one a line, and build nothing"},
    {OPT_MPI, "mpi", ARG_NONE, NULL, 0, 0,
     "build with Open MPI's mpicc for distributed runs:\n"
     "mpirun -np K ./NAME [options] (one rank without mpirun)"},
    {OPT_KEEP, "keep", ARG_NONE, NULL, 0, 0, "keep the intermediate m4 definitions (NAME.m4)"},
    {OPT_NET_INFO, "net-info", ARG_NONE, NULL, 0, 0,
     "SPEC is a Petri net (.pnml): print its semiflows, place\n"
     "bounds and workflow soundness, build nothing"},
    {OPT_DEPS, "deps", ARG_NONE, NULL, 0, 0,
     "print what each action rule reads and writes, its process,\n"
     "the cells the predicates read and which rules can enable\n"
     "or disable which; build nothing"},
    {OPT_DEPS_JSON, "deps-json", ARG_NONE, NULL, 0, 0, "the same as JSON"},
    {OPT_COLOR, "color", ARG_CHOICE, "never|auto|always", 0, 0,
     "colour the errors (default auto: on a terminal,\n"
     "unless NO_COLOR is set)"},
    {OPT_LSP, "lsp", ARG_NONE, NULL, 0, 0,
     "serve the Language Server Protocol on standard input\n"
     "and output, for editors: errors as you type, go to\n"
     "definition, hover, the outline"},
    {OPT_VERSION, "version", ARG_NONE, NULL, 0, 0,
     "print the version and the commit mcgen was built from"},
    {'h', "help", ARG_NONE, NULL, 0, 0, "print this help"},
};
#define NOPTIONS (int)(sizeof option_rows / sizeof *option_rows)
#define HELP_COLUMN 22 // where the options' descriptions start in --help

// How the option is written in --help: `-q, --quiet`, `-o NAME`, `--cc CC`.
static const char *option_synopsis(const OptionRow *r) {
  const char *forms = r->id < 256 && r->name ? format("-%c, --%s", r->id, r->name)
                      : r->name              ? format("--%s", r->name)
                                             : format("-%c", r->id);
  return r->metavar ? format("%s %s", forms, r->metavar) : forms;
}

// A row a line or more: its synopsis, then its help at HELP_COLUMN (on the
// next line when the synopsis reaches it).
static void print_option_table(FILE *out) {
  for (int i = 0; i < NOPTIONS; i++) {
    const char *syn = option_synopsis(&option_rows[i]);
    int pad = HELP_COLUMN - 2 - (int)strlen(syn);
    if (pad >= 2)
      fprintf(out, "  %s%*s", syn, pad, "");
    else
      fprintf(out, "  %s\n%*s", syn, HELP_COLUMN, "");
    for (const char *h = option_rows[i].help; *h; h++)
      if (*h == '\n')
        fprintf(out, "\n%*s", HELP_COLUMN, "");
      else
        fputc(*h, out);
    fputc('\n', out);
  }
}

static void usage(FILE *out) {
  fprintf(out,
          "usage: mcgen [-q|--quiet] [-v|--verbose] [-o NAME] [-D CONST=VALUE]...\n"
          "             [-W NAME=EXPR]... [--emit-c] [--debug] [--cc CC] [--cflags FLAGS]\n"
          "             [--keep] [--mpi] [--scenario NAME [--behaviour-only]]\n"
          "             [--scenario-max-states N] [--color never|auto|always] [--] SPEC\n"
          "       mcgen --run [OPTIONS] SPEC [-- CHECKER-OPTIONS]\n"
          "       mcgen --scenario NAME --scenario-words N [-D CONST=VALUE]... [--] SPEC\n"
          "       mcgen --deps|--deps-json [-D CONST=VALUE]... [--] SPEC\n"
          "       mcgen --net-info [--] SPEC.pnml\n"
          "       mcgen --lsp\n"
          "       mcgen -h|--help | --version\n"
          "\n"
          "Compiles SPEC into a standalone model checker: NAME.c and NAME (default\n"
          "MODEL_checker, MODEL from `model MODEL;` or the file name less its extension,\n"
          "lamport.5.dve: lamport.5_checker). SPEC is a spec in mcgen's language (.mc), a\n"
          "DVE model of the BEEM suite (.dve), a Petri net in PNML (.pnml) or a Murphi\n"
          "model (.m); its extension chooses the language. Says what it built on stderr.\n"
          "\n");
  print_option_table(out);
  fprintf(out,
          "  --                  end of the options (for a SPEC whose name begins with -);\n"
          "%*swith --run, the checker's options follow\n"
          "\n"
          "Exit codes: 0 built, 1 the spec has errors (all reported), 2 usage or system\n"
          "error; with --run, the checker's.\n",
          HELP_COLUMN, "");
}

static _Noreturn void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static _Noreturn void usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "mcgen: %s\n", vformat(fmt, ap));
  va_end(ap);
  fprintf(stderr, "Try 'mcgen --help'.\n");
  exit(2);
}

// The commit mcgen was built from, baked in by the Makefile (MCGEN_COMMIT:
// the hash, `-dirty` after it when the tree had changes; empty outside git).
#ifndef MCGEN_COMMIT
#define MCGEN_COMMIT ""
#endif

static void print_version(void) {
  const char *commit = MCGEN_COMMIT;
  size_t n = strlen(commit);
  printf("mcgen %s\n", MCGEN_VERSION);
  if (!n)
    printf("built outside a git checkout: no commit recorded\n");
  else if (n > 6 && !strcmp(commit + n - 6, "-dirty"))
    printf("built from commit %.*s with uncommitted changes\n", (int)(n - 6), commit);
  else
    printf("built from commit %s\n", commit);
}

static const OptionRow *row_of(int id) {
  for (int i = 0; i < NOPTIONS; i++)
    if (option_rows[i].id == id)
      return &option_rows[i];
  unreachable();
}

// The long options that begin with `name` (its first `len` bytes): the
// one it names exactly if there is one, else every one it abbreviates.
static Vec long_matches(const char *name, size_t len) {
  Vec found = {0};
  for (int i = 0; i < NOPTIONS; i++) {
    const char *n = option_rows[i].name;
    if (n && strlen(n) == len && !strncmp(n, name, len)) {
      Vec exact = {0};
      vec_push(&exact, (void *)&option_rows[i]);
      return exact;
    }
    if (n && !strncmp(n, name, len))
      vec_push(&found, (void *)&option_rows[i]);
  }
  return found;
}

// A long option getopt_long refused (ARG: `--name` or `--name=value`):
// unknown (with the nearest known one), ambiguous, or given a value it
// does not take.
static _Noreturn void bad_long_option(const char *arg, const Options *o) {
  const char *name = arg + 2, *eq = strchr(name, '=');
  size_t len = eq ? (size_t)(eq - name) : strlen(name);
  Vec m = long_matches(name, len);
  if (m.len == 1)
    usage_error("option --%s takes no value", ((OptionRow *)m.data[0])->name);
  if (m.len > 1) {
    Buf names = {0};
    for (int i = 0; i < m.len; i++)
      buf_printf(&names, "%s--%s", i ? ", " : "", ((OptionRow *)m.data[i])->name);
    usage_error("option '--%.*s' is ambiguous: %s", (int)len, name, names.data);
  }
  const char *long_names[NOPTIONS];
  for (int i = 0; i < NOPTIONS; i++)
    long_names[i] = option_rows[i].name;
  const char *best = closest_name(xstrndup(name, len), long_names, NOPTIONS);
  if (best)
    usage_error("unknown option '--%.*s'; did you mean '--%s'?", (int)len, name, best);
  if (o->run)
    usage_error("unknown option '--%.*s' (with --run, the checker's options go after `--`)",
                (int)len, name);
  usage_error("unknown option '--%.*s'", (int)len, name);
}

// getopt_long's '?' (an unknown option) or ':' (an option without its value).
static _Noreturn void bad_option(int c, char **argv, const Options *o) {
  const char *arg = argv[optind - 1];
  bool is_long = !strncmp(arg, "--", 2);
  if (c == ':')
    usage_error("option %s needs a value",
                is_long ? format("--%s", row_of(optopt)->name) : format("-%c", optopt));
  if (is_long)
    bad_long_option(arg, o);
  if (o->run)
    usage_error("unknown option '-%c' (with --run, the checker's options go after `--`)",
                optopt);
  usage_error("unknown option '-%c'", optopt);
}

// The value of an ARG_NUMBER or ARG_CHOICE option, checked against its row.
static long number_value(const OptionRow *r, const char *val) {
  char *end;
  errno = 0;
  long n = strtol(val, &end, 10);
  if (!*val || *end || errno || n < r->min || n > r->max)
    usage_error("--%s expects a number from %ld to %ld, got '%s'", r->name, r->min, r->max, val);
  return n;
}

static const char *choice_value(const OptionRow *r, const char *val) {
  size_t n = strlen(val);
  for (const char *c = r->metavar; *c;) {
    size_t len = strcspn(c, "|");
    if (len == n && !strncmp(c, val, n))
      return val;
    c += len + (c[len] == '|');
  }
  Buf choices = {0};
  for (const char *c = r->metavar; *c;) {
    size_t len = strcspn(c, "|");
    buf_printf(&choices, "%s%.*s", choices.len ? (c[len] ? ", " : " or ") : "", (int)len, c);
    c += len + (c[len] == '|');
  }
  usage_error("--%s expects %s, got '%s'", r->name, choices.data, val);
}

static void add_define(Options *o, const char *val) {
  const char *eq = strchr(val, '=');
  if (!eq || eq == val || !eq[1])
    usage_error("-D expects CONST=VALUE, got '%s'", val);
  Define *d = xcalloc(1, sizeof *d);
  d->name = xstrndup(val, eq - val);
  d->value = xstrdup(eq + 1);
  vec_push(&o->defines, d);
}

static void apply_option(Options *o, int id, const char *val) {
  o->given++;
  switch (id) {
  case 'o': o->output = val; break;
  case 'D': add_define(o, val); break;
  case 'W': vec_push(&o->watches, (void *)val); break;
  case 'q': o->quiet = true; break;
  case 'v': o->verbose = true; break;
  case OPT_RUN: o->run = true; break;
  case OPT_EMIT_C: o->emit_c_only = true; break;
  case OPT_DEBUG: o->debug = true; break;
  case OPT_CC: o->cc = val; o->cc_given = true; break;
  case OPT_CFLAGS: o->cflags = val; break;
  case OPT_SCENARIO: o->scenario.name = val; break;
  case OPT_BEHAVIOUR_ONLY: o->scenario.behaviour_only = true; break;
  case OPT_SCENARIO_MAX_STATES: o->scenario.max_states = (int)number_value(row_of(id), val); break;
  case OPT_SCENARIO_WORDS: o->words = (int)number_value(row_of(id), val); break;
  case OPT_MPI: o->mpi = true; break;
  case OPT_KEEP: o->keep = true; break;
  case OPT_NET_INFO: o->net_info = true; break;
  case OPT_DEPS: o->deps = 1; break;
  case OPT_DEPS_JSON: o->deps = 2; break;
  case OPT_COLOR: o->color = choice_value(row_of(id), val); break;
  case OPT_LSP: o->lsp = true; break;
  case OPT_VERSION: print_version(); exit(0);
  case 'h': usage(stdout); exit(0);
  default: unreachable();
  }
}

// getopt_long's tables, made from option_rows: the short forms ("-:" first:
// operands are returned in place, as option 1, and a missing value as ':')
// and the long ones.
static void getopt_tables(char *shorts, struct option *longs) {
  char *s = shorts;
  *s++ = '-';
  *s++ = ':';
  int n = 0;
  for (int i = 0; i < NOPTIONS; i++) {
    const OptionRow *r = &option_rows[i];
    if (r->id < 256) {
      *s++ = (char)r->id;
      if (r->arg != ARG_NONE)
        *s++ = ':';
    }
    if (r->name)
      longs[n++] = (struct option){r->name, r->arg != ARG_NONE ? required_argument : no_argument,
                                   NULL, r->id};
  }
  *s = '\0';
  longs[n] = (struct option){0};
}

// The operands: SPEC, and with --run the checker's arguments. Those before
// `--` are in `before`, the rest of argv (from `rest`) came after it. The
// SPEC is the first operand; with --run, the arguments after `--` that
// follow it go to the checker.
static void take_operands(Options *o, Vec *before, char **rest) {
  if (before->len)
    o->spec = before->data[0];
  else if (*rest)
    o->spec = *rest++;
  if (o->run && before->len <= 1) {
    if (!before->len && *rest && !strcmp(*rest, "--"))
      rest++;
    o->checker_args = rest;
    return;
  }
  const char *second = before->len > 1 ? before->data[1] : *rest;
  if (second && o->run)
    usage_error("with --run, the checker's arguments go after `--` ('%s')", second);
  if (second)
    usage_error("only one SPEC may be given ('%s' and '%s')", o->spec, second);
}

static void check_combinations(Options *o) {
  if (o->lsp) {
    if (o->given > 1 || o->spec)
      usage_error("--lsp takes no SPEC and no other option: the editor sends the documents");
    return;
  }
  if (!o->spec)
    usage_error("no SPEC given");
  if ((o->scenario.behaviour_only || o->words) && !o->scenario.name)
    usage_error("%s needs --scenario NAME", o->words ? "--scenario-words" : "--behaviour-only");
  if (o->run && (o->emit_c_only || o->deps || o->net_info || o->words))
    usage_error("--run builds and runs the checker: not with %s",
                o->emit_c_only ? "--emit-c" : o->deps ? "--deps" : o->net_info ? "--net-info"
                                                                : "--scenario-words");
  if (o->output) {
    size_t n = strlen(o->output);
    struct stat st;
    if (!n || o->output[n - 1] == '/')
      usage_error("-o needs a file name, got '%s'", o->output);
    if (stat(o->output, &st) == 0 && S_ISDIR(st.st_mode))
      usage_error("-o names a directory ('%s'): give the checker's file name", o->output);
  }
}

static Options parse_args(int argc, char **argv) {
  Options o = {.cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc", .cflags = "",
               .color = "auto"};
  char shorts[2 * NOPTIONS + 3];
  struct option longs[NOPTIONS + 1];
  getopt_tables(shorts, longs);
  Vec before = {0}; // operands before `--`
  opterr = 0;
  for (int c; (c = getopt_long(argc, argv, shorts, longs, NULL)) != -1;) {
    if (c == 1)
      vec_push(&before, optarg);
    else if (c == '?' || c == ':')
      bad_option(c, argv, &o);
    else
      apply_option(&o, c, optarg);
  }
  take_operands(&o, &before, argv + optind);
  check_combinations(&o);
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

static bool verbose; // --verbose: each command is printed before it runs

// Prints a command as a shell would read it back (--verbose).
static void print_command(char **argv, const char *stdout_path) {
  fputs("+", stderr);
  for (char **a = argv; *a; a++) {
    bool plain = **a && strspn(*a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                   "0123456789_-+=./,:@%") == strlen(*a);
    if (plain) {
      fprintf(stderr, " %s", *a);
      continue;
    }
    fputs(" '", stderr);
    for (const char *c = *a; *c; c++)
      fputs(*c == '\'' ? "'\\''" : (char[]){*c, 0}, stderr);
    fputs("'", stderr);
  }
  fprintf(stderr, "%s%s\n", stdout_path ? " > " : "", stdout_path ? stdout_path : "");
}

// Runs a command (argv[0] looked up in PATH) with stdout optionally sent
// to a file; returns its exit status, or -1 if it could not be started.
static int run(char **argv, const char *stdout_path) {
  if (verbose)
    print_command(argv, stdout_path);
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

// The spec, read and parsed (front.c chooses the front end); NULL if it
// cannot be read (reported) or is a net that is not well-formed XML.
static Program *read_and_parse(const char *spec) {
  SrcFile *file = read_file(spec);
  if (!file) {
    fprintf(stderr, "mcgen: cannot read %s: %s\n", spec, strerror(errno));
    return NULL;
  }
  return parse_spec(file);
}

// The -W options: each a file of its own named "-W" (errors show its text
// and a caret), parsed into a watch declaration of the spec. False after
// errors (reported).
static bool add_watch_options(Program *prog, Options *o) {
  bool ok = true;
  for (int i = 0; i < o->watches.len; i++) {
    SrcFile *f = xcalloc(1, sizeof *f);
    f->name = "-W";
    f->text = o->watches.data[i];
    f->len = strlen(f->text);
    ok &= parse_watch_option(prog, tokenize(f)) && !error_count();
  }
  return ok;
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
  for (int i = 0; i < o->watches.len; i++)
    fprintf(stderr, "%s-W %s", i || o->defines.len ? " " : " (with ", (char *)o->watches.data[i]);
  fputs(o->defines.len || o->watches.len ? ")\n" : "\n", stderr);
  return 1;
}

// `n` with a comma between each group of three digits: 2,018.
static const char *thousands(uint64_t n) {
  const char *digits = format("%llu", (unsigned long long)n);
  Buf b = {0};
  buf_puts(&b, "");
  for (size_t i = 0, len = strlen(digits); i < len; i++)
    buf_printf(&b, "%s%c", i && (len - i) % 3 == 0 ? "," : "", digits[i]);
  return b.data;
}

// The name of a file in the current directory as a command runs it: ./NAME.
static const char *runnable(const char *name) {
  return strchr(name, '/') ? name : format("./%s", name);
}

// A name for a line of text: each control byte shown as '?'.
static const char *printable(const char *name) {
  char *s = xstrdup(name);
  for (char *p = s; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f)
      *p = '?';
  return s;
}

// What was built, on stderr (stdout stays the checker's under --run):
// `built ./filter_checker (4 actions, 10 bindings, state 3 bytes)`.
static void say_built(const Options *o, Program *prog, Layout *lay, const char *path) {
  if (o->quiet)
    return;
  int actions = 0;
  for (int i = 0; i < prog->decls.len; i++)
    actions += ((Decl *)prog->decls.data[i])->kind == DK_ACTION;
  uint64_t rules = emitted_rules();
  fprintf(stderr, "%s%s%s %s (%s action%s", diag_sgr(DIAG_GOOD), o->emit_c_only ? "wrote" : "built",
          diag_sgr(DIAG_PLAIN), printable(runnable(path)), thousands((uint64_t)actions),
          actions == 1 ? "" : "s");
  if (rules != (uint64_t)actions)
    fprintf(stderr, ", %s binding%s", thousands(rules), rules == 1 ? "" : "s");
  fprintf(stderr, ", state %s byte%s)\n", thousands((uint64_t)lay->state_bytes),
          lay->state_bytes == 1 ? "" : "s");
}

// --run: the checker replaces mcgen, with the arguments after `--`; its
// exit status is mcgen's.
static int run_checker(const Options *o, const char *name) {
  Vec argv = {0};
  vec_push(&argv, (void *)runnable(name));
  for (char **a = o->checker_args; a && *a; a++)
    vec_push(&argv, *a);
  vec_push(&argv, NULL);
  if (verbose)
    print_command((char **)argv.data, NULL);
  fflush(stderr);
  execv(argv.data[0], (char **)argv.data);
  fprintf(stderr, "mcgen: cannot run %s: %s\n", (char *)argv.data[0], strerror(errno));
  return 2;
}

// Colour for the diagnostics: --color always or never, or by the terminal.
static void choose_color(const Options *o) {
  diag_color(!strcmp(o->color, "always") || (!strcmp(o->color, "auto") && color_auto(2)));
}

// The pipeline: parse, check, layout, emit (m4 definitions), m4 (C), cc
// (the checker). A spec with errors stops after the pass that found them.
int main(int argc, char **argv) {
  raise_stack_limit();
  Options o = parse_args(argc, argv);
  if (o.lsp)
    return lsp_main();
  verbose = o.verbose;
  choose_color(&o);
  // The templates and the runtime, looked for first: a broken installation
  // is reported before any work is done.
  Paths paths;
  if (!find_paths(argv[0], !o.emit_c_only && !o.deps, &paths))
    return 2;
  if (o.mpi && !o.emit_c_only && !mpi_runtime_ok(&o, &paths))
    return 2;

  if (o.net_info) {
    if (!is_pnml(o.spec))
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
  if (error_count() || !add_watch_options(prog, &o))
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
  if (!o.emit_c_only && !run_cc(&o, &paths, prog, c_path, name))
    return 2;
  say_built(&o, prog, &lay, o.emit_c_only ? c_path : name);
  return o.run ? run_checker(&o, name) : 0;
}
