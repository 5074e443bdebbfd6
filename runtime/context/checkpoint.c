// SPDX-License-Identifier: MIT
// checkpoint.c: --checkpoint DIR [--checkpoint-every MINUTES] and
// --resume DIR: the whole state of a search saved to one file, and a run
// that goes on from it to exactly the counts, verdict and trace of a run
// never interrupted.
//
// When. Between two expansions (serial search) or two windows (threads),
// with no successor pending: the set, the log, the frontier and the
// counters then say everything the search still needs. Where the frontier
// starts (the id of its first state), where the level ends and the depth of
// the level say where the loop goes on. A checkpoint is taken at the first
// such moment after --checkpoint-every has passed, and when a signal
// (SIGINT, SIGTERM, SIGHUP) stops the run.
//
// The file, DIR/checkpoint, native byte order (a file from another machine
// is refused by its magic number):
//   "MCGENCK1", format version (3), the fingerprint set's layout (0: words;
//   2: compact, --compact-set; 1 was the compact layout's earlier bitmaps,
//   refused), then length-prefixed strings and u64s:
//   the build: mcgen's version, the runtime's, the model's name, the hash
//   of the spec's text, the hash of the generated C (which holds the rest),
//   the constants, the extern C files with their hashes and --cflags, a
//   hash of the model's description (name, layout, rules, predicates) and
//   the state's size; the options that change the answer; the position;
//   the counters and per-action/per-reachable arrays; the fingerprint set
//   (mcrt_fpset_save or mcrt_fpc_save, by its layout); the trace log's
//   records; the frontier's states; and last the XXH3-64 of every byte
//   before it.
//
// Crash safety. The file is written as DIR/checkpoint.tmp, fsync'd, the
// directory fsync'd, renamed to DIR/checkpoint (rename(2) replaces it
// atomically), and the directory fsync'd again. A crash before the rename
// leaves the previous checkpoint untouched (and a .tmp that nobody reads);
// after it, the new one is complete on disk, since its data reached the
// disk before its name did. Whatever else may happen to the file (a
// truncated copy, a bad sector, a hand edit) is caught by the checksum,
// verified over the whole file before anything in it is believed.
#include "context/context.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "MCGENCK1"
#define FORMAT 3
#define BUF ((size_t)4 << 20)

typedef struct McrtCheckpoint {
  double next_at;    // mcrt_now() from which the next one is due
  uint64_t written;  // checkpoints written by this run
  double last_s;     // how long the last one took
  uint64_t last_bytes;
  bool resumed;      // this run went on from --resume
  uint64_t popped, level_end; // where (resumed)
  uint64_t resumed_states;    // states the checkpoint had
  bool failed;       // the last attempt failed (said on stderr)
  uint64_t polls;    // calls of mcrt_checkpoint_due
} McrtCheckpoint;

// ---------------------------------------------------------------------------
// What identifies the model and the answer.

// The fingerprint set's layout, which decides how its table was saved. The
// compact layout's first version (three bitmaps a slot: occupied, V, C) is
// no longer read: its tables cannot be loaded into today's bitmaps and
// offsets.
enum { LAYOUT_WORDS, LAYOUT_COMPACT_3BIT, LAYOUT_COMPACT };

static uint64_t layout_of(const McrtFpSet *set) {
  return set->rem_bits ? LAYOUT_COMPACT : LAYOUT_WORDS;
}

static const char *layout_name(uint64_t layout) {
  switch (layout) {
  case LAYOUT_COMPACT:
    return "compact layout (--compact-set)";
  case LAYOUT_COMPACT_3BIT:
    return "compact layout of earlier versions (three bitmaps a slot), which this checker "
           "does not read";
  default:
    return "word layout";
  }
}

static void hash_str(XXH3_state_t *h, const char *s) {
  s = s ? s : "";
  XXH3_64bits_update(h, s, strlen(s) + 1);
}

static void hash_u64(XXH3_state_t *h, uint64_t v) { XXH3_64bits_update(h, &v, sizeof v); }

static void hash_groups(XXH3_state_t *h, const McrtRuleGroup *g, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    hash_str(h, g[i].name);
    hash_u64(h, g[i].nparams);
    hash_u64(h, g[i].first_rule);
    hash_u64(h, g[i].nbindings);
  }
}

static void hash_preds(XXH3_state_t *h, const McrtPredicate *p, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    hash_str(h, p[i].name);
}

