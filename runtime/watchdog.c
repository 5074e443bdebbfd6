// SPDX-License-Identifier: MIT
// watchdog.c: the C functions a spec calls through `extern fn` are
// watched while they run. mcgen refuses C that is not deterministic, but
// not C that never returns (a loop, a blocking read in `trusted` C), and a
// checker stuck in such a call heard no signal: SIGINT and SIGTERM only set
// the flag the search polls between expansions.
//
// Each call goes through its generated wrapper (compiler/analysis/extern.c,
// emit_extern_fn): the wrapper sets a jump buffer in its frame, then
// mcrt_extern_begin marks the calling thread as inside the call, and
// mcrt_extern_end as out of it. One watchdog thread, started by
// mcrt_run when the model has extern functions, looks at every thread
// every MCRT_WATCH_MS: a call that has run past --extern-timeout, or one
// that a stop signal (mcrt_signal) finds running for MCRT_STOP_GRACE_S
// (a call that returns sooner lets the expansion end, and --checkpoint
// write its checkpoint there), is abandoned: the
// watchdog sends the thread MCRT_KICK_SIGNAL, whose handler longjmps from
// the C back into the wrapper, which records the failure
// (mcrt_extern_abandoned) and returns at once like any failing generated
// function. A timed-out call is a run-time error of the model with its
// trace (search.c ends the run at once on it); an interrupted one ends the
// run as a signal does (incomplete, exit 3).
//
// Jumping out of C that is running is sound only because the run ends
// right after: the C's own state is never used again (a pure function has
// none; `trusted` C caught inside the C library, malloc or stdio, may leave
// it locked, and the second signal then kills the checker). A call that
// repeats a call that timed out (the same function with the same
// arguments: the C is deterministic) is abandoned at once as timed out, so
// that neither a thread's other states nor the replay of the trace wait
// for it again.
//
// Once the phases a signal stops are over (mcrt_search_over), a signal no
// longer abandons calls: the exports and the replay of the trace call the
// C again, calls that returned before.
#include "main.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#define MCRT_WATCH_MS 20       // the watchdog's period
#define MCRT_STOP_GRACE_S 0.2 // how long a stop signal lets a call run on
#define MCRT_KICK_SIGNAL (SIGRTMIN + 1)

// A thread that has called C. `call` is seq * 2 + 1 while the thread is
// inside the seq-th call it made, seq * 2 after it; `kill` the value of
// `call` that the watchdog abandons (the handler jumps only out of that
// call, not one begun since). The watchdog's own view (seen, since) is
// its alone.
typedef struct Slot {
  struct Slot *next;          // the list of every thread's slot
  pthread_t thread;
  McrtExternCall *current;    // the call in progress (the jump buffer)
  _Atomic uint64_t call;
  _Atomic uint64_t kill;
  _Atomic int reason;         // MCRT_CALL_TIMED_OUT or MCRT_CALL_INTERRUPTED
  _Atomic bool free;          // its thread has ended: another may take it
  uint64_t seen;              // the watchdog: the call it saw last,
  double since;               // and since when
} Slot;

static _Atomic(Slot *) slots;
static _Thread_local Slot *my_slot;
static pthread_key_t slot_key; // its destructor frees the slot at the thread's end
static pthread_once_t slot_key_once = PTHREAD_ONCE_INIT;

// The watchdog thread and what it enforces; it waits on `wake` between its
// looks, so that the run's end need not wait for its period.
static struct {
  pthread_t thread;
  bool running;
  bool stop;
  pthread_mutex_t lock;
  pthread_cond_t wake;
  double timeout_s; // --extern-timeout (0: none)
} watch = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER};

// The first call that timed out: its function and arguments, so that the
// same call is not waited for again (set once, then read-only).
static struct {
  _Atomic bool set;
  const McrtExternFn *fn;
  int64_t *values;
  uint8_t **packed;
} hang;

static void release_slot(void *p) { atomic_store(&((Slot *)p)->free, true); }

static void make_slot_key(void) {
  if (pthread_key_create(&slot_key, release_slot) != 0)
    mcrt_die("pthread_key_create failed");
}

