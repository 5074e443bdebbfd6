// SPDX-License-Identifier: MIT
// log.c: the trace log. One fixed-size record {parent id, rule} per
// discovered state, in id order, so that a trace is rebuilt by walking
// parents back to an initial state and replaying forward.
//
// Width: records are fixed-size within a chunk and as narrow as the chunk's
// ids and the model's rules allow (store/store.h): 4 bytes for most models under
// 2^24 states, where a plain {u32, u32} would cost 8. The search stops
// with an "incomplete" result (bound max-states) before a state would get id
// 2^32-1 (that value marks "initial state"), and refuses at start a model with
// 2^32 or more rule bindings; wide records are not needed for any model that
// fits in memory today.
//
// Records live in mmap'd chunks of 2^MCRT_LOG_CHUNK_SHIFT records; only the
// small array of chunk pointers is ever reallocated.
#include "store/store.h"

#include <stdlib.h>
#include <sys/mman.h>

static size_t chunk_bytes(const McrtLog *log, uint64_t c) {
  return (size_t)(mcrt_log_parent_bytes(c) + log->rule_bytes) << MCRT_LOG_CHUNK_SHIFT;
}

void mcrt_log_init(McrtLog *log, uint64_t max_rule) {
  memset(log, 0, sizeof *log);
  log->rule_bytes = 1;
  while (log->rule_bytes < 4 && (max_rule >> (8 * log->rule_bytes)) != 0)
    log->rule_bytes++;
}

void mcrt_log_free(McrtLog *log) {
  for (size_t i = 0; i < log->nchunks; i++)
    if (log->chunks[i]) // NULL: on disk
      munmap(log->chunks[i], chunk_bytes(log, i));
  free(log->chunks);
  unsigned rule_bytes = log->rule_bytes;
  memset(log, 0, sizeof *log);
  log->rule_bytes = rule_bytes;
}

size_t mcrt_log_append_bytes(const McrtLog *log) {
  uint64_t c = log->count >> MCRT_LOG_CHUNK_SHIFT;
  return c == log->nchunks ? chunk_bytes(log, c) : 0;
}

bool mcrt_log_add_chunk(McrtLog *log) {
  if (log->disk && !mcrt_disk_log_spill(log)) // --disk: full chunks go to the file
    return false;
  if (log->nchunks == log->chunks_cap) {
    size_t cap = log->chunks_cap ? 2 * log->chunks_cap : 64;
    uint8_t **c = realloc(log->chunks, cap * sizeof *c);
    if (!c)
      return false;
    log->chunks = c;
    log->chunks_cap = cap;
  }
  void *p = mmap(NULL, chunk_bytes(log, log->nchunks), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return false;
  log->chunks[log->nchunks++] = p;
  return true;
}

size_t mcrt_log_bytes(const McrtLog *log) {
  size_t bytes = log->chunks_cap * sizeof *log->chunks;
  for (size_t i = log->disk_chunks; i < log->nchunks; i++) // those before are on disk
    bytes += chunk_bytes(log, i);
  return bytes;
}

size_t mcrt_log_reserve_bytes(const McrtLog *log, uint64_t n) {
  size_t bytes = 0;
  uint64_t last = n ? (log->count + n - 1) >> MCRT_LOG_CHUNK_SHIFT : 0;
  for (uint64_t c = log->nchunks; n && c <= last; c++)
    bytes += chunk_bytes(log, c);
  return bytes;
}

bool mcrt_log_reserve(McrtLog *log, uint64_t n) {
  uint64_t last = n ? (log->count + n - 1) >> MCRT_LOG_CHUNK_SHIFT : 0;
  while (n && log->nchunks <= last)
    if (!mcrt_log_add_chunk(log))
      return false;
  return true;
}