// The model's description: what the search's ids, rules and layout mean.
static uint64_t model_hash(const McrtModel *m) {
  XXH3_state_t *h = XXH3_createState();
  if (!h)
    return 0;
  XXH3_64bits_reset(h);
  hash_str(h, m->name);
  hash_u64(h, m->state_bits);
  hash_u64(h, m->state_bytes);
  for (uint32_t i = 0; i < m->nvars; i++) {
    hash_str(h, m->vars[i].name);
    hash_u64(h, m->vars[i].offset);
  }
  hash_groups(h, m->inits, m->ninits);
  hash_u64(h, m->ninit_rules);
  hash_groups(h, m->actions, m->nactions);
  hash_u64(h, m->nrules);
  hash_preds(h, m->invariants, m->ninvariants);
  hash_preds(h, m->reachables, m->nreachables);
  hash_preds(h, m->properties, m->nproperties);
  hash_u64(h, m->has_terminal);
  hash_u64(h, m->has_constraint);
  hash_u64(h, m->nsym);
  hash_str(h, m->scenario);
  uint64_t v = XXH3_64bits_digest(h);
  XXH3_freeState(h);
  return v;
}

// The build of the model a checkpoint is bound to: a checker generated or
// compiled from anything else may search another graph or check other
// properties, and resumed, would answer for neither model.
enum {
  BUILD_MCGEN,     // mcgen's version
  BUILD_RUNTIME,   // the runtime's
  BUILD_NAME,      // the model's name
  BUILD_SOURCE,    // the hash of the spec's text
  BUILD_C,         // the hash of the generated C, which holds the three below
  BUILD_CONSTANTS, // NAME=VALUE lines
  BUILD_EXTERN,    // PATH=HASH lines: the C files of `extern`
  BUILD_CFLAGS,    // mcgen --cflags
  NBUILD
};

typedef struct Build {
  const char *s[NBUILD];
  uint64_t model, state_bytes; // model_hash, the packed state's bytes
} Build;

static Build build_of(const McrtCtx *ctx) {
  const McrtModel *m = ctx->model;
  return (Build){{m->mcgen_version, MCRT_VERSION, m->name, m->source_hash, m->c_hash,
                  m->constants, m->extern_files, m->cflags},
                 model_hash(m),
                 ctx->state_bytes};
}

static const char *or_empty(const char *s) { return s ? s : ""; }

static bool same(const Build *a, const Build *b, int i) {
  return !strcmp(or_empty(a->s[i]), or_empty(b->s[i]));
}

// One line of a NAME=VALUE list (constants, extern files). The last '='
// of a line ends its name: a path may hold one.
typedef struct Entry {
  const char *name, *value;
  int name_len, value_len;
} Entry;

// The entry at *list, and *list moved past it; false at the list's end.
static bool next_entry(const char **list, Entry *e) {
  while (**list) {
    const char *line = *list, *end = strchr(line, '\n');
    end = end ? end : line + strlen(line);
    *list = *end ? end + 1 : end;
    const char *eq = end;
    while (eq > line && *eq != '=')
      eq--;
    if (*eq != '=')
      continue; // (not a line mcgen writes)
    *e = (Entry){line, eq + 1, (int)(eq - line), (int)(end - eq - 1)};
    return true;
  }
  return false;
}

static bool find_entry(const char *list, const Entry *want, Entry *found) {
  while (next_entry(&list, found))
    if (found->name_len == want->name_len && !memcmp(found->name, want->name, want->name_len))
      return true;
  return false;
}

// Says on err each entry of list A that list B lacks and, when A is this
// build's, each whose value differs; the number of them.
static int list_differs(FILE *err, const char *path, const char *what, bool show_values,
                        const char *a, const char *b, bool a_is_now) {
  int n = 0;
  Entry e, other;
  while (next_entry(&a, &e)) {
    if (!find_entry(b, &e, &other)) {
      fprintf(err, "error: --resume %s: %s %.*s is in %s build only\n", path, what, e.name_len,
              e.name, a_is_now ? "this checker's" : "the checkpointed run's");
      n++;
    } else if (a_is_now && (e.value_len != other.value_len ||
                            memcmp(e.value, other.value, (size_t)e.value_len))) {
      if (show_values)
        fprintf(err, "error: --resume %s: %s %.*s is %.*s in this checker's build but was %.*s "
                     "in the checkpointed run's\n",
                path, what, e.name_len, e.name, e.value_len, e.value, other.value_len,
                other.value);
      else
        fprintf(err, "error: --resume %s: %s %.*s has changed since the checkpointed run's "
                     "build\n",
                path, what, e.name_len, e.name);
      n++;
    }
  }
  return n;
}