// This thread's slot: one left by an ended thread, or a new one.
static Slot *take_slot(void) {
  pthread_once(&slot_key_once, make_slot_key);
  Slot *s = NULL;
  for (Slot *t = atomic_load(&slots); t && !s; t = t->next) {
    bool was_free = true;
    if (atomic_compare_exchange_strong(&t->free, &was_free, false))
      s = t;
  }
  if (!s) {
    s = calloc(1, sizeof *s);
    if (!s)
      mcrt_die("out of memory");
    s->next = atomic_load(&slots);
    while (!atomic_compare_exchange_weak(&slots, &s->next, s))
      ;
  }
  s->thread = pthread_self();
  pthread_setspecific(slot_key, s);
  return s;
}

// The bytes of a packed argument (a record or an array).
static size_t packed_bytes(const McrtType *t) { return (t->width + 7) / 8; }

static bool is_packed(const McrtType *t) {
  return t->kind == MCRT_RECORD || t->kind == MCRT_ARRAY;
}

// Whether a call repeats the one that timed out.
static bool known_hang(const McrtExternCall *call) {
  if (!atomic_load_explicit(&hang.set, memory_order_acquire) || call->fn != hang.fn)
    return false;
  for (uint32_t i = 0; i < call->fn->nparams; i++) {
    const McrtType *t = call->fn->params[i].type;
    if (is_packed(t) ? memcmp(call->packed[i], hang.packed[i], packed_bytes(t)) != 0
                     : call->values[i] != hang.values[i])
      return false;
  }
  return true;
}

static void remember_hang(const McrtExternCall *call) {
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&lock);
  if (!atomic_load(&hang.set)) {
    uint32_t n = call->fn->nparams;
    hang.values = calloc(n + 1, sizeof *hang.values);
    hang.packed = calloc(n + 1, sizeof *hang.packed);
    if (!hang.values || !hang.packed)
      mcrt_die("out of memory");
    for (uint32_t i = 0; i < n; i++) {
      const McrtType *t = call->fn->params[i].type;
      hang.values[i] = call->values[i];
      if (is_packed(t) && !(hang.packed[i] = malloc(packed_bytes(t))))
        mcrt_die("out of memory");
      if (is_packed(t))
        memcpy(hang.packed[i], call->packed[i], packed_bytes(t));
    }
    hang.fn = call->fn;
    atomic_store_explicit(&hang.set, true, memory_order_release);
  }
  pthread_mutex_unlock(&lock);
}

// ---------------------------------------------------------------------------
// The calls (generated code).

// Whether a stop signal abandons calls: one came, and the phases it stops
// are not over.
static bool stopping(void) { return mcrt_signal && !atomic_load(&mcrt_search_over); }

void mcrt_extern_begin(McrtExternCall *call) {
  Slot *s = my_slot ? my_slot : (my_slot = take_slot());
  s->current = call;
  if (known_hang(call)) { // abandoned before it starts
    atomic_store(&s->reason, MCRT_CALL_TIMED_OUT);
    longjmp(call->jump, 1);
  }
  uint64_t c = atomic_load_explicit(&s->call, memory_order_relaxed); // even: out of a call
  atomic_store_explicit(&s->call, c + 1, memory_order_release);
}

void mcrt_extern_end(McrtExternCall *call) {
  (void)call;
  Slot *s = my_slot;
  uint64_t c = atomic_load_explicit(&s->call, memory_order_relaxed);
  atomic_store_explicit(&s->call, c + 1, memory_order_release);
}

// The handler of MCRT_KICK_SIGNAL, on the thread the watchdog kicked: out
// of the call, back into its wrapper, if the thread is still inside the
// call the watchdog meant.
static void on_kick(int sig) {
  (void)sig;
  Slot *s = my_slot;
  if (!s)
    return;
  uint64_t c = atomic_load_explicit(&s->call, memory_order_relaxed);
  if (!(c & 1) || atomic_load(&s->kill) != c)
    return;
  atomic_store_explicit(&s->call, c + 1, memory_order_relaxed);
  longjmp(s->current->jump, 1);
}

// The arguments of a call as the spec writes values: "x = 3, r = {a: 1}".
static void print_arguments(FILE *f, const McrtExternCall *call) {
  const McrtExternFn *fn = call->fn;
  for (uint32_t i = 0; i < fn->nparams; i++) {
    const McrtParam *p = &fn->params[i];
    fprintf(f, "%s%s = ", i ? ", " : "", p->name);
    if (is_packed(p->type)) {
      mcrt_print_value(f, p->type, call->packed[i], 0);
      continue;
    }
    // A scalar's value, in the type's encoding (a range: from its lowest).
    uint8_t enc[8 + MCRT_SLACK] = {0};
    uint64_t v = (uint64_t)call->values[i];
    if (p->type->kind == MCRT_RANGE)
      v -= (uint64_t)p->type->lo;
    mcrt_set_wide(enc, 0, p->type->width, v);
    mcrt_print_value(f, p->type, enc, 0);
  }
}

