// SPDX-License-Identifier: MIT
// extern.c: real C inside a spec. A spec names a header and the C sources
// to link (`extern "ring.h" sources "ring.c";`) and declares what it uses:
// `extern fn NAME(PARAMS): TYPE;`, `extern type NAME;` (a C struct that is
// the spec's record NAME) and `extern const NAME;` (an integer constant,
// enumerator or simple macro). libclang reads the C the way a compiler does:
//
//   extern_load (after parse)  parses the header and every source, reports
//                              C that does not compile, sets each extern const
//   extern_check (after check) compares every extern fn and type with its C
//                              declaration, then walks the bodies of the
//                              functions and their callees: a function of a
//                              spec must be deterministic, or the search is
//                              wrong
//   emit_extern_fn (emit)      writes f_NAME, the wrapper the spec's calls
//                              use: arguments converted to C, the result
//                              checked against its spec type
//
// Every message points at the spec (error, caret) and at the C (a note with
// its own caret). Errors in the C input itself (a file that is missing or
// does not compile, a call through a function pointer) make mcgen exit 2.
// Built without libclang (no MCGEN_HAVE_LIBCLANG), `extern` is refused.
#include "mcgen.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static bool input_bad;

bool extern_input_bad(void) { return input_bad; }

static bool uses_extern(Program *prog) {
  if (prog->extern_files.len || prog->extern_types.len)
    return true;
  for (int i = 0; i < prog->decls.len; i++)
    if (((Decl *)prog->decls.data[i])->is_extern)
      return true;
  return false;
}

// A path written in the spec, relative to the spec's directory; one that
// would start with '-' starts with "./" (libclang and cc would take it for
// an option).
static const char *spec_relative(Program *prog, const char *path) {
  const char *slash = strrchr(prog->file->name, '/');
  if (path[0] != '/' && slash)
    path = format("%.*s/%s", (int)(slash - prog->file->name), prog->file->name, path);
  return path[0] == '-' ? format("./%s", path) : path;
}

Vec extern_sources(Program *prog) {
  Vec out = {0};
  for (int i = 0; i < prog->extern_files.len; i++) {
    ExternFile *f = prog->extern_files.data[i];
    for (int j = 0; j < f->sources.len; j++)
      vec_push(&out, (void *)spec_relative(prog, ((Token *)f->sources.data[j])->str));
  }
  return out;
}

// A path as a C header-name, so that `#include` finds the file whatever
// else its name holds: `<path>`, where C takes every character as it is
// (`\` and `"` too, unlike in a string), or `"path"` when the path holds a
// `>`; a `??` is split by a line splice, which C reads after the trigraphs
// (-std=c11 has them: `??/` would be a backslash). NULL when neither form
// can hold it (a newline, both `"` and `>`) or when it holds an m4 quote
// (the generated C goes through m4); *why says which.
static char *header_name(const char *path, const char **why) {
  bool m4_quote = strstr(path, "\xe2\x9f\xa6") || strstr(path, "\xe2\x9f\xa7");
  *why = strchr(path, '\n')                        ? "a newline"
         : m4_quote                                ? "the character \u27e6 or \u27e7"
         : strchr(path, '>') && strchr(path, '"') ? "both '\"' and '>'"
                                                   : NULL;
  if (*why)
    return NULL;
  char close = strchr(path, '>') ? '"' : '>';
  Buf b = {0};
  buf_printf(&b, "%c", close == '>' ? '<' : '"');
  for (const char *p = path; *p; p++) {
    buf_printf(&b, "%c", *p);
    if (p[0] == '?' && p[1] == '?')
      buf_puts(&b, "\\\n");
  }
  buf_printf(&b, "%c", close);
  return b.data;
}

// The header's absolute path (realpath), so that the generated C finds it
// from wherever it is compiled.
static const char *header_path(Program *prog, ExternFile *f) {
  const char *path = spec_relative(prog, f->header->str);
  char *abs = realpath(path, NULL);
  return abs ? abs : path;
}

const char *extern_includes(Program *prog) {
  Buf b = {0};
  buf_puts(&b, "");
  for (int i = 0; i < prog->extern_files.len; i++) {
    ExternFile *f = prog->extern_files.data[i];
    const char *why, *name = header_name(header_path(prog, f), &why);
    if (!name)
      unreachable(); // extern_load refused it
    buf_printf(&b, "#include %s /* extern \"%s\" */\n", name, c_comment_escape(f->header->str));
  }
  return b.data;
}

#ifndef MCGEN_HAVE_LIBCLANG

static Token *first_extern(Program *prog) {
  if (prog->extern_files.len)
    return ((ExternFile *)prog->extern_files.data[0])->tok;
  if (prog->extern_types.len)
    return prog->extern_types.data[0];
  for (int i = 0; i < prog->decls.len; i++)
    if (((Decl *)prog->decls.data[i])->is_extern)
      return ((Decl *)prog->decls.data[i])->tok;
  return NULL;
}

bool extern_load(Program *prog) {
  if (!uses_extern(prog))
    return true;
  error_at(first_extern(prog), "this mcgen was built without libclang: 'extern' is not available");
  hint("install libclang-dev and rebuild mcgen (make)");
  input_bad = true;
  return false;
}

bool extern_check(Program *prog) {
  (void)prog;
  return true;
}

void emit_extern_fn(Buf *protos, Buf *out, Decl *fn) {
  (void)protos, (void)out, (void)fn;
  unreachable();
}

const char *extern_file_hashes(void) { return ""; }

#else

#include <clang-c/Index.h>

//
// C files and locations
//

// A C file (a header or a source) parsed by libclang.
typedef struct Unit {
  const char *path;
  Token *tok;            // where the spec names it
  CXTranslationUnit tu;
} Unit;

static bool has_text(const char *const *list, size_t n, const char *s) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(list[i], s))
      return true;
  return false;
}

static Vec units;      // Unit*: each header, then each source
static Vec c_files;    // SrcFile* read for notes, by name
static Program *cur_prog;

static char *str(CXString s) {
  char *r = xstrdup(clang_getCString(s) ? clang_getCString(s) : "");
  clang_disposeString(s);
  return r;
}

static SrcFile *c_file(const char *name) {
  for (int i = 0; i < c_files.len; i++)
    if (!strcmp(((SrcFile *)c_files.data[i])->name, name))
      return c_files.data[i];
  SrcFile *f = read_file(name);
  if (!f)
    return NULL;
  f->name = xstrdup(name);
  vec_push(&c_files, f);
  return f;
}

// A token standing for a place in a C file, so that diag.c shows its line
// and a caret (len: characters under the caret).
static Token *file_token(SrcFile *f, size_t offset, int line, int col, int len) {
  Token *t = xcalloc(1, sizeof *t);
  t->kind = TK_IDENT;
  t->file = f;
  t->loc = f->text + offset;
  t->len = len > 0 ? len : 1;
  t->line = line;
  t->col = col;
  return t;
}

static Token *c_token(CXSourceLocation loc, int len) {
  CXFile file;
  unsigned line, col, offset;
  clang_getExpansionLocation(loc, &file, &line, &col, &offset);
  if (!file)
    return NULL;
  SrcFile *f = c_file(str(clang_getFileName(file)));
  if (!f || offset > f->len)
    return NULL;
  return file_token(f, offset, (int)line, (int)col, len);
}

static Token *cursor_token(CXCursor c) {
  char *name = str(clang_getCursorSpelling(c));
  return c_token(clang_getCursorLocation(c), (int)strlen(name));
}

// A note at a C location: "C file:line:col: note: ...", its line and caret.
static void c_note(CXCursor c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void c_note(CXCursor c, const char *fmt, ...) {
  Token *t = cursor_token(c);
  if (!t)
    return;
  va_list ap;
  va_start(ap, fmt);
  note_at(t, "%s", vformat(fmt, ap));
  va_end(ap);
}

//
// Reading the C
//

// Reports the errors libclang found in a unit; false if there were any.
// An error in a header that several units include is reported once.
static Vec c_errors_shown; // char* "file:line:col: message"

static bool report_c_errors(Unit *u) {
  bool ok = true, reported = false;
  unsigned n = clang_getNumDiagnostics(u->tu);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(u->tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      ok = false;
      char *key = str(clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation |
                                                    CXDiagnostic_DisplayColumn));
      bool seen = false;
      for (int j = 0; j < c_errors_shown.len && !seen; j++)
        seen = !strcmp(c_errors_shown.data[j], key);
      if (seen) {
        clang_disposeDiagnostic(d);
        continue;
      }
      vec_push(&c_errors_shown, key);
      if (!reported)
        error_at(u->tok, "the C file '%s' does not compile", u->tok->str);
      reported = true;
      Token *t = c_token(clang_getDiagnosticLocation(d), 1);
      char *msg = str(clang_getDiagnosticSpelling(d));
      if (t)
        note_at(t, "%s", msg);
      else
        hint("%s", msg);
    }
    clang_disposeDiagnostic(d);
  }
  return ok;
}

// What libclang may read. A device such as /dev/zero it reads until memory
// runs out, a FIFO it waits on for ever: before libclang reads anything,
// every file named in the spec, and every file the #include lines of those
// name (below), must be a regular file of at most C_FILE_MAX_MIB. The parse
// itself is bounded, for what the lines do not show (an #include of a
// macro): it is first tried in a child process that may use parse_mib of
// memory more than mcgen holds and parse_seconds of CPU time
// (parse_is_bounded: libclang has no hook before it reads a file, and its
// parse cannot be cut short from outside). The environment may change the
// bounds: MCGEN_PARSE_SECONDS, MCGEN_PARSE_MIB. docs/DESIGN.md, "Reading
// the C".
#define C_FILE_MAX_MIB 64
static long parse_mib = 1024, parse_seconds = 60;
static bool c_refused;    // a file was refused: the later ones are not parsed (they may
                          // include the same, or fail the same way)