// Says on err what differs between the two builds of one model, as far as
// it can be named; the number of things named.
static int build_differs(FILE *err, const char *path, const McrtModel *m, const Build *saved,
                         const Build *now) {
  int n = 0;
  const struct {
    int i;
    const char *what;
    bool values;
  } lists[] = {{BUILD_CONSTANTS, "const", true}, {BUILD_EXTERN, "the extern C file", false}};
  for (size_t k = 0; k < sizeof lists / sizeof *lists; k++) {
    const char *a = or_empty(now->s[lists[k].i]), *b = or_empty(saved->s[lists[k].i]);
    n += list_differs(err, path, lists[k].what, lists[k].values, a, b, true);
    n += list_differs(err, path, lists[k].what, lists[k].values, b, a, false);
  }
  if (!same(saved, now, BUILD_CFLAGS)) {
    fprintf(err, "error: --resume %s: mcgen --cflags is '%s' in this checker's build but was "
                 "'%s' in the checkpointed run's\n",
            path, or_empty(now->s[BUILD_CFLAGS]), or_empty(saved->s[BUILD_CFLAGS]));
    n++;
  }
  if (!same(saved, now, BUILD_SOURCE)) {
    fprintf(err, "error: --resume %s: the spec's text (%s) differs from the checkpointed run's\n",
            path, or_empty(m->source_file));
    n++;
  }
  return n;
}

// The options that change the answer, as the checkpoint stores them.
typedef struct Answer {
  uint64_t max_states, max_steps, max_depth, fingerprint_bits, symmetry, sym_method, deadlock;
} Answer;

static Answer answer_of(const McrtCtx *ctx) {
  const McrtOptions *o = ctx->opt;
  return (Answer){o->max_states, o->max_steps, o->max_depth, ctx->fp_bits, ctx->sym != NULL,
                  ctx->sym ? (uint64_t)ctx->sym->method : 0, o->deadlock};
}

static void print_limit(FILE *f, uint64_t v) {
  if (v == MCRT_UNLIMITED)
    fputs("none", f);
  else
    fprintf(f, "%" PRIu64, v);
}

static const char *sym_method_text(uint64_t on, uint64_t method) {
  return !on ? "off" : mcrt_sym_method_name((McrtSymMethod)method);
}

// Says on err each option that differs; the number of them.
static int answer_differs(FILE *err, const char *path, const Answer *saved, const Answer *now) {
  int n = 0;
  struct {
    const char *name;
    uint64_t a, b;
  } limits[] = {{"--max-states", saved->max_states, now->max_states},
                {"--max-steps", saved->max_steps, now->max_steps},
                {"--max-depth", saved->max_depth, now->max_depth}};
  for (size_t i = 0; i < sizeof limits / sizeof *limits; i++) {
    if (limits[i].a == limits[i].b)
      continue;
    fprintf(err, "error: --resume %s: %s is ", path, limits[i].name);
    print_limit(err, limits[i].b);
    fputs(" now but was ", err);
    print_limit(err, limits[i].a);
    fputs(" in the checkpointed run\n", err);
    n++;
  }
  if (saved->fingerprint_bits != now->fingerprint_bits) {
    fprintf(err, "error: --resume %s: --fingerprint is %" PRIu64 " now but was %" PRIu64
                 " in the checkpointed run\n",
            path, now->fingerprint_bits, saved->fingerprint_bits);
    n++;
  }
  if (saved->symmetry != now->symmetry || saved->sym_method != now->sym_method) {
    fprintf(err, "error: --resume %s: symmetry reduction is %s now but was %s in the "
                 "checkpointed run (--symmetry, --symmetry-method)\n",
            path, sym_method_text(now->symmetry, now->sym_method),
            sym_method_text(saved->symmetry, saved->sym_method));
    n++;
  }
  if (saved->deadlock != now->deadlock) {
    fprintf(err, "error: --resume %s: deadlocks are %s now but were %s in the checkpointed "
                 "run (--no-deadlock)\n",
            path, now->deadlock ? "checked" : "not checked",
            saved->deadlock ? "checked" : "not checked");
    n++;
  }
  return n;
}