void mcrt_extern_abandoned(McrtCtx *ctx, McrtExternCall *call) {
  // The handler jumped out with its signal blocked (setjmp saves no mask).
  sigset_t kick;
  sigemptyset(&kick);
  sigaddset(&kick, MCRT_KICK_SIGNAL);
  pthread_sigmask(SIG_UNBLOCK, &kick, NULL);
  const McrtExternFn *fn = call->fn;
  int reason = atomic_load(&my_slot->reason);
  char args[256] = "";
  FILE *f = fmemopen(args, sizeof args, "w");
  if (f) {
    print_arguments(f, call);
    fclose(f);
  }
  if (reason == MCRT_CALL_INTERRUPTED) {
    mcrt_runtime_error(ctx, fn->file, fn->line, fn->col,
                       "extern fn '%s' was interrupted by %s: %s(%s)", fn->name,
                       mcrt_signal_name(mcrt_signal), fn->name, args);
  } else {
    mcrt_runtime_error(ctx, fn->file, fn->line, fn->col,
                       "extern fn '%s' did not return within %g s (--extern-timeout): %s(%s)",
                       fn->name, watch.timeout_s, fn->name, args);
    remember_hang(call);
  }
  ctx->err.abandoned = (uint8_t)reason;
}

// ---------------------------------------------------------------------------
// The watchdog thread (main.c starts it for a model with extern functions).

// What the watchdog does with a thread: kicks it out of a call that has
// run too long or that a stop signal finds running.
static void watch_slot(Slot *s, double now) {
  uint64_t c = atomic_load_explicit(&s->call, memory_order_acquire);
  if (!(c & 1))
    return;
  if (c != s->seen)
    s->seen = c, s->since = now;
  bool late = watch.timeout_s > 0 && now - s->since >= watch.timeout_s;
  bool stopped = stopping() && now - s->since >= MCRT_STOP_GRACE_S;
  int reason = stopped ? MCRT_CALL_INTERRUPTED : late ? MCRT_CALL_TIMED_OUT : 0;
  if (!reason || atomic_load(&s->kill) == c)
    return;
  atomic_store(&s->reason, reason);
  atomic_store(&s->kill, c);
  pthread_kill(s->thread, MCRT_KICK_SIGNAL);
}

static void *watch_main(void *arg) {
  (void)arg;
  pthread_mutex_lock(&watch.lock);
  while (!watch.stop) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += MCRT_WATCH_MS * 1000 * 1000;
    until.tv_sec += until.tv_nsec / 1000000000, until.tv_nsec %= 1000000000;
    pthread_cond_timedwait(&watch.wake, &watch.lock, &until);
    double now = mcrt_now();
    for (Slot *s = atomic_load(&slots); s && !watch.stop; s = s->next)
      if (!atomic_load(&s->free))
        watch_slot(s, now);
  }
  pthread_mutex_unlock(&watch.lock);
  return NULL;
}

bool mcrt_watchdog_start(const McrtModel *m, const McrtOptions *opt, FILE *err) {
  if (!m->nextern || watch.running)
    return true;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_kick;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(MCRT_KICK_SIGNAL, &sa, NULL);
  watch.timeout_s = opt->extern_timeout_s;
  watch.stop = false;
  // The watchdog takes no signal: they go to the threads that run the search.
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  int e = pthread_create(&watch.thread, NULL, watch_main, NULL);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (e) {
    fprintf(err, "error: cannot start the thread that watches the C functions' calls: %s\n",
            strerror(e));
    return false;
  }
  watch.running = true;
  return true;
}

void mcrt_watchdog_stop(void) {
  if (!watch.running)
    return;
  pthread_mutex_lock(&watch.lock);
  watch.stop = true;
  pthread_cond_signal(&watch.wake);
  pthread_mutex_unlock(&watch.lock);
  pthread_join(watch.thread, NULL);
  watch.running = false;
}