static Vec c_checked;     // char*: the real paths whose #include lines were checked

static CXIndex cx_index;
static const char *const parse_args[] = {"-x", "c", "-std=c11"};
enum {
  PARSE_OPTIONS = CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing
};

// Why a file cannot be a C file of `extern`, as a phrase, or NULL (one that
// does not exist is reported where it is read).
static const char *unfit_c_file(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0)
    return NULL;
  if (S_ISREG(st.st_mode))
    return st.st_size <= (off_t)C_FILE_MAX_MIB << 20
               ? NULL
               : format("%lld bytes long, more than the %d MiB of a C file mcgen reads",
                        (long long)st.st_size, C_FILE_MAX_MIB);
  return S_ISDIR(st.st_mode)    ? "a directory"
         : S_ISCHR(st.st_mode)  ? "a character device"
         : S_ISBLK(st.st_mode)  ? "a block device"
         : S_ISFIFO(st.st_mode) ? "a FIFO"
         : S_ISSOCK(st.st_mode) ? "a socket"
                                : "not a regular file";
}

// The text of a C file with its comments made blanks (newlines kept:
// offsets and lines stay), so that a line that starts with '#' is a
// directive. String and character literals are stepped over, so that a
// "/*" in one starts nothing.
static char *blank_comments(const SrcFile *f) {
  char *t = xstrndup(f->text, f->len);
  size_t n = f->len;
  for (size_t i = 0; i < n; i++) {
    if (t[i] == '/' && t[i + 1] == '/') {
      while (i < n && t[i] != '\n')
        t[i++] = ' ';
    } else if (t[i] == '/' && t[i + 1] == '*') {
      t[i] = t[i + 1] = ' ';
      for (i += 2; i < n && !(t[i] == '*' && t[i + 1] == '/'); i++)
        if (t[i] != '\n')
          t[i] = ' ';
      if (i < n)
        t[i] = t[i + 1] = ' ', i++;
    } else if (t[i] == '"' || t[i] == '\'') {
      char quote = t[i];
      for (i++; i < n && t[i] != quote && t[i] != '\n'; i++)
        i += t[i] == '\\' && t[i + 1] != '\n';
    }
  }
  return t;
}

// The file an `#include` names, as the C preprocessor would find it: an
// absolute path as it is; `"name"` beside the including file; NULL for
// what is searched elsewhere (`<name>`, a name not beside it: the system
// headers) or not written out (a macro).
static const char *included_file(const char *includer, const char *line) {
  line += strspn(line, " \t");
  if (*line++ != '#')
    return NULL;
  line += strspn(line, " \t");
  if (strncmp(line, "include", 7) && strncmp(line, "import", 6))
    return NULL;
  line += strcspn(line, " \t\"<\n");
  line += strspn(line, " \t");
  char close = *line == '"' ? '"' : *line == '<' ? '>' : 0;
  const char *end = close ? strchr(line + 1, close) : NULL;
  const char *nl = strchr(line, '\n');
  if (!end || (nl && end > nl))
    return NULL;
  char *name = xstrndup(line + 1, (size_t)(end - line - 1));
  if (name[0] == '/')
    return name;
  const char *slash = strrchr(includer, '/');
  const char *beside = slash ? format("%.*s/%s", (int)(slash - includer), includer, name) : name;
  return close == '"' && access(beside, F_OK) == 0 ? beside : NULL;
}

// Checks the files the #include lines of a C file name, and theirs, before
// libclang reads any (unfit_c_file): an error at the spec's `tok` and a
// note at the line. Lines under `#if 0` are checked too, and an #include
// of a macro is not (the parse is bounded for that). `seen`: the real
// paths checked (each file's lines once, whoever includes it).
static bool check_includes(const char *path, Token *tok, Vec *seen) {
  char *real = realpath(path, NULL);
  if (!real || has_text((const char *const *)seen->data, (size_t)seen->len, real))
    return true;
  vec_push(seen, real);
  SrcFile *f = c_file(path);
  if (!f)
    return true; // (libclang reports it)
  char *text = blank_comments(f);
  int line = 1;
  for (char *p = text; *p; line++) {
    const char *inc = included_file(path, p), *why = inc ? unfit_c_file(inc) : NULL;
    if (why) {
      error_at(tok, "the C file '%s' includes '%s', which is %s: mcgen reads only regular "
                    "files", tok->str, inc, why);
      note_at(file_token(f, (size_t)(p - text), line, 1, (int)strcspn(p, "\n")), "included here");
      input_bad = c_refused = true;
      return false;
    }
    if (inc && !check_includes(inc, tok, seen))
      return false;
    p += strcspn(p, "\n");
    p += *p == '\n';
  }
  return true;
}

// Lets this process's heap and private mappings (RLIMIT_DATA, what Linux
// counts as VmData) grow by `mib` MiB at most from what they are now.
static void limit_data(long mib) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long long kib = -1;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "VmData: %lld kB", &kib) == 1)
      break;
  if (f)
    fclose(f);
  struct rlimit data;
  if (kib < 0 || getrlimit(RLIMIT_DATA, &data) != 0)
    return; // (the time bound stays)
  rlim_t want = ((rlim_t)kib << 10) + ((rlim_t)mib << 20);
  if (data.rlim_max == RLIM_INFINITY || want < data.rlim_max)
    data.rlim_cur = want;
  setrlimit(RLIMIT_DATA, &data);
}

// The CPU time a process has used, all its threads, in clock ticks; -1 if
// /proc does not say.
static long long cpu_ticks(pid_t pid) {
  SrcFile *f = read_file(format("/proc/%d/stat", (int)pid));
  const char *p = f ? strrchr(f->text, ')') : NULL; // (the name may hold anything)
  unsigned long long user, sys;
  if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &user,
                   &sys) != 2)
    return -1;
  return (long long)(user + sys);
}

// Waits for the child that parses; one whose CPU time has not grown for
// `idle_s` (it waits on a FIFO, a device) is killed and *stuck set. Its
// status, or -1 if it was reaped elsewhere.
static int wait_parse(pid_t pid, long idle_s, bool *stuck) {
  long long last = -1;
  int still_ms = 0;
  for (;;) {
    int status;
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid)
      return status;
    if (r < 0 && errno != EINTR)
      return -1;
    struct timespec tick = {0, 100 * 1000 * 1000};
    nanosleep(&tick, NULL);
    long long t = cpu_ticks(pid);
    still_ms = t >= 0 && t == last ? still_ms + 100 : 0;
    last = t;
    if (still_ms >= idle_s * 1000 && !*stuck) {
      *stuck = true;
      kill(pid, SIGKILL);
    }
  }
}

// Whether libclang parses the C file at `path` within the bounds, tried in
// a child process; else an error at `tok`. Memory: parse_mib more than
// mcgen holds (RLIMIT_DATA: the heap and private mappings, what libclang
// grows when a file does not end). Time: parse_seconds of CPU time
// (RLIMIT_CPU: a machine loaded by others slows the parse down, not its
// CPU time), and a child that makes no progress for 10 s (parse_seconds
// if less: it waits on a FIFO) is stopped; ten times parse_seconds of wall
// time in any case (alarm: /proc may not say). The child's messages
// (LLVM's "out of memory") go nowhere: the parent says what happened.
static bool parse_is_bounded(const char *path, Token *tok) {
  if (c_refused)
    return false;
  long idle_s = parse_seconds < 10 ? parse_seconds : 10;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    limit_data(parse_mib);
    struct rlimit cpu = {(rlim_t)parse_seconds, (rlim_t)parse_seconds + 1};
    setrlimit(RLIMIT_CPU, &cpu);
    alarm((unsigned)parse_seconds * 10);
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 2);
    CXTranslationUnit tu;
    enum CXErrorCode err = clang_parseTranslationUnit2(clang_createIndex(0, 0), path, parse_args,
                                                       3, NULL, 0, PARSE_OPTIONS, &tu);
    _exit(err == CXError_Crashed ? 3 : 0); // (another refusal is the parent's to report)
  }
  bool stuck = false;
  int status = pid > 0 ? wait_parse(pid, idle_s, &stuck) : 0;
  if (pid > 0 && (status == -1 || (WIFEXITED(status) && WEXITSTATUS(status) == 0)))
    return true;
  int sig = pid > 0 && WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  if (pid < 0)
    error_at(tok, "cannot start the process that reads the C file '%s': %s", tok->str,
             strerror(errno));
  else if (stuck)
    error_at(tok, "libclang made no progress for %ld s reading the C file '%s' and what it "
                  "includes", idle_s, tok->str);
  else if (sig == SIGXCPU || sig == SIGALRM)
    error_at(tok, "libclang took more than %ld s%s to read the C file '%s' and what it includes "
                  "(MCGEN_PARSE_SECONDS)", sig == SIGXCPU ? parse_seconds : parse_seconds * 10,
             sig == SIGXCPU ? " of CPU time" : "", tok->str);
  else
    error_at(tok, "libclang failed to read the C file '%s' and what it includes within %ld MiB "
                  "of memory (MCGEN_PARSE_MIB): it ran out, or crashed", tok->str, parse_mib);
  if (pid > 0)
    hint("a file that does not end: an #include of a device or a FIFO, through a macro?");
  input_bad = c_refused = true;
  return false;
}

