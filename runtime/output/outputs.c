// SPDX-License-Identifier: MIT
// outputs.c: the files a run writes (--report, --graph, --dot, --tests),
// settled before the search, so that no search is spent on outputs that
// cannot be written. No two of them may be one file, nor one of them and
// the checkpoint (its file, the temporary file it is written to, --disk's
// directory), nor the regular file the standard output or error goes to:
// each writer has its own offset, so each would overwrite the other (a
// report over a graph is invalid JSON, a report over the summary cuts it).
// Files are compared by device and inode, and a file that does not exist
// yet by its directory's and its name. A device, a pipe or a terminal is
// shared on purpose (/dev/null, /dev/stdout into a pipe) and never refused.
// Then each must open for writing; the test opens it to append, which
// changes no file that exists, and removes those it created when another
// fails. An output that fails later (a full disk, an export refused) is
// discarded: closed and, when it is a regular file, removed, so that no
// half-written file is left to be read as a whole one (a device such as
// /dev/full is never removed).
#include "output/output.h"

#include <errno.h>
#include <limits.h>
#include <sys/stat.h>

// A file's identity: the file's device and inode when it exists, else its
// directory's and its last component.
typedef struct FileId {
  bool known; // false: a device, a pipe, or no directory to find it in
  bool exists;
  dev_t dev;
  ino_t ino;
  char name[NAME_MAX + 1]; // (exists false) the last component
} FileId;

static FileId stat_id(const struct stat *st) {
  // Regular files and directories only: other files are sinks shared on purpose.
  return (FileId){.known = S_ISREG(st->st_mode) || S_ISDIR(st->st_mode), .exists = true,
                  .dev = st->st_dev, .ino = st->st_ino};
}

static FileId path_id(const char *path) {
  FileId id = {0};
  struct stat st;
  if (stat(path, &st) == 0)
    return stat_id(&st);
  if (errno != ENOENT)
    return id;
  const char *slash = strrchr(path, '/');
  const char *name = slash ? slash + 1 : path;
  char dir[PATH_MAX];
  size_t len = !slash ? 0 : slash == path ? 1 : (size_t)(slash - path);
  if (len >= sizeof dir || strlen(name) >= sizeof id.name)
    return id;
  memcpy(dir, len ? path : ".", len ? len : 1);
  dir[len ? len : 1] = 0;
  if (stat(dir, &st) != 0)
    return id;
  id = stat_id(&st);
  id.exists = false;
  strcpy(id.name, name);
  return id;
}

static FileId stream_id(FILE *f) {
  struct stat st;
  int fd = f ? fileno(f) : -1; // (a memory stream has none)
  if (fd < 0 || fstat(fd, &st) != 0)
    return (FileId){0};
  return stat_id(&st);
}

static bool same_file(const FileId *a, const FileId *b) {
  return a->known && b->known && a->exists == b->exists && a->dev == b->dev &&
         a->ino == b->ino && (a->exists || !strcmp(a->name, b->name));
}

// Something a run writes: what it is called in a message, and its identity.
typedef struct Place {
  char what[PATH_MAX + 64];
  FileId id;
} Place;

enum { MAX_PLACES = 12, MAX_OUTPUTS = 5 };

// The outputs asked for, in the order they are checked and opened.
typedef struct Output {
  const char *option, *path;
  FILE **file; // where McrtOutputs keeps it
} Output;

static int outputs_of(const McrtOptions *opt, McrtOutputs *o, Output *list) {
  Output all[] = {{"--report", opt->report_file, &o->report},
                  {"--graph", opt->graph_file, &o->graph},
                  {"--dot", opt->dot_file, &o->dot},
                  {"--tests", opt->tests_file, &o->tests},
                  // The default trail is opened only if a violation needs it:
                  // an unwritable current directory is a warning then.
                  {"--trail", opt->trail_given ? opt->trail_file : NULL, &o->trail}};
  int n = 0;
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    if (all[i].path)
      list[n++] = all[i];
  return n;
}

static void add_place(Place *p, int *n, FileId id, const char *fmt, const char *a, const char *b) {
  p[*n].id = id;
  snprintf(p[*n].what, sizeof p[*n].what, fmt, a, b);
  (*n)++;
}

// A file of the checkpoint's directory DIR.
static void add_checkpoint_file(Place *p, int *n, const char *option, const char *dir,
                                const char *name) {
  char path[PATH_MAX];
  if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
    return;
  add_place(p, n, path_id(path), "%s's file %s", option, path);
}