int mcrt_checkpoint_check(const McrtModel *model, const McrtOptions *opt, FILE *err) {
  bool ck = opt->checkpoint_dir || opt->resume_dir;
  if (mcrt_engine.search && (ck || opt->disk_dir)) {
    fprintf(err, "error: --disk, --checkpoint and --resume are not available under MPI (a "
                 "checker built with mcgen --mpi): build the checker without --mpi to use "
                 "them\n");
    return MCRT_EXIT_USAGE;
  }
  if (opt->checkpoint_every_s > 0 && !opt->checkpoint_dir) {
    fprintf(err, "error: --checkpoint-every goes with --checkpoint DIR\n");
    return MCRT_EXIT_USAGE;
  }
  if (!ck)
    return -1;
  const char *which = opt->checkpoint_dir ? "--checkpoint" : "--resume";
  if (mcrt_liveness_wanted(model, opt)) {
    fprintf(err, "error: %s cannot be used while liveness properties are checked (the "
                 "liveness check needs the edge table, which checkpoints do not hold); run "
                 "with --liveness off to checkpoint the safety search\n",
            which);
    return MCRT_EXIT_USAGE;
  }
  if (model->net) {
    fprintf(err, "error: %s is not available for a Petri net (its per-marking records are "
                 "not saved)\n",
            which);
    return MCRT_EXIT_USAGE;
  }
  if (opt->por) {
    fprintf(err, "error: %s is not available with --por on (the checkpoint does not record "
                 "the reduction, so a resumed run could mix reduced and full levels)\n",
            which);
    return MCRT_EXIT_USAGE;
  }
  if (opt->symmetry == MCRT_SYM_VERIFY || opt->sim_runs) {
    fprintf(err, "error: %s goes with one search: not with --symmetry verify or --simulate\n",
            which);
    return MCRT_EXIT_USAGE;
  }
  if (opt->checkpoint_dir) {
    mkdir(opt->checkpoint_dir, 0777); // one level; an error shows in access()
    if (access(opt->checkpoint_dir, W_OK | X_OK) != 0) {
      fprintf(err, "error: --checkpoint %s: %s\n", opt->checkpoint_dir, strerror(errno));
      return MCRT_EXIT_USAGE;
    }
  }
  return -1;
}

// ---------------------------------------------------------------------------
// Writing.

typedef struct Writer {
  int fd;
  XXH3_state_t *hash;
  uint8_t *buf;
  size_t n;
  uint64_t bytes;
  bool ok;
} Writer;

static bool w_flush(Writer *w) {
  for (size_t done = 0; w->ok && done < w->n;) {
    ssize_t r = write(w->fd, w->buf + done, w->n - done);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      w->ok = false, errno = r < 0 ? errno : ENOSPC;
    else
      done += (size_t)r;
  }
  w->n = 0;
  return w->ok;
}

static bool w_bytes(void *wp, const void *p, size_t n) {
  Writer *w = wp;
  XXH3_64bits_update(w->hash, p, n);
  w->bytes += n;
  for (const uint8_t *c = p; n > 0 && w->ok;) {
    size_t k = BUF - w->n < n ? BUF - w->n : n;
    memcpy(w->buf + w->n, c, k);
    w->n += k, c += k, n -= k;
    if (w->n == BUF)
      w_flush(w);
  }
  return w->ok;
}

static void w_u64(Writer *w, uint64_t v) { w_bytes(w, &v, sizeof v); }

static void w_str(Writer *w, const char *s) {
  s = s ? s : "";
  w_u64(w, strlen(s));
  w_bytes(w, s, strlen(s));
}

static uint64_t double_bits(double d) {
  uint64_t v;
  memcpy(&v, &d, sizeof v);
  return v;
}

static uint64_t log_stream_bytes(const McrtLog *log) {
  uint64_t bytes = 0;
  for (uint64_t first = 0, c = 0; first < log->count; first += UINT64_C(1) << MCRT_LOG_CHUNK_SHIFT, c++) {
    uint64_t n = log->count - first < (UINT64_C(1) << MCRT_LOG_CHUNK_SHIFT)
                     ? log->count - first
                     : UINT64_C(1) << MCRT_LOG_CHUNK_SHIFT;
    bytes += n * (mcrt_log_parent_bytes(c) + log->rule_bytes);
  }
  return bytes;
}

static bool write_body(McrtCtx *ctx, Writer *w, uint64_t popped, uint64_t level_end) {
  const McrtModel *m = ctx->model;
  w_bytes(w, MAGIC, 8);
  w_u64(w, FORMAT);
  w_u64(w, layout_of(&ctx->set));
  Build b = build_of(ctx);
  for (int i = 0; i < NBUILD; i++)
    w_str(w, b.s[i]);
  w_u64(w, b.model);
  w_u64(w, b.state_bytes);
  Answer a = answer_of(ctx);
  w_bytes(w, &a, sizeof a);
  w_u64(w, popped);
  w_u64(w, level_end);
  w_u64(w, ctx->cur_depth);
  w_u64(w, double_bits(mcrt_now() - ctx->start_time));
  uint64_t counters[] = {ctx->states, ctx->transitions, ctx->depth, ctx->deadlocks,
                         ctx->accepting, ctx->bound_transitions, ctx->depth_truncated,
                         ctx->nreached, ctx->peak_bytes, ctx->sym ? ctx->sym->calls : 0,
                         ctx->sym ? ctx->sym->candidates : 0};
  w_bytes(w, counters, sizeof counters);
  w_bytes(w, ctx->fired, m->nactions * sizeof *ctx->fired);
  w_bytes(w, ctx->bound_fired, m->nactions * sizeof *ctx->bound_fired);
  for (uint32_t i = 0; i < m->nreachables; i++)
    w_u64(w, ctx->reached[i]);
  bool compact = ctx->set.rem_bits != 0;
  if (!w_flush(w) || !(compact ? mcrt_fpc_save(w->fd, &ctx->set, w->hash)
                               : mcrt_fpset_save(w->fd, &ctx->set, w->hash)))
    return w->ok = false;
  w_u64(w, ctx->log.count);
  w_u64(w, ctx->log.rule_bytes);
  w_u64(w, log_stream_bytes(&ctx->log));
  if (!mcrt_log_save(&ctx->log, w_bytes, w))
    return w->ok = false;
  w_u64(w, ctx->queue.length);
  if (!mcrt_queue_save(&ctx->queue, w_bytes, w))
    return w->ok = false;
  uint64_t digest = XXH3_64bits_digest(w->hash);
  w_bytes(w, &digest, sizeof digest);
  if (!w_flush(w))
    return false;
  off_t size = lseek(w->fd, 0, SEEK_CUR); // the set was written around the buffer
  w->bytes = size > 0 ? (uint64_t)size : w->bytes;
  return true;
}

