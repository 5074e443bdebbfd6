// SPDX-License-Identifier: MIT
// pool.c: the threads of a parallel engine (threads.c, and the threads
// inside an MPI rank, mpi.c) and the barrier where they meet. The caller is
// thread 0; threads 1..n-1 run the engine's loop, which meets the others at
// mcrt_pool_barrier between phases and returns when the engine tells it to
// quit (through its own phase or flag, then a last barrier).
//
// A thread that arrives early polls the barrier as long as the others make
// progress, and sleeps once none did for PATIENCE_S: each thread beats
// (mcrt_pool_beat) at every chunk, block or stretch of work of a phase. On
// an idle machine the waits of a window's phases are tens of microseconds,
// and a sleeper takes longer than that to wake (on the virtual machines
// measured, sleeping after a fixed spin of some 25 microseconds made the
// threads sleep at nearly every barrier: 0.2 s of 1.6 s at 2 threads on
// bakery.5, and spinning on cut it to 0.04). On a loaded machine a thread
// often waits for one that was descheduled: it makes no progress, and the
// waiter sleeps instead of taking the core from it (yielding the core
// instead, with sched_yield, made a run under load twice as long:
// docs/journal/threads.md). With more threads than cores some are always
// descheduled while others beat: a waiter then polls POLLS times only (at.3
// at 8 threads on 2 cores took 3.4 times as long when they polled on).
// The last to arrive bumps the generation, then broadcasts under the mutex,
// so a thread that checked the generation under the mutex cannot miss it.
#include "engine/engine.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define PATIENCE_S 200e-6 // a thread waits polling while another made progress this recently
#define POLLS 64          // polls of the barrier between two looks at the clock

bool mcrt_pool_start(McrtPool *P, uint32_t n, void *(*loop)(void *), void *args, size_t stride) {
  memset(P, 0, sizeof *P);
  P->beat = aligned_alloc(MCRT_LINE, (size_t)n * sizeof *P->beat);
  P->threads = calloc(n, sizeof *P->threads);
  P->waited = calloc(n, sizeof *P->waited);
  if (!P->beat || !P->threads || !P->waited) {
    free(P->beat), free(P->threads), free(P->waited);
    return false;
  }
  memset(P->beat, 0, (size_t)n * sizeof *P->beat);
  P->time_waits = getenv("MCRT_THREAD_WAIT") != NULL;
  P->poll = n <= mcrt_cores();
  pthread_mutex_init(&P->mu, NULL);
  pthread_cond_init(&P->cv, NULL);
  P->n = 1;
  for (uint32_t i = 1; i < n; i++) {
    // Under the mutex: a thread started may already wait at the barrier,
    // which counts the threads started.
    pthread_mutex_lock(&P->mu);
    bool ok = pthread_create(&P->threads[i], NULL, loop, (char *)args + i * stride) == 0;
    if (ok)
      P->n++;
    pthread_mutex_unlock(&P->mu);
    if (!ok)
      break;
  }
  return true;
}

static uint64_t beats(const McrtPool *P) {
  uint64_t sum = 0;
  for (uint32_t i = 0; i < P->n; i++)
    sum += atomic_load_explicit(&P->beat[i].n, memory_order_relaxed);
  return sum;
}

