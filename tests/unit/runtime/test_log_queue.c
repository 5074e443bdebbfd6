// SPDX-License-Identifier: MIT
// Unit tests of the trace log (runtime/store/log.c) and the frontier (runtime/store/queue.c).
#include <criterion/criterion.h>

#include "store/store.h"

// Appends n records (parents of every width, initial markers among them)
// whose rules stay below max_rule + 1, and reads them back.
static void log_roundtrip(uint64_t max_rule, unsigned rule_bytes, uint64_t n) {
  McrtLog log;
  mcrt_log_init(&log, max_rule);
  cr_assert_eq(log.rule_bytes, rule_bytes);
  for (uint64_t i = 0; i < n; i++)
    cr_assert(mcrt_log_append(&log, i % 1000 == 0 ? MCRT_LOG_INITIAL : (uint32_t)(i - 1 - i % 7),
                              (uint32_t)(i * 7 % (max_rule + 1))));
  cr_assert_eq(log.count, n);
  for (uint64_t i = 0; i < n; i++) {
    McrtLogRecord r = mcrt_log_get(&log, i);
    cr_assert_eq(r.parent, i % 1000 == 0 ? MCRT_LOG_INITIAL : (uint32_t)(i - 1 - i % 7), "%llu",
                 (unsigned long long)i);
    cr_assert_eq(r.rule, (uint32_t)(i * 7 % (max_rule + 1)));
  }
  // Chunk 0 has 2-byte parents, the next 255 chunks 3-byte ones.
  uint64_t chunk = UINT64_C(1) << MCRT_LOG_CHUNK_SHIFT, nchunks = (n + chunk - 1) / chunk;
  size_t want = (2 + rule_bytes) * chunk + (nchunks - 1) * (3 + rule_bytes) * chunk;
  cr_assert_geq(mcrt_log_bytes(&log), want);
  cr_assert_lt(mcrt_log_bytes(&log), want + 4096);
  mcrt_log_free(&log);
}

Test(log, append_and_get_across_chunks) {
  uint64_t n = 3 * (UINT64_C(1) << MCRT_LOG_CHUNK_SHIFT) + 17;
  log_roundtrip(0, 1, n);          // one rule: 1 byte
  log_roundtrip(255, 1, n);
  log_roundtrip(256, 2, n);        // rules need a second byte
  log_roundtrip(70000, 3, n);
  log_roundtrip(UINT32_MAX, 4, n); // the widest
}

Test(log, parent_widths) {
  cr_assert_eq(mcrt_log_parent_bytes(0), 2);
  cr_assert_eq(mcrt_log_parent_bytes(1), 3);
  cr_assert_eq(mcrt_log_parent_bytes(255), 3);
  cr_assert_eq(mcrt_log_parent_bytes(256), 4);
  // The last id of a chunk and the initial marker never collide.
  uint64_t last0 = (UINT64_C(1) << MCRT_LOG_CHUNK_SHIFT) - 1;
  cr_assert_lt(last0 - 1, UINT64_C(0xffff));
  uint64_t last255 = (UINT64_C(256) << MCRT_LOG_CHUNK_SHIFT) - 1;
  cr_assert_lt(last255 - 1, UINT64_C(0xffffff));
}

Test(log, append_bytes_announces_chunks) {
  McrtLog log;
  mcrt_log_init(&log, 10);
  cr_assert_gt(mcrt_log_append_bytes(&log), 0);
  mcrt_log_append(&log, MCRT_LOG_INITIAL, 0);
  cr_assert_eq(mcrt_log_append_bytes(&log), 0);
  mcrt_log_free(&log);
}

static void fill(uint8_t *s, size_t n, uint64_t i) {
  for (size_t k = 0; k < n; k++)
    s[k] = (uint8_t)(i * 31 + k);
}

