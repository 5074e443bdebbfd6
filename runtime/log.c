// log.c: the trace log. One fixed-size record {parent id, rule} per
// discovered state, in id order, so that a trace is rebuilt by walking
// parents back to an initial state and replaying forward.
//
// Width: a record is a 32-bit parent and the rule in 1 to 4 bytes, as few as
// the model's largest rule index needs: 5 bytes for most models, where a
// fixed 8 would cost 3 bytes more per state. The search stops
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

#define CHUNK_BYTES(log) ((size_t)(log)->rec_bytes << MCRT_LOG_CHUNK_SHIFT)

void mcrt_log_init(McrtLog *log, uint64_t max_rule) {
  memset(log, 0, sizeof *log);
  log->rule_bytes = 1;
  while (log->rule_bytes < 4 && (max_rule >> (8 * log->rule_bytes)) != 0)
    log->rule_bytes++;
  log->rec_bytes = 4 + log->rule_bytes;
}

void mcrt_log_free(McrtLog *log) {
  for (size_t i = 0; i < log->nchunks; i++)
    munmap(log->chunks[i], CHUNK_BYTES(log));
  free(log->chunks);
  unsigned rule_bytes = log->rule_bytes;
  memset(log, 0, sizeof *log);
  log->rule_bytes = rule_bytes, log->rec_bytes = 4 + rule_bytes;
}

size_t mcrt_log_append_bytes(const McrtLog *log) {
  return (log->count >> MCRT_LOG_CHUNK_SHIFT) == log->nchunks ? CHUNK_BYTES(log) : 0;
}

bool mcrt_log_add_chunk(McrtLog *log) {
  if (log->nchunks == log->chunks_cap) {
    size_t cap = log->chunks_cap ? 2 * log->chunks_cap : 64;
    uint8_t **c = realloc(log->chunks, cap * sizeof *c);
    if (!c)
      return false;
    log->chunks = c;
    log->chunks_cap = cap;
  }
  void *p = mmap(NULL, CHUNK_BYTES(log), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return false;
  log->chunks[log->nchunks++] = p;
  return true;
}

size_t mcrt_log_bytes(const McrtLog *log) {
  return log->nchunks * CHUNK_BYTES(log) + log->chunks_cap * sizeof *log->chunks;
}