// A bound of the parse from the environment, if it is set: a whole number
// from 1 to 10^6. False after an error.
static bool bound_from_env(const char *var, long *bound) {
  const char *v = getenv(var);
  if (!v || !*v)
    return true;
  char *end;
  errno = 0;
  long n = strtol(v, &end, 10);
  if (v[0] >= '0' && v[0] <= '9' && !*end && !errno && n >= 1 && n <= 1000000) {
    *bound = n;
    return true;
  }
  error_at(NULL, "%s=%s: expected a whole number from 1 to 1000000", var, v);
  input_bad = true;
  return false;
}

// Whether the C file at `path` (named in the spec at `tok`) may be parsed:
// it is readable, and it and what it includes are regular files (above);
// then it is parsed within the bounds. Else an error at tok.
static bool vet_c_file(const char *path, Token *tok) {
  const char *why = unfit_c_file(path);
  if (why) {
    error_at(tok, "the C file '%s' is %s: mcgen reads only regular files", tok->str, why);
    input_bad = true;
    return false;
  }
  if (!read_file(path)) {
    error_at(tok, "cannot read the C file '%s': %s", path, strerror(errno));
    input_bad = true;
    return false;
  }
  return check_includes(path, tok, &c_checked) && parse_is_bounded(path, tok);
}

// Whether the generated C can #include the header (header_name); else an
// error at the spec's string.
static bool nameable(Program *prog, ExternFile *f) {
  const char *why;
  if (header_name(header_path(prog, f), &why))
    return true;
  error_at(f->header, "the generated C cannot #include the C header '%s': its path holds %s",
           f->header->str, why);
  hint("rename the file or the directory that holds it, or reach it through a link of "
       "another name");
  input_bad = true;
  return false;
}

static Unit *parse_unit(const char *path, Token *tok) {
  Unit *u = xcalloc(1, sizeof *u);
  u->path = path;
  u->tok = tok;
  enum CXErrorCode err = clang_parseTranslationUnit2(cx_index, path, parse_args, 3, NULL, 0,
                                                     PARSE_OPTIONS, &u->tu);
  if (err != CXError_Success) {
    error_at(tok, "libclang cannot parse the C file '%s' (error %d)", path, (int)err);
    input_bad = true;
    return NULL;
  }
  if (!report_c_errors(u)) {
    input_bad = true;
    return NULL;
  }
  vec_push(&units, u);
  return u;
}

// The checker's build identity names each C file read here
// (runtime/context/checkpoint.c): the units and the files they include outside the
// system headers, each once by its absolute path.
typedef struct Inclusions {
  CXTranslationUnit tu;
  StrSet seen;
  Buf lines; // PATH=HASH
} Inclusions;

static void inclusion_visit(CXFile file, CXSourceLocation *stack, unsigned depth,
                            CXClientData data) {
  (void)stack, (void)depth;
  Inclusions *in = data;
  if (clang_Location_isInSystemHeader(clang_getLocationForOffset(in->tu, file, 0)))
    return;
  char *name = str(clang_getFileName(file));
  char *abs = realpath(name, NULL);
  const char *path = abs ? abs : name;
  if (!strset_add(&in->seen, path))
    return;
  SrcFile *f = read_file(path); // libclang read it a moment ago
  buf_printf(&in->lines, "%s=%s\n", path,
             f ? format("%016llx", (unsigned long long)bytes_hash(f->text, f->len))
               : "unreadable");
}

const char *extern_file_hashes(void) {
  Inclusions in = {0};
  buf_puts(&in.lines, "");
  for (int i = 0; i < units.len; i++) {
    in.tu = ((Unit *)units.data[i])->tu;
    clang_getInclusions(in.tu, inclusion_visit, &in);
  }
  return in.lines.data;
}

// A search of the top-level declarations of the units, outside the system
// headers, for one name of one kind: CXCursor_FunctionDecl; CXCursor_
// StructDecl (a struct tag or a typedef); CXCursor_EnumConstantDecl (any
// constant: an enumerator, a macro or a variable).
typedef struct Found {
  const char *name;
  enum CXCursorKind kind;
  CXCursor best;          // a definition when there is one
  bool found;
  Vec names;              // every name of that kind met (for hints)
} Found;

static enum CXChildVisitResult find_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  Found *f = data;
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
    return CXChildVisit_Continue;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_EnumDecl && f->kind == CXCursor_EnumConstantDecl)
    return CXChildVisit_Recurse;
  if (k == CXCursor_TypedefDecl && f->kind == CXCursor_StructDecl)
    k = CXCursor_StructDecl;
  if (k != f->kind && !(f->kind == CXCursor_EnumConstantDecl &&
                        (k == CXCursor_MacroDefinition || k == CXCursor_VarDecl)))
    return CXChildVisit_Continue;
  char *name = str(clang_getCursorSpelling(c));
  vec_push(&f->names, name);
  if (strcmp(name, f->name))
    return CXChildVisit_Continue;
  if (!f->found || clang_isCursorDefinition(c)) {
    f->best = c;
    f->found = true;
  }
  return CXChildVisit_Continue;
}

// The C declaration of `name` of kind `kind` (see Found) in units
// first..last-1 (the headers come first: 0..nheaders-1); for a function,
// its definition if one of them has it.
static bool find_c(const char *name, enum CXCursorKind kind, int first, int last, CXCursor *out,
                   Vec *names) {
  Found f = {.name = name, .kind = kind};
  for (int i = first; i < last && i < units.len; i++) {
    Unit *u = units.data[i];
    clang_visitChildren(clang_getTranslationUnitCursor(u->tu), find_visit, &f);
    if (f.found && (kind != CXCursor_FunctionDecl || clang_isCursorDefinition(f.best)))
      break;
  }
  if (names)
    *names = f.names;
  if (f.found)
    *out = f.best;
  return f.found;
}

static int nheaders;

// A note at the top of the first header: what it lacks.
static void header_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void header_note(const char *fmt, ...) {
  if (!nheaders)
    return;
  Unit *u = units.data[0];
  CXFile file = clang_getFile(u->tu, u->path);
  if (!file)
    return;
  Token *t = c_token(clang_getLocationForOffset(u->tu, file, 0), 1);
  if (!t)
    return;
  va_list ap;
  va_start(ap, fmt);
  note_at(t, "%s", vformat(fmt, ap));
  va_end(ap);
}

static void hint_closest(const char *name, Vec *names) {
  const char *best = closest_name(name, (const char *const *)names->data, names->len);
  if (best)
    hint("did you mean '%s'?", best);
}

//
// extern const
//

// The value of a macro `NAME INT` or `NAME (INT)` or `NAME (-INT)`.
static bool macro_value(CXCursor c, int64_t *val) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXToken *toks;
  unsigned n;
  clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
  Vec text = {0};
  for (unsigned i = 1; i < n; i++) // toks[0] is the name
    vec_push(&text, str(clang_getTokenSpelling(tu, toks[i])));
  clang_disposeTokens(tu, toks, n);
  int i = 0, close = 0;
  while (i < text.len && !strcmp(text.data[i], "("))
    i++, close++;
  bool neg = i < text.len && !strcmp(text.data[i], "-");
  if (neg)
    i++;
  if (i >= text.len || i + 1 + close != text.len)
    return false;
  for (int j = i + 1; j < text.len; j++)
    if (strcmp(text.data[j], ")"))
      return false;
  char *end;
  errno = 0;
  long long v = strtoll(text.data[i], &end, 0);
  while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
    end++;
  if (*end || errno)
    return false;
  *val = neg ? -v : v;
  return true;
}

static bool c_const_value(Decl *d, CXCursor c, int64_t *val) {
  switch (clang_getCursorKind(c)) {
  case CXCursor_EnumConstantDecl:
    *val = clang_getEnumConstantDeclValue(c);
    return true;
  case CXCursor_MacroDefinition:
    if (clang_Cursor_isMacroFunctionLike(c) || !macro_value(c, val)) {
      error_at(d->name, "the C macro '%s' is not an integer constant", token_text(d->name));
      c_note(c, "'%s' is defined here", token_text(d->name));
      return false;
    }
    return true;
  case CXCursor_VarDecl: {
    CXType t = clang_getCursorType(c);
    CXEvalResult r = clang_Cursor_Evaluate(c);
    bool ok = clang_isConstQualifiedType(t) && !clang_isVolatileQualifiedType(t) && r &&
              clang_EvalResult_getKind(r) == CXEval_Int;
    if (ok)
      *val = clang_EvalResult_getAsLongLong(r);
    if (r)
      clang_EvalResult_dispose(r);
    if (!ok) {
      error_at(d->name, "the C variable '%s' is not a const integer with a constant value",
               token_text(d->name));
      c_note(c, "'%s' is declared here", token_text(d->name));
    }
    return ok;
  }
  default:
    return false;
  }
}

static void load_const(Decl *d) {
  CXCursor c;
  Vec names;
  int64_t val = 0;
  if (!find_c(token_text(d->name), CXCursor_EnumConstantDecl, 0, units.len, &c, &names)) {
    error_at(d->name, "no C constant, enumerator or macro named '%s'", token_text(d->name));
    header_note("neither this header nor the sources define '%s'", token_text(d->name));
    hint_closest(token_text(d->name), &names);
  } else {
    c_const_value(d, c, &val);
  }
  Node *num = xcalloc(1, sizeof *num);
  num->kind = ND_NUM;
  num->tok = d->name;
  num->val = val;
  d->expr = num;
}