static void fifo_run(size_t state_bytes, uint64_t n) {
  McrtQueue q;
  mcrt_queue_init(&q, state_bytes);
  uint8_t *s = malloc(state_bytes), *t = malloc(state_bytes);
  uint64_t pushed = 0, popped = 0;
  // Interleave pushes and pops (BFS-like), checking FIFO order.
  while (popped < n) {
    for (int k = 0; k < 3 && pushed < n; k++) {
      fill(s, state_bytes, pushed++);
      cr_assert(mcrt_queue_push(&q, s));
    }
    cr_assert(mcrt_queue_pop(&q, t));
    fill(s, state_bytes, popped++);
    cr_assert(memcmp(s, t, state_bytes) == 0, "state %llu", (unsigned long long)popped - 1);
    cr_assert_eq(q.length, pushed - popped);
  }
  cr_assert(!mcrt_queue_pop(&q, t));
  cr_assert_leq(q.nchunks, 1); // consumed chunks are released (one spare kept)
  mcrt_queue_free(&q);
  cr_assert_eq(q.nchunks, 0);
  free(s);
  free(t);
}

Test(queue, fifo_small_states) { fifo_run(3, 2000000); }
Test(queue, fifo_odd_states) { fifo_run(37, 300000); }
Test(queue, fifo_huge_states) { fifo_run(200000, 100); }

Test(queue, chunks_released_while_draining) {
  McrtQueue q;
  mcrt_queue_init(&q, 8);
  uint8_t s[8] = {0};
  for (uint64_t i = 0; i < 10 * q.per_chunk; i++)
    cr_assert(mcrt_queue_push(&q, s));
  cr_assert_eq(q.nchunks, 10);
  for (uint64_t i = 0; i < 5 * q.per_chunk; i++)
    cr_assert(mcrt_queue_pop(&q, s));
  cr_assert_eq(q.nchunks, 6); // 5 live + 1 spare
  mcrt_queue_free(&q);
}

// The parallel commit's writes (threads.c): records put at their ids after
// mcrt_log_reserve read back as appended ones, across chunks.
Test(log, reserve_and_put) {
  McrtLog log;
  mcrt_log_init(&log, 300);
  uint64_t chunk = UINT64_C(1) << MCRT_LOG_CHUNK_SHIFT;
  for (uint64_t i = 0; i < 10; i++)
    cr_assert(mcrt_log_append(&log, MCRT_LOG_INITIAL, (uint32_t)i));
  uint64_t n = 2 * chunk + 5; // from inside chunk 0 to chunk 2
  size_t before = mcrt_log_bytes(&log);
  size_t need = mcrt_log_reserve_bytes(&log, n);
  cr_assert_gt(need, 0);
  cr_assert(mcrt_log_reserve(&log, n));
  cr_assert_eq(mcrt_log_bytes(&log), before + need);
  cr_assert_eq(mcrt_log_reserve_bytes(&log, n), 0); // mapped already
  for (uint64_t k = n; k-- > 0;) // any order
    mcrt_log_put(&log, 10 + k, (uint32_t)(k / 3), (uint32_t)(k % 301));
  log.count += n;
  cr_assert(mcrt_log_append(&log, 7, 9)); // appends go on after them
  for (uint64_t k = 0; k < n; k++) {
    McrtLogRecord r = mcrt_log_get(&log, 10 + k);
    cr_assert_eq(r.parent, (uint32_t)(k / 3), "%llu", (unsigned long long)k);
    cr_assert_eq(r.rule, (uint32_t)(k % 301));
  }
  McrtLogRecord r = mcrt_log_get(&log, 10 + n);
  cr_assert(r.parent == 7 && r.rule == 9);
  cr_assert_eq(mcrt_log_get(&log, 3).parent, MCRT_LOG_INITIAL);
  mcrt_log_free(&log);
}