static char *path_in(const char *dir, const char *name) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *p = malloc(n);
  if (p)
    snprintf(p, n, "%s/%s", dir, name);
  return p;
}

static bool sync_dir(const char *dir) {
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return false;
  bool ok = fsync(fd) == 0;
  close(fd);
  return ok;
}

// Writes DIR/checkpoint (see the top of the file). False after a message.
static bool write_checkpoint(McrtCtx *ctx, uint64_t popped, uint64_t level_end) {
  const char *dir = ctx->opt->checkpoint_dir;
  char *tmp = path_in(dir, "checkpoint.tmp"), *final = path_in(dir, "checkpoint");
  Writer w = {.fd = -1, .hash = XXH3_createState(), .buf = malloc(BUF), .ok = true};
  const char *step = "write";
  if (!tmp || !final || !w.hash || !w.buf) {
    errno = ENOMEM;
    w.ok = false;
  }
  if (w.ok && (w.fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) < 0)
    w.ok = false;
  if (w.ok) {
    XXH3_64bits_reset(w.hash);
    write_body(ctx, &w, popped, level_end);
  }
  if (w.ok && fsync(w.fd) != 0)
    w.ok = false, step = "fsync";
  int e = errno;
  if (w.fd >= 0 && close(w.fd) != 0 && w.ok)
    w.ok = false, e = errno;
  if (w.ok && !sync_dir(dir))
    w.ok = false, e = errno, step = "fsync the directory of";
  if (w.ok && rename(tmp, final) != 0)
    w.ok = false, e = errno, step = "rename";
  if (w.ok && !sync_dir(dir))
    w.ok = false, e = errno, step = "fsync the directory of";
  if (!w.ok) {
    fprintf(stderr, "warning: --checkpoint: cannot %s %s: %s; the previous checkpoint stays "
                    "and the search goes on\n",
            step, tmp ? tmp : dir, strerror(e));
    if (tmp)
      unlink(tmp);
  } else {
    ctx->ckpt->last_bytes = w.bytes;
  }
  XXH3_freeState(w.hash);
  free(w.buf);
  free(tmp);
  free(final);
  return w.ok;
}

bool mcrt_checkpoint_due(McrtCtx *ctx, bool now) {
  McrtCheckpoint *ck = ctx->ckpt;
  if (!ck || !ctx->opt->checkpoint_dir || ctx->stop)
    return false;
  if (now)
    return true;
  if (++ck->polls % 64) // the clock every 64 expansions
    return false;
  return mcrt_now() >= ck->next_at;
}

void mcrt_checkpoint_maybe(McrtCtx *ctx, uint64_t popped, uint64_t level_end, bool now) {
  McrtCheckpoint *ck = ctx->ckpt;
  if (!ck || !ctx->opt->checkpoint_dir || ctx->stop || ctx->npending)
    return;
  double t = mcrt_now();
  if (!now && t < ck->next_at)
    return;
  bool ok = write_checkpoint(ctx, popped, level_end);
  double t1 = mcrt_now();
  ck->failed = !ok;
  ck->written += ok;
  ck->last_s = t1 - t;
  ck->next_at = t1 + ctx->opt->checkpoint_every_s;
}

// ---------------------------------------------------------------------------
// Reading.

static bool read_all(int fd, void *p, size_t n) {
  for (size_t done = 0; done < n;) {
    ssize_t r = read(fd, (char *)p + done, n - done);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0) {
      errno = r < 0 ? errno : 0;
      return false;
    }
    done += (size_t)r;
  }
  return true;
}

static bool r_u64(int fd, uint64_t *v) { return read_all(fd, v, sizeof *v); }