bool extern_load(Program *prog) {
  if (!uses_extern(prog))
    return true;
  cur_prog = prog;
  int errors = error_count();
  if (!prog->extern_files.len) {
    Token *at = prog->extern_types.len ? prog->extern_types.data[0] : NULL;
    for (int i = 0; !at && i < prog->decls.len; i++)
      if (((Decl *)prog->decls.data[i])->is_extern)
        at = ((Decl *)prog->decls.data[i])->name;
    error_at(at, "'extern' needs the C header that declares it");
    hint("name it first: extern \"file.h\" sources \"file.c\";");
    return false;
  }
  // Every file is vetted before this process parses any: vetting forks,
  // and a process in which libclang has run may hold its threads' locks.
  if (!bound_from_env("MCGEN_PARSE_SECONDS", &parse_seconds) |
      !bound_from_env("MCGEN_PARSE_MIB", &parse_mib))
    return false;
  bool vetted = true;
  for (int i = 0; i < prog->extern_files.len; i++) {
    ExternFile *f = prog->extern_files.data[i];
    vetted &= vet_c_file(spec_relative(prog, f->header->str), f->header) && nameable(prog, f);
    for (int j = 0; j < f->sources.len; j++) {
      Token *s = f->sources.data[j];
      vetted &= vet_c_file(spec_relative(prog, s->str), s);
    }
  }
  if (!vetted)
    return false;
  cx_index = clang_createIndex(0, 0);
  for (int i = 0; i < prog->extern_files.len; i++) {
    ExternFile *f = prog->extern_files.data[i];
    parse_unit(spec_relative(prog, f->header->str), f->header);
  }
  nheaders = units.len;
  for (int i = 0; i < prog->extern_files.len; i++) {
    ExternFile *f = prog->extern_files.data[i];
    for (int j = 0; j < f->sources.len; j++) {
      Token *s = f->sources.data[j];
      parse_unit(spec_relative(prog, s->str), s);
    }
  }
  if (error_count() != errors)
    return false;
  for (int i = 0; i < prog->decls.len; i++) {
    Decl *d = prog->decls.data[i];
    if (d->kind == DK_CONST && d->is_extern)
      load_const(d);
  }
  return error_count() == errors;
}

//
// Types: each C type holds every value of its spec type
//

static bool is_extern_type(const char *name) {
  for (int i = 0; name && i < cur_prog->extern_types.len; i++)
    if (!strcmp(((Token *)cur_prog->extern_types.data[i])->str, name))
      return true;
  return false;
}

// The range of a C integer type; false if it is not one.
static bool c_int_range(CXType t, __int128 *lo, __int128 *hi) {
  long long bytes = clang_Type_getSizeOf(t);
  bool is_unsigned;
  switch (t.kind) {
  case CXType_Char_U: case CXType_UChar: case CXType_UShort: case CXType_UInt:
  case CXType_ULong: case CXType_ULongLong:
    is_unsigned = true;
    break;
  case CXType_Char_S: case CXType_SChar: case CXType_Short: case CXType_Int:
  case CXType_Long: case CXType_LongLong:
    is_unsigned = false;
    break;
  default:
    return false;
  }
  if (bytes <= 0 || bytes > 8)
    return false;
  int bits = (int)bytes * 8;
  *lo = is_unsigned ? 0 : -((__int128)1 << (bits - 1));
  *hi = is_unsigned ? ((__int128)1 << bits) - 1 : ((__int128)1 << (bits - 1)) - 1;
  return true;
}

static char *c_type_name(CXType t) { return str(clang_getTypeSpelling(t)); }

// A C type as written with its leading `const` dropped (for temporaries).
static char *c_unqualified(CXType t) {
  char *s = c_type_name(t);
  while (!strncmp(s, "const ", 6))
    s += 6;
  return s;
}

typedef struct Want {
  Token *at;      // the spec's place for the error
  CXCursor where; // the C declaration for the note
  const char *what; // "parameter 'i'", "the result", "field 'x'"
} Want;

static bool compat(Type *mc, CXType c, Want *w, bool top_param);

// The number of values of an array's index type (layout has not run yet).
static int64_t index_card(Type *ty) {
  ty = resolve(ty);
  switch (ty->kind) {
  case TY_BOOL: return 2;
  case TY_RANGE: return ty->hi - ty->lo + 1;
  case TY_ENUM: return ty->members.len;
  case TY_SCALARSET: return ty->size;
  default: return 0;
  }
}

// Records and enums compared with their C type already (each is reported
// once).
static Vec records_done;

// True the first time `mc` is met (it is then recorded): an enum or record
// type is compared with its C counterpart once.
static bool first_check(Type *mc) {
  for (int i = 0; i < records_done.len; i++)
    if (records_done.data[i] == mc)
      return false;
  vec_push(&records_done, mc);
  return true;
}

static void mismatch(Want *w, CXType c, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void mismatch(Want *w, CXType c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = vformat(fmt, ap);
  va_end(ap);
  error_at(w->at, "%s: %s", w->what, msg);
  if (!strcmp(w->what, "the result"))
    c_note(w->where, "the C function returns '%s'", c_type_name(c));
  else
    c_note(w->where, "the C %s is '%s'", w->what, c_type_name(c));
}

typedef struct EnumCheck {
  Type *mc;
  Want *w;
  int n;
  bool ok;
} EnumCheck;

static enum CXChildVisitResult enum_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  EnumCheck *e = data;
  if (clang_getCursorKind(c) != CXCursor_EnumConstantDecl || !e->ok)
    return CXChildVisit_Continue;
  char *name = str(clang_getCursorSpelling(c));
  long long v = clang_getEnumConstantDeclValue(c);
  if (e->n >= e->mc->members.len) {
    error_at(e->w->at, "%s: the C enum has more enumerators than %s ('%s')", e->w->what,
             type_name(e->mc), name);
    c_note(c, "'%s' is declared here", name);
    e->ok = false;
  } else if (strcmp(name, token_text(e->mc->members.data[e->n])) || v != e->n) {
    error_at(e->w->at, "%s: enumerator %d of the C enum is '%s' = %lld, the spec's is '%s' = %d",
             e->w->what, e->n, name, v, token_text(e->mc->members.data[e->n]), e->n);
    c_note(c, "'%s' is declared here", name);
    e->ok = false;
  }
  e->n++;
  return CXChildVisit_Continue;
}

typedef struct FieldCheck {
  Type *mc;
  Want *w;
  int n;
  bool ok;
} FieldCheck;

static enum CXVisitorResult field_visit(CXCursor c, CXClientData data) {
  FieldCheck *f = data;
  if (!f->ok)
    return CXVisit_Break;
  char *name = str(clang_getCursorSpelling(c));
  if (f->n >= f->mc->nfields) {
    error_at(f->w->at, "%s: the C struct has a field '%s' that the record %s has not",
             f->w->what, name, f->mc->name);
    c_note(c, "'%s' is declared here", name);
    f->ok = false;
    return CXVisit_Break;
  }
  Field *mf = f->mc->fields[f->n];
  if (strcmp(name, token_text(mf->name))) {
    error_at(mf->name, "field %d of record %s is '%s', the C struct's is '%s'", f->n + 1,
             f->mc->name, token_text(mf->name), name);
    c_note(c, "'%s' is declared here", name);
    f->ok = false;
    return CXVisit_Break;
  }
  Want w = {mf->name, c, format("field '%s'", name)};
  if (!compat(mf->type, clang_getCursorType(c), &w, false))
    f->ok = false;
  f->n++;
  return CXVisit_Continue;
}

// The type of field i of a C struct type.
typedef struct FieldAt {
  int i, n;
  CXType type;
} FieldAt;

static enum CXVisitorResult field_at_visit(CXCursor c, CXClientData data) {
  FieldAt *f = data;
  if (f->n++ == f->i) {
    f->type = clang_getCursorType(c);
    return CXVisit_Break;
  }
  return CXVisit_Continue;
}

static CXType field_type(CXType c, int i) {
  FieldAt f = {i, 0, {CXType_Invalid, {0}}};
  clang_Type_visitFields(c, field_at_visit, &f);
  return f.type;
}

// The length N of a parameter declared `T name[N]` (0 if not written so).
static long long param_array_length(CXCursor c) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXToken *toks;
  unsigned n;
  clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
  long long len = 0;
  for (unsigned i = 0; i + 2 < n; i++) {
    char *a = str(clang_getTokenSpelling(tu, toks[i]));
    char *b = str(clang_getTokenSpelling(tu, toks[i + 2]));
    if (!strcmp(a, "[") && !strcmp(b, "]"))
      len = strtoll(str(clang_getTokenSpelling(tu, toks[i + 1])), NULL, 0);
  }
  clang_disposeTokens(tu, toks, n);
  return len;
}

