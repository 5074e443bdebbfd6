// SPDX-License-Identifier: MIT
// timeline.c: the search's course over time, for the report's plots
// (states per second, frontier, memory): its counters sampled when the
// search starts, every `every` seconds while it runs (the engines look at
// the clock every MCRT_PROGRESS_EVERY expansions, or at each commit of
// the threads) and when it ends, however it ends (a bound, a signal).
//
// The samples are bounded: the interval starts at 10 ms, and when
// MCRT_SAMPLES are kept every other one is dropped and the interval
// doubles. A run of T seconds keeps at least min(T / 0.01,
// MCRT_SAMPLES / 2) samples, so one at least every 10 s (the default
// --progress) up to 2048 * 10 s, about 5.7 hours.
#include "context/context.h"

#include <stdlib.h>

#define FIRST_INTERVAL 0.01

static void halve(McrtTimeline *tl) {
  uint32_t k = 0;
  for (uint32_t i = 0; i < tl->n; i += 2)
    tl->s[k++] = tl->s[i];
  tl->n = k;
  tl->every *= 2;
}

void mcrt_timeline_sample(McrtCtx *ctx, bool force) {
  McrtTimeline *tl = ctx->timeline;
  if (!tl)
    return;
  double now = mcrt_now();
  if (!force && now < tl->next)
    return;
  if (tl->n == 0) {
    tl->origin = now;
    tl->every = FIRST_INTERVAL;
  }
  if (tl->n == MCRT_SAMPLES)
    halve(tl);
  tl->s[tl->n++] = (McrtSample){
      .t = now - tl->origin,
      .states = ctx->states,
      .transitions = ctx->transitions,
      .frontier = ctx->queue.length,
      .depth = ctx->depth,
      .memory = mcrt_accounted_bytes(ctx),
  };
  tl->next = now + tl->every;
}