// Every other file the run writes or reads back, besides the outputs.
static int other_places(const McrtOptions *opt, FILE *out, FILE *err, Place *p) {
  int n = 0;
  add_place(p, &n, stream_id(out), "%s%s", "the standard output", "");
  add_place(p, &n, stream_id(err), "%s%s", "the standard error", "");
  if (opt->checkpoint_dir) {
    add_checkpoint_file(p, &n, "--checkpoint", opt->checkpoint_dir, "checkpoint");
    add_checkpoint_file(p, &n, "--checkpoint", opt->checkpoint_dir, "checkpoint.tmp");
  }
  if (opt->resume_dir)
    add_checkpoint_file(p, &n, "--resume", opt->resume_dir, "checkpoint");
  if (opt->disk_dir) // its files get names no other file has (mkstemp)
    add_place(p, &n, path_id(opt->disk_dir), "the directory of --disk %s%s", opt->disk_dir, "");
  if (opt->trail_file && !opt->trail_given)
    add_place(p, &n, path_id(opt->trail_file), "the trail %s (--trail FILE or --no-trail)%s",
              opt->trail_file, "");
  return n;
}

// No output on a file another output, the checkpoint or a standard stream
// already writes. False after a message.
static bool distinct(const McrtOptions *opt, FILE *out, FILE *err) {
  McrtOutputs none;
  Output list[MAX_OUTPUTS];
  int nout = outputs_of(opt, &none, list);
  Place places[MAX_PLACES];
  int n = other_places(opt, out, err, places), first = n;
  for (int i = 0; i < nout; i++)
    add_place(places, &n, path_id(list[i].path), "%s %s", list[i].option, list[i].path);
  for (int i = first; i < n; i++)
    for (int j = 0; j < i; j++)
      if (same_file(&places[i].id, &places[j].id)) {
        fprintf(err, "error: %s and %s are one file: each would overwrite the other; give "
                     "each output a file of its own\n",
                places[i].what, places[j].what);
        return false;
      }
  return true;
}

static void cannot_write(FILE *err, const Output *o) {
  fprintf(err, "error: cannot write %s %s: %s\n",
          !strcmp(o->option, "--report") ? "the report" : o->option, o->path, strerror(errno));
}

// Whether each output opens for writing, found without changing a file that
// exists (each is opened to append and closed). A file made by the test is
// removed when another output fails. False after a message.
static bool writable(const Output *list, int n, FILE *err) {
  bool made[MAX_OUTPUTS] = {false};
  for (int i = 0; i < n; i++) {
    struct stat st;
    made[i] = stat(list[i].path, &st) != 0;
    FILE *f = fopen(list[i].path, "a");
    if (f && fclose(f) == 0)
      continue;
    cannot_write(err, &list[i]);
    for (int j = 0; j <= i; j++)
      if (made[j])
        remove(list[j].path);
    return false;
  }
  return true;
}

bool mcrt_outputs_check(const McrtOptions *opt, FILE *out, FILE *err) {
  McrtOutputs none;
  Output list[MAX_OUTPUTS];
  int n = outputs_of(opt, &none, list);
  return distinct(opt, out, err) && writable(list, n, err);
}

bool mcrt_outputs_open(McrtOutputs *o, const McrtOptions *opt, FILE *out, FILE *err) {
  *o = (McrtOutputs){0};
  if (!mcrt_outputs_check(opt, out, err))
    return false;
  Output list[MAX_OUTPUTS];
  int n = outputs_of(opt, o, list);
  for (int i = 0; i < n; i++) {
    *list[i].file = fopen(list[i].path, "w");
    if (!*list[i].file) { // writable a moment ago
      cannot_write(err, &list[i]);
      mcrt_outputs_discard(o, opt);
      return false;
    }
  }
  return true;
}

void mcrt_outputs_discard(McrtOutputs *o, const McrtOptions *opt) {
  Output list[MAX_OUTPUTS];
  int n = outputs_of(opt, o, list);
  for (int i = 0; i < n; i++) {
    mcrt_output_discard(*list[i].file, list[i].path);
    *list[i].file = NULL;
  }
}

// Closes f; false (errno set) if anything written to it was lost (errno
// is cleared before the writes it may have to report: mcrt_output_close).
static bool close_checked(FILE *f) {
  bool ok = fflush(f) == 0 && !ferror(f);
  int e = ok ? 0 : errno ? errno : EIO;
  if (fclose(f) != 0 && ok)
    ok = false, e = errno;
  errno = e;
  return ok;
}

static bool is_regular(FILE *f) {
  struct stat st;
  return fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
}

void mcrt_output_discard(FILE *f, const char *path) {
  if (!f)
    return;
  bool regular = is_regular(f);
  fclose(f);
  if (regular)
    remove(path);
}

bool mcrt_output_close(FILE *f, const char *path) {
  bool regular = is_regular(f);
  if (close_checked(f))
    return true;
  int e = errno;
  if (regular)
    remove(path);
  errno = e;
  return false;
}