static void barrier_wait(McrtPool *P) {
  pthread_mutex_lock(&P->mu);
  uint64_t gen = atomic_load_explicit(&P->generation, memory_order_relaxed);
  if (++P->arrived == P->n) {
    P->arrived = 0;
    P->barriers++;
    atomic_store_explicit(&P->generation, gen + 1, memory_order_release);
    pthread_cond_broadcast(&P->cv);
    pthread_mutex_unlock(&P->mu);
    return;
  }
  pthread_mutex_unlock(&P->mu);
  uint64_t seen = beats(P);
  double deadline = mcrt_now() + PATIENCE_S;
  for (;;) {
    for (uint32_t i = 0; i < POLLS; i++) {
      if (atomic_load_explicit(&P->generation, memory_order_acquire) != gen)
        return;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
    if (!P->poll)
      break;
    double now = mcrt_now();
    uint64_t b = beats(P);
    if (b != seen)
      seen = b, deadline = now + PATIENCE_S;
    else if (now >= deadline)
      break;
  }
  pthread_mutex_lock(&P->mu);
  while (atomic_load_explicit(&P->generation, memory_order_acquire) == gen)
    pthread_cond_wait(&P->cv, &P->mu);
  pthread_mutex_unlock(&P->mu);
}

void mcrt_pool_barrier(McrtPool *P, uint32_t self) {
  if (!P->time_waits) {
    barrier_wait(P);
    return;
  }
  double t0 = mcrt_now();
  barrier_wait(P);
  P->waited[self] += mcrt_now() - t0;
}

void mcrt_pool_join(McrtPool *P, const char *name) {
  for (uint32_t i = 1; i < P->n; i++)
    pthread_join(P->threads[i], NULL);
  pthread_mutex_destroy(&P->mu);
  pthread_cond_destroy(&P->cv);
  if (P->time_waits) {
    fprintf(stderr, "%s: %" PRIu64 " barriers; waited (s):", name, P->barriers);
    for (uint32_t i = 0; i < P->n; i++)
      fprintf(stderr, " %.3f", P->waited[i]);
    fputc('\n', stderr);
  }
  free(P->beat), free(P->threads), free(P->waited);
  memset(P, 0, sizeof *P);
}

void mcrt_worker_ctx(McrtCtx *wc, const McrtCtx *ctx,
                     bool (*emit)(McrtCtx *, const uint8_t *, uint32_t, uint64_t), void *worker) {
  wc->model = ctx->model;
  wc->opt = ctx->opt;
  wc->state_bytes = ctx->state_bytes;
  wc->fp_bits = ctx->fp_bits;
  wc->emit = emit;
  wc->worker = worker;
  wc->cur_id = MCRT_NO_STATE;
  mcrt_profile_init(&wc->prof, ctx->model); // (out of memory: this worker's expansions untimed)
  if (ctx->sym)
    wc->sym = mcrt_sym_new(ctx->model, ctx->opt->sym_method);
}

// ---------------------------------------------------------------------------
// A team: the pool's threads as a fork and a join around one function at a
// time (the analyses after the search, analysis/).

static void *team_loop(void *arg) {
  McrtTeamSeat *seat = arg;
  McrtTeam *t = seat->team;
  for (;;) {
    mcrt_pool_barrier(&t->pool, seat->self); // the fork
    if (t->quit)
      return NULL;
    t->fn(t->arg, seat->self);
    mcrt_pool_barrier(&t->pool, seat->self); // the join
  }
}

bool mcrt_team_start(McrtTeam *t, uint32_t n) {
  memset(t, 0, sizeof *t);
  t->seats = calloc(n ? n : 1, sizeof *t->seats);
  if (!t->seats)
    return false;
  for (uint32_t i = 0; i < n; i++)
    t->seats[i].team = t, t->seats[i].self = i;
  if (n <= 1) {
    t->pool.n = 1;
    return true;
  }
  if (!mcrt_pool_start(&t->pool, n, team_loop, t->seats, sizeof *t->seats)) {
    free(t->seats);
    return false;
  }
  return true;
}

void mcrt_team_run(McrtTeam *t, void (*fn)(void *arg, uint32_t self), void *arg) {
  t->fn = fn, t->arg = arg;
  if (t->pool.n > 1)
    mcrt_pool_barrier(&t->pool, 0);
  fn(arg, 0);
  if (t->pool.n > 1)
    mcrt_pool_barrier(&t->pool, 0);
}

void mcrt_team_stop(McrtTeam *t) {
  if (t->pool.n > 1) {
    t->quit = true;
    mcrt_pool_barrier(&t->pool, 0);
    mcrt_pool_join(&t->pool, "liveness");
  }
  free(t->seats);
  memset(t, 0, sizeof *t);
}