// A string of at most 16 MiB (the checksum held, so the length is the
// writer's), malloc'd.
static char *r_str(int fd) {
  uint64_t n;
  if (!r_u64(fd, &n) || n > ((uint64_t)16 << 20))
    return NULL;
  char *s = malloc(n + 1);
  if (s && !read_all(fd, s, n)) {
    free(s);
    return NULL;
  }
  if (s)
    s[n] = 0;
  return s;
}

// Reads the whole file and checks its checksum: the file as written, or
// a message. Size in *size.
static bool verify(int fd, const char *path, FILE *err) {
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_size < 24) {
    fprintf(err, "error: --resume: %s is truncated (%lld bytes): refused\n", path,
            (long long)st.st_size);
    return false;
  }
  XXH3_state_t *h = XXH3_createState();
  uint8_t *buf = malloc(BUF);
  bool ok = h && buf;
  if (ok)
    XXH3_64bits_reset(h);
  uint64_t body = (uint64_t)st.st_size - 8, done = 0;
  while (ok && done < body) {
    size_t n = body - done < BUF ? (size_t)(body - done) : BUF;
    ok = read_all(fd, buf, n);
    if (ok)
      XXH3_64bits_update(h, buf, n), done += n;
  }
  uint64_t stored = 0;
  ok = ok && r_u64(fd, &stored);
  bool match = ok && stored == XXH3_64bits_digest(h);
  if (!ok)
    fprintf(err, "error: --resume: cannot read %s: %s\n", path, strerror(errno ? errno : EIO));
  else if (!match)
    fprintf(err, "error: --resume: %s is damaged (truncated or corrupted: its XXH3 checksum "
                 "does not match its contents): refused\n",
            path);
  XXH3_freeState(h);
  free(buf);
  return ok && match && lseek(fd, 0, SEEK_SET) == 0;
}

// What each earlier format lacks, for its refusal.
static const char *const format_lacks[FORMAT] = {
    [1] = "does not record the fingerprint set's layout",
    [2] = "is not bound to the build of the model (its constants, its extern C, mcgen "
          "--cflags)",
};

// Checks the magic number, the format and the fingerprint set's layout.
// Returns -1 or an exit code.
static int check_format(McrtCtx *ctx, int fd, const char *path, FILE *err) {
  char magic[8];
  uint64_t format = 0, layout = 0;
  bool magic_ok = read_all(fd, magic, 8) && !memcmp(magic, MAGIC, 8) && r_u64(fd, &format);
  if (magic_ok && format >= 1 && format < FORMAT) {
    fprintf(err, "error: --resume: %s is a checkpoint of format %" PRIu64 ", which %s; this "
                 "checker reads format %d: refused (start the run again)\n",
            path, format, format_lacks[format], FORMAT);
    return MCRT_EXIT_USAGE;
  }
  if (!magic_ok || format != FORMAT || !r_u64(fd, &layout) || layout > LAYOUT_COMPACT) {
    fprintf(err, "error: --resume: %s is not a checkpoint of this format (format %d, this "
                 "machine's byte order): refused\n",
            path, FORMAT);
    return MCRT_EXIT_USAGE;
  }
  if (layout == LAYOUT_COMPACT_3BIT) {
    fprintf(err, "error: --resume: %s holds the fingerprint set in the %s; this run uses the "
                 "%s: refused (start the run again)\n",
            path, layout_name(layout), layout_name(layout_of(&ctx->set)));
    return MCRT_EXIT_USAGE;
  }
  if (layout != layout_of(&ctx->set)) {
    fprintf(err, "error: --resume: %s holds the fingerprint set in the %s; this run uses the "
                 "%s: refused (resume %s --compact-set)\n",
            path, layout_name(layout), layout_name(layout_of(&ctx->set)),
            layout == LAYOUT_COMPACT ? "with" : "without");
    return MCRT_EXIT_USAGE;
  }
  return -1;
}

