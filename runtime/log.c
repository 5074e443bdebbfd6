// log.c: the trace log. One fixed-size record {parent id, rule} per
// discovered state, in id order, so that a trace is rebuilt by walking
// parents back to an initial state and replaying forward.
//
// Width: records are 8 bytes (32-bit parent, 32-bit rule). The search stops
// with an "incomplete" result (bound max-states) before a state would get id
// 2^32-1 (that value marks "initial state"), and refuses at start a model with
// 2^32 or more rule bindings; wide records are not needed for any model that
// fits in memory today.
//
// Records live in mmap'd chunks of 2^MCRT_LOG_CHUNK_SHIFT records; only the
// small array of chunk pointers is ever reallocated.
#include "internal.h"

#include <stdlib.h>
#include <sys/mman.h>

#define CHUNK_BYTES ((size_t)sizeof(McrtLogRecord) << MCRT_LOG_CHUNK_SHIFT)

void mcrt_log_init(McrtLog *log) { memset(log, 0, sizeof *log); }

void mcrt_log_free(McrtLog *log) {
  for (size_t i = 0; i < log->nchunks; i++)
    munmap(log->chunks[i], CHUNK_BYTES);
  free(log->chunks);
  memset(log, 0, sizeof *log);
}

size_t mcrt_log_append_bytes(const McrtLog *log) {
  return (log->count >> MCRT_LOG_CHUNK_SHIFT) == log->nchunks ? CHUNK_BYTES : 0;
}

bool mcrt_log_add_chunk(McrtLog *log) {
  if (log->nchunks == log->chunks_cap) {
    size_t cap = log->chunks_cap ? 2 * log->chunks_cap : 64;
    McrtLogRecord **c = realloc(log->chunks, cap * sizeof *c);
    if (!c)
      return false;
    log->chunks = c;
    log->chunks_cap = cap;
  }
  void *p = mmap(NULL, CHUNK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return false;
  log->chunks[log->nchunks++] = p;
  return true;
}

size_t mcrt_log_bytes(const McrtLog *log) {
  return log->nchunks * CHUNK_BYTES + log->chunks_cap * sizeof *log->chunks;
}