// Whether C type c holds every value of spec type mc (and a value of c can
// come back, checked at run time for results). top_param: a function's
// parameter, where a record or array may be a const pointer.
static bool compat(Type *mc, CXType c0, Want *w, bool top_param) {
  mc = resolve(mc);
  CXType c = clang_getCanonicalType(c0);
  if (c.kind == CXType_Pointer) {
    CXType to = clang_getPointeeType(c);
    if (!top_param || (mc->kind != TY_RECORD && mc->kind != TY_ARRAY)) {
      mismatch(w, c0, "a C pointer cannot hold a value of %s", type_name(mc));
      return false;
    }
    if (!clang_isConstQualifiedType(to)) {
      mismatch(w, c0, "a mutable pointer would let C write into the state: make it "
                      "'const %s *'", c_type_name(to));
      return false;
    }
    if (mc->kind == TY_ARRAY && resolve(mc->index)->kind == TY_SCALARSET) {
      mismatch(w, c0, "an array indexed by a scalarset cannot cross to C (C code could "
                      "break its symmetry)");
      return false;
    }
    if (mc->kind == TY_ARRAY) {
      long long n = param_array_length(w->where);
      int64_t card = index_card(mc->index);
      if (n && n != card) {
        mismatch(w, c0, "the C array has %lld elements, %s has %lld", n, type_name(mc),
                 (long long)card);
        return false;
      }
      return compat(mc->base, to, w, false);
    }
    return compat(mc, to, w, false);
  }
  if (top_param && (c.kind == CXType_ConstantArray || c.kind == CXType_IncompleteArray) &&
      !clang_isConstQualifiedType(c) &&
      !clang_isConstQualifiedType(clang_getArrayElementType(c))) {
    // (a C array parameter is a pointer to its first element)
    mismatch(w, c0, "a mutable pointer would let C write into the state: make the elements "
                    "const");
    return false;
  }
  switch (mc->kind) {
  case TY_BOOL:
    if (c.kind != CXType_Bool) {
      mismatch(w, c0, "a spec bool needs a C bool (_Bool)");
      return false;
    }
    return true;
  case TY_RANGE: {
    __int128 lo, hi;
    if (!c_int_range(c, &lo, &hi)) {
      mismatch(w, c0, "%s needs a C integer type", type_name(mc));
      return false;
    }
    if (mc->lo < lo && lo == 0) {
      mismatch(w, c0, "the C type is unsigned and cannot hold the negative values of %s",
               type_name(mc));
      return false;
    }
    if (mc->lo < lo || mc->hi > hi) {
      mismatch(w, c0, "the C type (%lld..%llu) cannot hold every value of %s", (long long)lo,
               (unsigned long long)hi, type_name(mc));
      return false;
    }
    return true;
  }
  case TY_ENUM: {
    if (c.kind != CXType_Enum) {
      mismatch(w, c0, "%s needs a C enum with the same enumerators", type_name(mc));
      return false;
    }
    if (!first_check(mc))
      return true; // (its errors, if any, are reported)
    EnumCheck e = {mc, w, 0, true};
    CXCursor decl = clang_getTypeDeclaration(c);
    clang_visitChildren(decl, enum_visit, &e);
    if (e.ok && e.n < mc->members.len) {
      error_at(w->at, "%s: the C enum has no enumerator '%s'", w->what,
               token_text(mc->members.data[e.n]));
      c_note(decl, "the C enum is declared here");
      return false;
    }
    return e.ok;
  }
  case TY_RECORD: {
    if (c.kind != CXType_Record) {
      mismatch(w, c0, "record %s needs a C struct", type_name(mc));
      return false;
    }
    if (!is_extern_type(mc->name)) {
      error_at(w->at, "%s: record %s is passed to C: declare it 'extern type %s;'", w->what,
               mc->name ? mc->name : "(unnamed)", mc->name ? mc->name : "NAME");
      return false;
    }
    if (!first_check(mc))
      return true; // (its errors, if any, are reported)
    FieldCheck f = {mc, w, 0, true};
    clang_Type_visitFields(c, field_visit, &f);
    if (f.ok && f.n < mc->nfields) {
      error_at(mc->fields[f.n]->name, "the C struct has no field '%s'",
               token_text(mc->fields[f.n]->name));
      c_note(clang_getTypeDeclaration(c), "the C struct is declared here");
      return false;
    }
    return f.ok;
  }
  case TY_ARRAY: {
    if (resolve(mc->index)->kind == TY_SCALARSET) {
      mismatch(w, c0, "an array indexed by a scalarset cannot cross to C (C code could "
                      "break its symmetry)");
      return false;
    }
    if (c.kind != CXType_ConstantArray) {
      mismatch(w, c0, "%s needs a C array", type_name(mc));
      return false;
    }
    int64_t card = index_card(mc->index);
    if (clang_getArraySize(c) != card) {
      mismatch(w, c0, "the C array has %lld elements, %s has %lld",
               (long long)clang_getArraySize(c), type_name(mc), (long long)card);
      return false;
    }
    return compat(mc->base, clang_getArrayElementType(c), w, false);
  }
  case TY_SCALARSET:
    mismatch(w, c0, "a scalarset cannot cross to C (C code could break its symmetry)");
    return false;
  default:
    mismatch(w, c0, "%s cannot be passed to or from C", type_name(mc));
    return false;
  }
}

//
// Determinism: what a function of a spec and its callees may do
//

// Functions without a body that mcgen accepts: pure, documented in
// docs/LANGUAGE.md.
static const char *const allowed[] = {
    "memcpy", "memmove", "memcmp", "memset", "strlen", "strcmp", "strncmp", "abs", "labs",
    "llabs",
};

typedef struct Denied {
  const char *name; // a name, or a prefix ending in '*'
  const char *why;
} Denied;

static const Denied denied[] = {
    {"printf", "I/O"}, {"fprintf", "I/O"}, {"sprintf", "I/O"}, {"snprintf", "I/O"},
    {"puts", "I/O"}, {"fputs", "I/O"}, {"putchar", "I/O"}, {"fputc", "I/O"}, {"putc", "I/O"},
    {"getchar", "I/O"}, {"fgets", "I/O"}, {"fgetc", "I/O"}, {"scanf", "I/O"}, {"fscanf", "I/O"},
    {"fopen", "I/O"}, {"fclose", "I/O"}, {"fread", "I/O"}, {"fwrite", "I/O"}, {"read", "I/O"},
    {"write", "I/O"}, {"open", "I/O"}, {"close", "I/O"}, {"perror", "I/O"},
    {"time", "the clock"}, {"clock", "the clock"}, {"clock_gettime", "the clock"},
    {"gettimeofday", "the clock"}, {"timespec_get", "the clock"},
    {"__builtin_ia32_rdtsc", "the time-stamp counter"},
    {"__builtin_ia32_rdtscp", "the time-stamp counter"}, {"__rdtsc", "the time-stamp counter"},
    {"__rdtscp", "the time-stamp counter"}, {"__builtin_readcyclecounter", "the cycle counter"},
    {"rand", "random numbers"}, {"srand", "random numbers"}, {"random", "random numbers"},
    {"drand48", "random numbers"}, {"lrand48", "random numbers"}, {"getrandom", "random numbers"},
    {"__builtin_ia32_rdrand*", "random numbers"}, {"__builtin_ia32_rdseed*", "random numbers"},
    {"_rdrand*", "random numbers"}, {"_rdseed*", "random numbers"},
    {"malloc", "allocation"}, {"calloc", "allocation"}, {"realloc", "allocation"},
    {"free", "allocation"}, {"aligned_alloc", "allocation"},
    {"pthread_*", "threads"}, {"thrd_*", "threads"}, {"mtx_*", "threads"}, {"cnd_*", "threads"},
    {"exit", "exiting"}, {"abort", "exiting"}, {"getenv", "the environment"},
    {"setjmp", "non-local jumps"}, {"_setjmp", "non-local jumps"},
    {"sigsetjmp", "non-local jumps"}, {"__sigsetjmp", "non-local jumps"},
    {"longjmp", "non-local jumps"}, {"_longjmp", "non-local jumps"},
    {"siglongjmp", "non-local jumps"},
    {"__errno_location", "errno, the C library's error number"},
};

// The entry of `denied` that names a function, or NULL.
static const Denied *denied_entry(const char *name) {
  for (size_t i = 0; i < sizeof denied / sizeof *denied; i++) {
    const char *p = denied[i].name;
    size_t n = strlen(p);
    if (p[n - 1] == '*' ? !strncmp(name, p, n - 1) : !strcmp(name, p))
      return &denied[i];
  }
  return NULL;
}

typedef struct Walker {
  Decl *d;         // the extern fn
  Vec chain;       // char*: names from d's C function to the current one
  Vec cursors;     // CXCursor* definitions on the chain
  Vec seen;        // char*: functions already walked
  Vec volatile_in; // char*: functions whose volatile access is reported (once each)
  bool failed;
} Walker;

static char *chain_text(Walker *wk, const char *last) {
  Buf b = {0};
  for (int i = 0; i < wk->chain.len; i++)
    buf_printf(&b, "%s%s", i ? " -> " : "", (char *)wk->chain.data[i]);
  if (last)
    buf_printf(&b, " -> %s", last);
  return b.data;
}

// One violation: an error (a warning for a `trusted` fn) at the spec's
// extern fn naming the chain of calls, and a note at the C.
static void violation(Walker *wk, CXCursor at, bool bad_input, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void violation(Walker *wk, CXCursor at, bool bad_input, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = vformat(fmt, ap);
  va_end(ap);
  const char *name = token_text(wk->d->name);
  if (wk->d->trusted) {
    warning_at(wk->d->name, "extern fn '%s' (trusted): %s: %s", name, chain_text(wk, NULL), msg);
  } else {
    error_at(wk->d->name, "extern fn '%s' is not deterministic: %s: %s", name,
             chain_text(wk, NULL), msg);
    wk->failed = true;
    input_bad |= bad_input;
  }
  Token *t = c_token(clang_getCursorLocation(at), 1);
  if (t)
    note_at(t, "%s", msg);
  if (!wk->d->trusted && !bad_input)
    hint("if the C is right anyway, write 'extern fn %s(...): T trusted;'", name);
}

static void walk_fn(Walker *wk, CXCursor def);

static enum CXChildVisitResult find_asm_label(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_AsmLabelAttr)
    return CXChildVisit_Continue;
  *(bool *)data = true;
  return CXChildVisit_Break;
}