// mcrt_queue_append's spans, filled by the caller, pop in order after the
// states pushed before them, and pushes go on after them; the bytes it
// announces are the chunks it maps.
Test(queue, append_spans) {
  McrtQueue q;
  mcrt_queue_init(&q, 37);
  uint8_t s[37], t[37];
  uint64_t pushed = 0, popped = 0;
  for (; pushed < q.per_chunk - 3; pushed++) { // the appends cross a chunk's end
    fill(s, 37, pushed);
    cr_assert(mcrt_queue_push(&q, s));
  }
  for (int round = 0; round < 3; round++) {
    uint64_t n = round == 0 ? 0 : round == 1 ? 5 : 3 * q.per_chunk + 11;
    McrtQueueSpan spans[8];
    size_t nspans = 0, mapped = q.nchunks, need = mcrt_queue_append_bytes(&q, n);
    cr_assert(mcrt_queue_append(&q, n, spans, &nspans));
    cr_assert_leq(nspans, n / q.per_chunk + 2);
    cr_assert_eq((q.nchunks - mapped) * q.chunk_bytes, need);
    uint64_t k = 0;
    for (size_t i = 0; i < nspans; i++)
      for (uint64_t j = 0; j < spans[i].n; j++, k++)
        fill(spans[i].at + j * 37, 37, pushed + k);
    cr_assert_eq(k, n);
    pushed += n;
    fill(s, 37, pushed++);
    cr_assert(mcrt_queue_push(&q, s));
    for (uint64_t i = 0; i < q.per_chunk / 3; i++) { // drain some, so the spare is used
      cr_assert(mcrt_queue_pop(&q, t));
      fill(s, 37, popped++);
      cr_assert(memcmp(s, t, 37) == 0, "state %llu", (unsigned long long)popped - 1);
    }
  }
  while (mcrt_queue_pop(&q, t)) {
    fill(s, 37, popped++);
    cr_assert(memcmp(s, t, 37) == 0, "state %llu", (unsigned long long)popped - 1);
  }
  cr_assert_eq(popped, pushed);
  mcrt_queue_free(&q);
  cr_assert_eq(q.nchunks, 0);
}

// mcrt_queue_take (threads.c's windows): the spans hold the oldest states
// in order, across chunks; the chunks they emptied stay mapped, readable,
// while appends and pushes go on, until mcrt_queue_release gives them back
// (one kept as the spare); pops then go on where the take ended.
Test(queue, take_spans_then_release) {
  McrtQueue q;
  mcrt_queue_init(&q, 37);
  uint8_t s[37], t[37];
  uint64_t pushed = 0, popped = 0;
  for (; pushed < 4 * q.per_chunk + 5; pushed++) {
    fill(s, 37, pushed);
    cr_assert(mcrt_queue_push(&q, s));
  }
  for (int round = 0; round < 4; round++) {
    uint64_t n = round == 0 ? 0 : round == 1 ? 7 : round == 2 ? 2 * q.per_chunk + 1 : q.length;
    McrtQueueSpan spans[8];
    size_t nspans = 0, mapped = q.nchunks;
    uint64_t length = q.length;
    mcrt_queue_take(&q, n, spans, &nspans);
    cr_assert_leq(nspans, n / q.per_chunk + 2);
    cr_assert_eq(q.length, length - n);
    cr_assert_eq(q.nchunks, mapped); // nothing unmapped before the release
    McrtQueueSpan more[2];
    size_t nmore = 0;
    cr_assert(mcrt_queue_append(&q, 3, more, &nmore)); // appends do not touch the taken bytes
    uint64_t k = 0;
    for (size_t i = 0; i < nmore; i++)
      for (uint64_t j = 0; j < more[i].n; j++, k++)
        fill(more[i].at + j * 37, 37, pushed + k);
    pushed += 3;
    k = 0;
    for (size_t i = 0; i < nspans; i++)
      for (uint64_t j = 0; j < spans[i].n; j++, k++) {
        fill(s, 37, popped++);
        cr_assert(memcmp(s, spans[i].at + j * 37, 37) == 0, "state %llu", (unsigned long long)popped - 1);
      }
    cr_assert_eq(k, n);
    mcrt_queue_release(&q);
    cr_assert_null(q.taken);
    cr_assert_leq(q.nchunks, (q.length + q.per_chunk - 1) / q.per_chunk + 2); // live, tail, spare
  }
  while (mcrt_queue_pop(&q, t)) {
    fill(s, 37, popped++);
    cr_assert(memcmp(s, t, 37) == 0, "state %llu", (unsigned long long)popped - 1);
  }
  cr_assert_eq(popped, pushed);
  McrtQueueSpan spans[2];
  size_t nspans = 0;
  cr_assert(mcrt_queue_push(&q, s));
  mcrt_queue_take(&q, 1, spans, &nspans); // empties the queue: its last chunk is taken
  cr_assert_eq(q.length, 0);
  cr_assert_not_null(q.taken);
  mcrt_queue_free(&q); // unmaps the taken chunks too
  cr_assert_eq(q.nchunks, 0);
}