// Checks that the checkpoint was written by a checker of this very build:
// the same versions, model, generated C, extern C and --cflags. Returns -1
// or an exit code.
static int check_build(McrtCtx *ctx, const Build *saved, const char *path, FILE *err) {
  const McrtModel *m = ctx->model;
  Build now = build_of(ctx);
  if (!same(saved, &now, BUILD_MCGEN) || !same(saved, &now, BUILD_RUNTIME)) {
    fprintf(err, "error: --resume: %s was written by a checker of mcgen %s (runtime %s); this "
                 "one is mcgen %s (runtime %s): refused\n",
            path, saved->s[BUILD_MCGEN], saved->s[BUILD_RUNTIME], or_empty(now.s[BUILD_MCGEN]),
            MCRT_VERSION);
    return MCRT_EXIT_USAGE;
  }
  if (!same(saved, &now, BUILD_NAME)) {
    fprintf(err, "error: --resume: %s is a checkpoint of another model ('%s') than this "
                 "checker's ('%s'): refused\n",
            path, saved->s[BUILD_NAME], m->name);
    return MCRT_EXIT_USAGE;
  }
  bool differs = saved->model != now.model || saved->state_bytes != now.state_bytes;
  for (int i = 0; i < NBUILD; i++)
    differs |= !same(saved, &now, i);
  if (!differs)
    return -1;
  int named = build_differs(err, path, m, saved, &now);
  fprintf(err, "error: --resume: %s was written by another build of the model '%s' (%s): "
               "refused; resume with the checker that wrote it, or start a new run\n",
          path, m->name,
          named ? "what differs is said above"
                : "the generated C differs: another mcgen --scenario, checker name (-o), spec "
                  "path or template");
  return MCRT_EXIT_USAGE;
}

// Checks the identity (format, build, options). Returns -1 or an exit code.
static int check_identity(McrtCtx *ctx, int fd, const char *path, FILE *err) {
  int code = check_format(ctx, fd, path, err);
  if (code >= 0)
    return code;
  Build saved = {.model = 0};
  Answer answer;
  bool ok = true;
  for (int i = 0; i < NBUILD; i++)
    ok = ok && (saved.s[i] = r_str(fd)) != NULL;
  ok = ok && r_u64(fd, &saved.model) && r_u64(fd, &saved.state_bytes) &&
       read_all(fd, &answer, sizeof answer);
  if (!ok) {
    fprintf(err, "error: --resume: %s: its header cannot be read: refused\n", path);
    code = MCRT_EXIT_USAGE;
  } else if ((code = check_build(ctx, &saved, path, err)) < 0) {
    Answer now = answer_of(ctx);
    if (answer_differs(err, path, &answer, &now)) {
      fputs("error: --resume: these options change the answer: resume with the checkpointed "
            "run's values\n",
            err);
      code = MCRT_EXIT_USAGE;
    }
  }
  for (int i = 0; i < NBUILD; i++)
    free((char *)saved.s[i]);
  return code;
}

// Reads the log's records (the stream mcrt_log_save wrote) into the log.
static bool load_log(McrtLog *log, int fd, uint64_t count) {
  for (uint64_t first = 0, c = 0; first < count; first += UINT64_C(1) << MCRT_LOG_CHUNK_SHIFT, c++) {
    uint64_t n = count - first < (UINT64_C(1) << MCRT_LOG_CHUNK_SHIFT)
                     ? count - first
                     : UINT64_C(1) << MCRT_LOG_CHUNK_SHIFT;
    if (!mcrt_log_add_chunk(log) ||
        !read_all(fd, log->chunks[c], (size_t)n * (mcrt_log_parent_bytes(c) + log->rule_bytes)))
      return false;
  }
  log->count = count;
  return true;
}

static bool load_queue(McrtQueue *q, int fd, uint64_t length) {
  size_t per = BUF / q->state_bytes ? BUF / q->state_bytes : 1;
  uint8_t *buf = malloc(per * q->state_bytes);
  bool ok = buf != NULL;
  for (uint64_t done = 0; ok && done < length;) {
    size_t n = length - done < per ? (size_t)(length - done) : per;
    ok = read_all(fd, buf, n * q->state_bytes);
    for (size_t i = 0; ok && i < n; i++)
      ok = mcrt_queue_push(q, buf + i * q->state_bytes);
    done += n;
  }
  free(buf);
  return ok;
}