// Whether a declaration outside the system headers gives its symbol
// another name (`int f(int) __asm__("g");`): what is linked is then not
// what the C shows.
static bool has_asm_label(CXCursor decl) {
  CXCursor decls[] = {decl, clang_getCanonicalCursor(decl), clang_getCursorDefinition(decl)};
  bool found = false;
  for (size_t i = 0; i < sizeof decls / sizeof *decls && !found; i++)
    if (!clang_Cursor_isNull(decls[i]) &&
        !clang_Location_isInSystemHeader(clang_getCursorLocation(decls[i])))
      clang_visitChildren(decls[i], find_asm_label, &found);
  return found;
}

static void check_call(Walker *wk, CXCursor call) {
  CXCursor callee = clang_getCursorReferenced(call);
  if (clang_Cursor_isNull(callee) || clang_getCursorKind(callee) != CXCursor_FunctionDecl) {
    violation(wk, call, true, "a call through a function pointer (mcgen cannot see what it calls)");
    return;
  }
  char *name = str(clang_getCursorSpelling(callee));
  for (int i = 0; i < wk->chain.len; i++)
    if (!strcmp(wk->chain.data[i], name)) {
      violation(wk, call, false, "recursion: %s", chain_text(wk, name));
      return;
    }
  const Denied *d = denied_entry(name);
  if (d) {
    violation(wk, call, false, "calls '%s' (%s)", name, d->why);
    return;
  }
  if (has_asm_label(callee)) {
    violation(wk, call, false, "calls '%s', whose symbol an asm label renames (mcgen cannot see "
                               "what is called)", name);
    return;
  }
  CXCursor def;
  if (find_c(name, CXCursor_FunctionDecl, 0, units.len, &def, NULL) &&
      clang_isCursorDefinition(def)) {
    if (!has_text((const char *const *)wk->seen.data, (size_t)wk->seen.len, name)) {
      vec_push(&wk->seen, name);
      vec_push(&wk->chain, name);
      walk_fn(wk, def);
      wk->chain.len--;
    }
    return;
  }
  if (has_text(allowed, sizeof allowed / sizeof *allowed, name))
    return;
  violation(wk, call, false, "calls '%s', whose body mcgen cannot see (not in the sources, "
                             "not on the allow-list)", name);
}

// What lets C change what a static object holds or reaches, as a phrase
// ("is not const", "holds a pointer to data that is not const"); NULL when
// its type is const all the way down: every element and field, and what
// every pointer in it points to, so that nothing read out of it can write
// static storage. `outer`: an enclosing array or struct is const. A struct
// met again through a pointer (a list) is taken as const there: its other
// parts are judged where it is first met.
typedef struct ConstWalk {
  Vec records; // CXCursor*: the struct declarations being judged
  const char *why;
  bool outer;
} ConstWalk;

static const char *mutable_part(ConstWalk *cw, CXType t, bool outer);

static enum CXVisitorResult mutable_field(CXCursor c, CXClientData data) {
  ConstWalk *cw = data;
  cw->why = mutable_part(cw, clang_getCursorType(c), cw->outer);
  return cw->why ? CXVisit_Break : CXVisit_Continue;
}

static const char *mutable_record(ConstWalk *cw, CXType t, bool c) {
  CXCursor decl = clang_getTypeDeclaration(t);
  for (int i = 0; i < cw->records.len; i++)
    if (clang_equalCursors(*(CXCursor *)cw->records.data[i], decl))
      return NULL;
  CXCursor *held = xcalloc(1, sizeof *held);
  *held = decl;
  vec_push(&cw->records, held);
  bool outer = cw->outer;
  cw->outer = c, cw->why = NULL;
  clang_Type_visitFields(t, mutable_field, cw);
  cw->outer = outer;
  cw->records.len--;
  return cw->why;
}

static const char *mutable_part(ConstWalk *cw, CXType t, bool outer) {
  t = clang_getCanonicalType(t);
  bool c = outer || clang_isConstQualifiedType(t);
  switch (t.kind) {
  case CXType_ConstantArray:
  case CXType_IncompleteArray:
  case CXType_VariableArray:
    return mutable_part(cw, clang_getArrayElementType(t), c);
  case CXType_Pointer: {
    CXType to = clang_getCanonicalType(clang_getPointeeType(t));
    if (!c)
      return "is not const";
    // A function's code does not change (a call through the pointer is
    // refused on its own).
    if (to.kind == CXType_FunctionProto || to.kind == CXType_FunctionNoProto)
      return NULL;
    return mutable_part(cw, to, false) ? "holds a pointer to data that is not const" : NULL;
  }
  case CXType_Record: {
    const char *why = mutable_record(cw, t, c);
    return why && !c ? "is not const" : why;
  }
  default:
    return c ? NULL : "is not const";
  }
}

static const char *mutable_why(CXType t) {
  ConstWalk cw = {0};
  return mutable_part(&cw, t, false);
}

static bool is_static_storage(CXCursor var) {
  enum CXCursorKind pk = clang_getCursorKind(clang_getCursorSemanticParent(var));
  return pk == CXCursor_TranslationUnit || clang_Cursor_getStorageClass(var) == CX_SC_Static ||
         clang_Cursor_getStorageClass(var) == CX_SC_Extern;
}

// The first token of a cursor, or "".
static char *first_token(CXCursor c) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXToken *toks;
  unsigned n;
  clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
  char *t = n ? str(clang_getTokenSpelling(tu, toks[0])) : "";
  clang_disposeTokens(tu, toks, n);
  return t;
}

// Whether `ref` (a use of a variable) is written by its parent: the left
// operand of `=` or of a compound assignment, the operand of ++ or --.
static bool is_written(CXCursor ref, CXCursor parent) {
  enum CXCursorKind pk = clang_getCursorKind(parent);
  if (pk != CXCursor_BinaryOperator && pk != CXCursor_CompoundAssignOperator &&
      pk != CXCursor_UnaryOperator)
    return false;
  unsigned ref_start, ref_end, parent_start, off;
  clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(ref)), NULL, NULL, NULL,
                            &ref_start);
  clang_getSpellingLocation(clang_getRangeEnd(clang_getCursorExtent(ref)), NULL, NULL, NULL,
                            &ref_end);
  clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(parent)), NULL, NULL, NULL,
                            &parent_start);
  if (pk == CXCursor_CompoundAssignOperator)
    return ref_start == parent_start;
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(parent);
  CXToken *toks;
  unsigned n;
  clang_tokenize(tu, clang_getCursorExtent(parent), &toks, &n);
  bool written = false;
  for (unsigned i = 0; i < n; i++) {
    char *t = str(clang_getTokenSpelling(tu, toks[i]));
    clang_getSpellingLocation(clang_getTokenLocation(tu, toks[i]), NULL, NULL, NULL, &off);
    if (pk == CXCursor_UnaryOperator) {
      written |= !strcmp(t, "++") || !strcmp(t, "--");
    } else if (off >= ref_end) { // the operator after the left operand
      written = ref_start == parent_start && !strcmp(t, "=");
      break;
    }
  }
  clang_disposeTokens(tu, toks, n);
  return written;
}

// A use of a variable of static storage (global, static, extern,
// thread-local): writes, a volatile one, and reads of one that is not const
// all the way down (mutable_why) are refused, and so is taking its address
// (C could write through it).
static void check_static_use(Walker *wk, CXCursor ref, CXCursor parent, CXCursor var) {
  CXType t = clang_getCursorType(var);
  char *name = str(clang_getCursorSpelling(var));
  const char *kind =
      clang_getCursorTLSKind(var) != CXTLS_None ? "thread-local variable" : "global variable";
  const char *why = mutable_why(t);
  if (has_asm_label(var))
    violation(wk, ref, false, "uses '%s', whose symbol an asm label renames (mcgen cannot see "
                              "what it is)", name);
  else if (clang_isVolatileQualifiedType(clang_getCanonicalType(t)))
    violation(wk, ref, false, "%s volatile variable '%s'", is_written(ref, parent) ? "writes"
                                                                                 : "reads", name);
  else if (is_written(ref, parent))
    violation(wk, ref, false, "writes %s '%s'", kind, name);
  else if (why && clang_getCursorKind(parent) == CXCursor_UnaryOperator &&
           !strcmp(first_token(parent), "&"))
    violation(wk, ref, false, "takes the address of %s '%s', which %s (C could write through "
                              "it)", kind, name, why);
  else if (why && !strcmp(why, "is not const"))
    violation(wk, ref, false, "reads non-const %s '%s'", kind, name);
  else if (why)
    violation(wk, ref, false, "reads %s '%s', which %s (C could write through it)", kind, name,
              why);
}

static bool is_expression(enum CXCursorKind k) {
  return k >= CXCursor_FirstExpr && k <= CXCursor_LastExpr;
}

// The operands of an expression (its children that are expressions, not
// the type a cast names): how many, and the first.
typedef struct Operands {
  int n;
  CXCursor first;
} Operands;

static enum CXChildVisitResult count_operand(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  Operands *o = data;
  if (is_expression(clang_getCursorKind(c)) && o->n++ == 0)
    o->first = c;
  return CXChildVisit_Continue;
}

// A conversion of a pointer (a cast, or implicit: clang shows it as an
// unexposed expression of one operand) that drops `const` somewhere along
// the pointers (C could then write data meant to stay constant, a static
// table among them) or adds `volatile`: what it is, or NULL.
static const char *pointer_conversion(CXCursor c) {
  Operands o = {0};
  clang_visitChildren(c, count_operand, &o);
  if (o.n != 1)
    return NULL;
  CXType to = clang_getCanonicalType(clang_getCursorType(c));
  CXType from = clang_getCanonicalType(clang_getCursorType(o.first));
  while (to.kind == CXType_Pointer) {
    CXType tp = clang_getCanonicalType(clang_getPointeeType(to));
    CXType fp;
    if (from.kind == CXType_Pointer)
      fp = clang_getPointeeType(from);
    else if (from.kind == CXType_ConstantArray || from.kind == CXType_IncompleteArray)
      fp = clang_getArrayElementType(from);
    else
      return NULL;
    fp = clang_getCanonicalType(fp);
    if (clang_isConstQualifiedType(fp) && !clang_isConstQualifiedType(tp))
      return "converts a pointer to const data into one to data that is not const (C could "
             "write data meant to stay constant)";
    if (clang_isVolatileQualifiedType(tp) && !clang_isVolatileQualifiedType(fp))
      return "makes a pointer to volatile data";
    to = tp, from = fp;
  }
  return NULL;
}

// A volatile access (an expression of volatile type, a pointer made to
// volatile data; a static volatile variable is reported as such), once
// per function: the first is enough to fix.
static void check_volatile(Walker *wk, CXCursor c, const char *what) {
  const char *fn = wk->chain.data[wk->chain.len - 1];
  if (has_text((const char *const *)wk->volatile_in.data, (size_t)wk->volatile_in.len, fn))
    return;
  vec_push(&wk->volatile_in, (void *)fn);
  violation(wk, c, false, "%s (what changes it from outside the program: mcgen cannot tell what "
                          "it reads)", what);
}

static enum CXChildVisitResult body_visit(CXCursor c, CXCursor parent, CXClientData data) {
  Walker *wk = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  switch (k) {
  case CXCursor_CallExpr:
    check_call(wk, c);
    break;
  case CXCursor_GCCAsmStmt:
  case CXCursor_MSAsmStmt:
    violation(wk, c, false, "inline assembly (mcgen cannot see what it reads or writes)");
    return CXChildVisit_Continue;
  case CXCursor_VarDecl:
    if (clang_Cursor_getStorageClass(c) == CX_SC_Static) {
      const char *why = mutable_why(clang_getCursorType(c));
      char *name = str(clang_getCursorSpelling(c));
      if (why && !strcmp(why, "is not const"))
        violation(wk, c, false, "static local variable '%s' keeps state between calls", name);
      else if (why)
        violation(wk, c, false, "static local variable '%s' %s (C could write through it)", name,
                  why);
    }
    break;
  case CXCursor_DeclRefExpr: {
    CXCursor var = clang_getCursorReferenced(c);
    if (clang_getCursorKind(var) != CXCursor_VarDecl || !is_static_storage(var))
      break;
    // A static local is reported where it is declared.
    if (clang_getCursorKind(clang_getCursorSemanticParent(var)) != CXCursor_FunctionDecl ||
        clang_Cursor_getStorageClass(var) != CX_SC_Static)
      check_static_use(wk, c, parent, var);
    return CXChildVisit_Recurse;
  }
  case CXCursor_CStyleCastExpr:
  case CXCursor_UnexposedExpr: {
    const char *what = pointer_conversion(c);
    if (what && strstr(what, "volatile"))
      check_volatile(wk, c, what);
    else if (what)
      violation(wk, c, false, "%s", what);
    break;
  }
  default:
    break;
  }
  if (is_expression(k) && clang_isVolatileQualifiedType(clang_getCursorType(c)))
    check_volatile(wk, c, "accesses volatile data");
  return CXChildVisit_Recurse;
}

static void walk_fn(Walker *wk, CXCursor def) {
  clang_visitChildren(def, body_visit, wk);
}

//
// extern fn and extern type
//

static void check_fn(Decl *d) {
  const char *name = token_text(d->name);
  CXCursor c, def;
  Vec names;
  if (!find_c(name, CXCursor_FunctionDecl, 0, nheaders, &c, &names)) {
    if (find_c(name, CXCursor_FunctionDecl, nheaders, units.len, &def, NULL)) {
      error_at(d->name, "the C function '%s' is not declared in the header", name);
      c_note(def, "'%s' is defined here", name);
    } else {
      error_at(d->name, "no C function '%s' in the header", name);
      header_note("the header declares no function '%s'", name);
      hint_closest(name, &names);
    }
    return;
  }
  CXType ft = clang_getCursorType(c);
  int nargs = clang_Cursor_getNumArguments(c);
  if (ft.kind != CXType_FunctionProto || clang_isFunctionTypeVariadic(ft)) {
    error_at(d->name, "the C function '%s' must have a prototype and a fixed number of "
                      "parameters", name);
    c_note(c, "'%s' is declared here", name);
    return;
  }
  if (nargs != d->params.len) {
    error_at(d->name, "extern fn '%s' has %d parameter%s, the C function has %d", name,
             d->params.len, d->params.len == 1 ? "" : "s", nargs);
    c_note(c, "'%s' is declared here", name);
    return;
  }
  bool ok = true;
  for (int i = 0; i < nargs; i++) {
    Binder *b = d->params.data[i];
    CXCursor arg = clang_Cursor_getArgument(c, (unsigned)i);
    Want w = {b->name, arg, format("parameter '%s'", token_text(b->name))};
    if (b->type)
      ok &= compat(b->type, clang_getCursorType(arg), &w, true);
  }
  Want w = {d->type->tok ? d->type->tok : d->name, c, "the result"};
  Type *rt = resolve(d->type);
  if (rt->kind == TY_ARRAY) {
    error_at(w.at, "extern fn '%s': a C function cannot return an array: wrap it in a struct "
                   "(a record of the spec)", name);
    ok = false;
  } else {
    ok &= compat(d->type, clang_getResultType(ft), &w, false);
  }
  if (!ok)
    return;
  // Determinism, on the definition.
  if (!find_c(name, CXCursor_FunctionDecl, 0, units.len, &def, NULL) ||
      !clang_isCursorDefinition(def)) {
    Walker wk = {.d = d};
    vec_push(&wk.chain, (void *)name);
    violation(&wk, c, false, "its body is in none of the sources, so mcgen cannot check it");
    return;
  }
  Walker wk = {.d = d};
  vec_push(&wk.chain, (void *)name);
  vec_push(&wk.seen, (void *)name);
  walk_fn(&wk, def);
}

// `extern type NAME;`: the spec's record NAME is C's struct NAME (a tag or
// a typedef).
static void check_type(Token *name) {
  Type *mc = NULL;
  for (int i = 0; i < cur_prog->decls.len; i++) {
    Decl *d = cur_prog->decls.data[i];
    if (d->kind == DK_TYPE && !strcmp(token_text(d->name), name->str))
      mc = resolve(d->type);
  }
  if (!mc || mc->kind != TY_RECORD) {
    error_at(name, "extern type '%s' needs a record type '%s' in the spec", name->str, name->str);
    hint("write 'type %s = record { ... };' with the fields of the C struct", name->str);
    return;
  }
  CXCursor c;
  Vec names;
  if (!find_c(name->str, CXCursor_StructDecl, 0, nheaders, &c, &names)) {
    error_at(name, "no C struct '%s' in the header", name->str);
    header_note("the header declares no struct '%s'", name->str);
    hint_closest(name->str, &names);
    return;
  }
  Want w = {name, c, format("extern type '%s'", name->str)};
  compat(mc, clang_getCursorType(c), &w, false);
}

bool extern_check(Program *prog) {
  if (!uses_extern(prog))
    return true;
  int errors = error_count();
  for (int i = 0; i < prog->extern_types.len; i++)
    check_type(prog->extern_types.data[i]);
  for (int i = 0; i < prog->decls.len; i++) {
    Decl *d = prog->decls.data[i];
    if (d->kind == DK_FN && d->is_extern)
      check_fn(d);
  }
  return error_count() == errors;
}

//
// The wrapper of an extern fn
//

static int64_t width_of(Type *ty) {
  ty = resolve(ty);
  layout_of(ty, ty->tok);
  return ty->width;
}

// `dst = ` the value at bit offset `off` of `base` (spec type mc), field
// by field and element by element for records and arrays (the C struct has
// the record's field names, checked).
static void unpack(Buf *b, int depth, Type *mc, const char *dst, const char *base,
                   const char *off) {
  mc = resolve(mc);
  int64_t w = width_of(mc);
  const char *get = w <= 56 ? "mcrt_get" : "mcrt_get_wide";
  switch (mc->kind) {
  case TY_RECORD:
    for (int i = 0; i < mc->nfields; i++) {
      Field *f = mc->fields[i];
      unpack(b, depth, f->type, format("%s.%s", dst, token_text(f->name)), base,
             format("%s + %lld", off, (long long)f->offset));
    }
    return;
  case TY_ARRAY: {
    int64_t n = index_card(mc->index), ew = width_of(mc->base);
    buf_printf(b, "  for (int64_t mc_k%d = 0; mc_k%d < %lld; mc_k%d++) {\n", depth, depth, (long long)n,
               depth);
    unpack(b, depth + 1, mc->base, format("%s[mc_k%d]", dst, depth), base,
           format("%s + (uint64_t)mc_k%d * %lld", off, depth, (long long)ew));
    buf_puts(b, "  }\n");
    return;
  }
  case TY_RANGE:
    buf_printf(b, "  %s = (int64_t)(%s(%s, %s, %lld) + (uint64_t)INT64_C(%lld));\n", dst, get,
               base, off, (long long)w, (long long)mc->lo);
    return;
  default: // bool, enum: the encoding is the value
    buf_printf(b, "  %s = %s(%s, %s, %lld);\n", dst, get, base, off, (long long)w);
    return;
  }
}