static int load(McrtCtx *ctx, int fd, const char *path, FILE *err) {
  const McrtModel *m = ctx->model;
  McrtCheckpoint *ck = ctx->ckpt;
  uint64_t elapsed, counters[11], rule_bytes, log_bytes, count, length;
  bool ok = r_u64(fd, &ck->popped) && r_u64(fd, &ck->level_end) && r_u64(fd, &ctx->cur_depth) &&
            r_u64(fd, &elapsed) && read_all(fd, counters, sizeof counters) &&
            read_all(fd, ctx->fired, m->nactions * sizeof *ctx->fired) &&
            read_all(fd, ctx->bound_fired, m->nactions * sizeof *ctx->bound_fired);
  for (uint32_t i = 0; ok && i < m->nreachables; i++) {
    uint64_t v;
    ok = r_u64(fd, &v);
    ctx->reached[i] = v != 0;
  }
  if (ok) {
    bool compact = ctx->set.rem_bits != 0; // check_identity: the checkpoint's layout too
    mcrt_fpset_free(&ctx->set);
    ok = compact ? mcrt_fpc_load(fd, &ctx->set, NULL) : mcrt_fpset_load(fd, &ctx->set, NULL);
  }
  ok = ok && r_u64(fd, &count) && r_u64(fd, &rule_bytes) && r_u64(fd, &log_bytes) &&
       rule_bytes == ctx->log.rule_bytes && count == counters[0] && load_log(&ctx->log, fd, count);
  ok = ok && r_u64(fd, &length) && ck->popped + length == count &&
       load_queue(&ctx->queue, fd, length);
  if (!ok) {
    fprintf(err, "error: --resume: %s: cannot load it (%s): refused\n", path,
            mcrt_disk_failure(ctx->disk) ? "a --disk file failed" : "inconsistent or out of memory");
    return MCRT_EXIT_USAGE;
  }
  double e;
  memcpy(&e, &elapsed, sizeof e);
  ctx->start_time = mcrt_now() - e;
  ctx->states = counters[0], ctx->transitions = counters[1], ctx->depth = counters[2];
  ctx->deadlocks = counters[3], ctx->accepting = counters[4];
  ctx->bound_transitions = counters[5], ctx->depth_truncated = counters[6] != 0;
  ctx->nreached = (uint32_t)counters[7], ctx->peak_bytes = counters[8];
  if (ctx->sym)
    ctx->sym->calls = counters[9], ctx->sym->candidates = counters[10];
  ck->resumed = true;
  ck->resumed_states = ctx->states;
  return -1;
}

int mcrt_checkpoint_start(McrtCtx *ctx, FILE *err) {
  ctx->ckpt = calloc(1, sizeof *ctx->ckpt);
  if (!ctx->ckpt) {
    fprintf(err, "error: out of memory setting up the checkpoints\n");
    return MCRT_EXIT_USAGE;
  }
  ctx->ckpt->next_at = mcrt_now() + ctx->opt->checkpoint_every_s;
  if (!ctx->opt->resume_dir)
    return -1;
  char *path = path_in(ctx->opt->resume_dir, "checkpoint");
  int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
  int code = -1;
  if (fd < 0) {
    fprintf(err, "error: --resume: cannot open %s: %s\n", path ? path : ctx->opt->resume_dir,
            strerror(errno));
    code = MCRT_EXIT_USAGE;
  } else if (!verify(fd, path, err)) {
    code = MCRT_EXIT_USAGE;
  } else if ((code = check_identity(ctx, fd, path, err)) < 0) {
    code = load(ctx, fd, path, err);
  }
  if (fd >= 0)
    close(fd);
  free(path);
  return code;
}

bool mcrt_checkpoint_position(const McrtCtx *ctx, uint64_t *popped, uint64_t *level_end) {
  if (!ctx->ckpt || !ctx->ckpt->resumed)
    return false;
  *popped = ctx->ckpt->popped;
  *level_end = ctx->ckpt->level_end;
  return true;
}

bool mcrt_checkpoint_resumed(const McrtCtx *ctx) { return ctx->ckpt && ctx->ckpt->resumed; }

void mcrt_checkpoint_summary(FILE *f, const McrtCtx *ctx) {
  const McrtCheckpoint *ck = ctx->ckpt;
  if (!ck)
    return;
  if (ck->resumed)
    fprintf(f, "resumed:       from %s/checkpoint (%" PRIu64 " states); time and counts are "
               "the whole run's\n",
            ctx->opt->resume_dir, ck->resumed_states);
  if (ctx->opt->checkpoint_dir) {
    fprintf(f, "checkpoints:   %" PRIu64 " written to %s/checkpoint", ck->written,
            ctx->opt->checkpoint_dir);
    if (ck->written) {
      fputs(", the last ", f);
      mcrt_fprint_bytes(f, (double)ck->last_bytes);
      fprintf(f, " in %.3f s", ck->last_s);
    }
    if (ck->failed)
      fputs("; the last attempt failed (see the warning above)", f);
    fputc('\n', f);
  }
}

void mcrt_checkpoint_report_json(FILE *f, const McrtCtx *ctx) {
  const McrtCheckpoint *ck = ctx->ckpt;
  if (!ck)
    return;
  if (ck->resumed)
    fprintf(f, ", \"resumed\": {\"states\": %" PRIu64 "}", ck->resumed_states);
  if (ctx->opt->checkpoint_dir)
    fprintf(f, ", \"checkpoints\": {\"written\": %" PRIu64 ", \"last_bytes\": %" PRIu64
               ", \"last_s\": %.6f, \"last_failed\": %s}",
            ck->written, ck->last_bytes, ck->last_s, ck->failed ? "true" : "false");
}

void mcrt_checkpoint_free(McrtCtx *ctx) {
  free(ctx->ckpt);
  ctx->ckpt = NULL;
}