// Checks a value `v` of C type c (canonical) that becomes a value of spec
// scalar type mt: only the bounds the C type can exceed. `what` names the
// place (" in field seq"); `fail` leaves the wrapper.
static void check_result(Buf *b, Decl *fn, Type *mt, CXType c, const char *v, const char *what,
                         const char *fail) {
  __int128 clo = 0, chi = 1;
  int64_t lo = 0, hi = 1;
  if (mt->kind == TY_RANGE) {
    c_int_range(c, &clo, &chi);
    lo = mt->lo, hi = mt->hi;
  } else if (mt->kind == TY_ENUM) {
    CXCursor decl = clang_getTypeDeclaration(c);
    c_int_range(clang_getCanonicalType(clang_getEnumDeclIntegerType(decl)), &clo, &chi);
    hi = mt->members.len - 1;
  }
  const char *rv = mt->kind == TY_ENUM ? format("(int64_t)%s", v) : v;
  Buf cond = {0};
  if (clo < lo)
    buf_printf(&cond, "%s < INT64_C(%lld)", rv, (long long)lo);
  if (chi > hi)
    buf_printf(&cond, "%s%s > INT64_C(%lld)", cond.data ? " || " : "", rv, (long long)hi);
  if (!cond.data)
    return;
  bool is_unsigned = clo == 0;
  buf_printf(b, "  if (%s) {\n", cond.data);
  buf_printf(b,
             "    mcrt_runtime_error(ctx, mc_file, %d, %d, \"extern fn %s returned %%%s%s, "
             "outside %s\", %s%s);\n",
             fn->name->line, fn->name->col, token_text(fn->name), is_unsigned ? "llu" : "lld",
             c_escape(what), c_escape(type_name(mt)),
             is_unsigned ? "(unsigned long long)" : "(long long)", v);
  buf_printf(b, "    %s\n  }\n", fail);
}

// Writes the C value `v` (C type c, canonical) of spec type mc at bit offset
// `off` of ret, each scalar checked against its spec type; records field by
// field, arrays element by element.
static void pack(Buf *b, int depth, Decl *fn, Type *mc, CXType c, const char *v, const char *off,
                 const char *fail) {
  mc = resolve(mc);
  c = clang_getCanonicalType(c);
  int64_t w = width_of(mc);
  switch (mc->kind) {
  case TY_RECORD: {
    for (int i = 0; i < mc->nfields; i++) {
      Field *f = mc->fields[i];
      const char *fname = token_text(f->name);
      CXType fc = field_type(c, i); // (extern_check matched the fields in order)
      pack(b, depth, fn, f->type, fc, format("%s.%s", v, fname),
           format("%s + %lld", off, (long long)f->offset), fail);
    }
    return;
  }
  case TY_ARRAY: {
    int64_t n = index_card(mc->index), ew = width_of(mc->base);
    buf_printf(b, "  for (int64_t mc_k%d = 0; mc_k%d < %lld; mc_k%d++) {\n", depth, depth,
               (long long)n, depth);
    pack(b, depth + 1, fn, mc->base, clang_getArrayElementType(c),
         format("%s[mc_k%d]", v, depth), format("%s + (uint64_t)mc_k%d * %lld", off, depth,
                                                (long long)ew), fail);
    buf_puts(b, "  }\n");
    return;
  }
  default: {
    char *what = format(" in %s", v + 5); // after "mc_r."
    check_result(b, fn, mc, c, v, what, fail);
    const char *set = w <= 56 ? "mcrt_set" : "mcrt_set_wide";
    if (mc->kind == TY_RANGE)
      buf_printf(b, "  %s(ret, %s, %lld, (uint64_t)((int64_t)%s - INT64_C(%lld)));\n", set, off,
                 (long long)w, v, (long long)mc->lo);
    else
      buf_printf(b, "  %s(ret, %s, %lld, (uint64_t)%s);\n", set, off, (long long)w, v);
    return;
  }
  }
}

// The index of an `extern fn` among them, in declaration order (emit.c's
// table mc_externs).
static int extern_fn_index(Decl *fn) {
  int k = 0;
  for (int i = 0; i < cur_prog->decls.len && cur_prog->decls.data[i] != fn; i++)
    k += ((Decl *)cur_prog->decls.data[i])->kind == DK_FN &&
         ((Decl *)cur_prog->decls.data[i])->is_extern;
  return k;
}

// The call of the C function, through the runtime's watchdog (mcrt.h,
// McrtExternCall): the arguments as the runtime prints them, a jump buffer
// to come back to when the call is abandoned (it ran past --extern-timeout,
// or a signal came), then the call between begin and end.
static void watched_call(Buf *body, Decl *fn, const char *call, CXType rt, const char *fail) {
  Buf values = {0}, packed = {0};
  for (int i = 0; i < fn->params.len; i++) {
    Type *ty = resolve(((Binder *)fn->params.data[i])->type);
    bool is_packed = ty->kind == TY_RECORD || ty->kind == TY_ARRAY;
    buf_printf(&values, "%s%s", i ? ", " : "", is_packed ? "0" : format("mc_a%d", i));
    buf_printf(&packed, "%s%s", i ? ", " : "", is_packed ? format("mc_a%d", i) : "NULL");
  }
  buf_printf(body, "  const int64_t mc_v[] = {%s};\n", values.data ? values.data : "0");
  buf_printf(body, "  const uint8_t *const mc_p[] = {%s};\n", packed.data ? packed.data : "NULL");
  buf_printf(body, "  McrtExternCall mc_call = {.fn = &mc_externs[%d], .values = mc_v, "
                   ".packed = mc_p};\n", extern_fn_index(fn));
  buf_printf(body, "  if (setjmp(mc_call.jump)) { /* abandoned: too long, or a signal */\n"
                   "    mcrt_extern_abandoned(ctx, &mc_call);\n    %s\n  }\n", fail);
  buf_puts(body, "  mcrt_extern_begin(&mc_call);\n");
  buf_printf(body, "  %s mc_r = %s;\n", c_unqualified(rt), call);
  buf_puts(body, "  mcrt_extern_end(&mc_call);\n");
}

void emit_extern_fn(Buf *protos, Buf *out, Decl *fn) {
  const char *name = token_text(fn->name);
  CXCursor c;
  if (!find_c(name, CXCursor_FunctionDecl, 0, nheaders, &c, NULL))
    unreachable(); // extern_check found it
  Buf sig = {0}, body = {0}, call = {0};
  bool composite = resolve(fn->type)->kind == TY_RECORD;
  buf_printf(&sig, "static %s f_%s(McrtCtx *ctx, const uint8_t *s%s", composite ? "void" : "int64_t",
             name, composite ? ", uint8_t *ret" : "");
  buf_printf(&call, "%s(", name);
  for (int i = 0; i < fn->params.len; i++) {
    Binder *b = fn->params.data[i];
    Type *ty = resolve(b->type);
    CXType ct = clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(c, (unsigned)i)));
    if (ty->kind == TY_RECORD || ty->kind == TY_ARRAY) {
      buf_printf(&sig, ", const uint8_t *mc_a%d", i);
      bool by_pointer = ct.kind == CXType_Pointer;
      CXType held = by_pointer ? clang_getPointeeType(ct) : ct;
      if (ty->kind == TY_ARRAY)
        buf_printf(&body, "  %s mc_c%d[%lld];\n",
                   c_unqualified(by_pointer ? held : clang_getArrayElementType(ct)), i,
                   (long long)resolve(ty->index)->card);
      else
        buf_printf(&body, "  %s mc_c%d;\n", c_unqualified(held), i);
      unpack(&body, 0, ty, format("mc_c%d", i), format("mc_a%d", i), "0");
      buf_printf(&call, "%s%s%s", i ? ", " : "", by_pointer && ty->kind == TY_RECORD ? "&" : "",
                 format("mc_c%d", i));
    } else {
      buf_printf(&sig, ", int64_t mc_a%d", i);
      buf_printf(&call, "%s(%s)mc_a%d", i ? ", " : "", c_type_name(ct), i);
    }
  }
  buf_puts(&sig, ")");
  buf_puts(&call, ")");
  CXType rt = clang_getCanonicalType(clang_getResultType(clang_getCursorType(c)));
  Type *mt = resolve(fn->type);
  watched_call(&body, fn, call.data, rt, composite ? "return;" : "return 0;");
  if (mt->kind == TY_RECORD) {
    pack(&body, 0, fn, mt, rt, "mc_r", "0", "return;");
  } else {
    check_result(&body, fn, mt, rt, "mc_r", "", "return 0;");
    buf_puts(&body, "  return (int64_t)mc_r;\n");
  }
  buf_printf(protos, "%s;\n", sig.data);
  buf_printf(out, "/* extern fn %s at %s:%d: the C function, watched, its result checked */\n"
                  "%s {\n", name, c_comment_escape(fn->tok->file->name), fn->tok->line, sig.data);
  buf_puts(out, "  (void)ctx, (void)s;\n");
  buf_puts(out, body.data);
  buf_puts(out, "}\n\n");
}

#endif
