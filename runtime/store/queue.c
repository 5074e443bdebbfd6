// SPDX-License-Identifier: MIT
// queue.c: the BFS frontier, the only place where whole states live. A FIFO
// of packed states (exactly state_bytes each) in mmap'd chunks; a chunk is
// given back as soon as its last state is popped, except that one spare is
// kept so that a frontier hovering at a chunk boundary does not map and unmap
// on every state. No ids are stored: in BFS the id of a popped state is the
// number of states popped before it.
#include "store/store.h"

#include <sys/mman.h>

#define MCRT_QUEUE_CHUNK_BYTES ((size_t)1 << 20)

struct McrtChunk {
  McrtChunk *next;
  uint64_t pad; // keeps data 16-byte aligned
  uint8_t data[];
};

void mcrt_queue_init(McrtQueue *q, size_t state_bytes) {
  memset(q, 0, sizeof *q);
  q->state_bytes = state_bytes ? state_bytes : 1;
  size_t bytes = MCRT_QUEUE_CHUNK_BYTES;
  while ((bytes - sizeof(McrtChunk)) / q->state_bytes < 16)
    bytes *= 2;
  q->chunk_bytes = bytes;
  q->per_chunk = (bytes - sizeof(McrtChunk)) / q->state_bytes;
}

// A new chunk, or NULL when the memory cannot be mapped.
static McrtChunk *map_chunk(McrtQueue *q) {
  void *p = mmap(NULL, q->chunk_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return NULL;
  q->nchunks++;
  return p;
}

static void unmap_chunk(McrtQueue *q, McrtChunk *c) {
  munmap(c, q->chunk_bytes);
  q->nchunks--;
}

// Makes c, empty, the queue's last chunk.
static void link_tail(McrtQueue *q, McrtChunk *c) {
  c->next = NULL;
  if (q->tail)
    q->tail->next = c;
  else
    q->head = c, q->head_pos = 0;
  q->tail = c;
  q->tail_pos = 0;
}

void mcrt_queue_free(McrtQueue *q) {
  if (q->disk)
    mcrt_disk_queue_free(q);
  for (McrtChunk *c = q->head, *next; c; c = next) {
    next = c->next;
    unmap_chunk(q, c);
  }
  for (McrtChunk *c = q->taken, *next; c; c = next) {
    next = c->next;
    unmap_chunk(q, c);
  }
  if (q->spare)
    unmap_chunk(q, q->spare);
  q->head = q->tail = q->spare = q->taken = NULL;
  q->length = 0;
}

size_t mcrt_queue_push_bytes(const McrtQueue *q) {
  if (q->disk) // its buffers are allocated once
    return 0;
  bool need = !q->tail || q->tail_pos == q->per_chunk;
  return need && !q->spare ? q->chunk_bytes : 0;
}

bool mcrt_queue_push(McrtQueue *q, const uint8_t *state) {
  if (q->disk)
    return mcrt_disk_queue_push(q, state);
  if (!q->tail || q->tail_pos == q->per_chunk) {
    McrtChunk *c = q->spare;
    if (c)
      q->spare = NULL;
    else if (!(c = map_chunk(q)))
      return false;
    link_tail(q, c);
  }
  memcpy(q->tail->data + q->tail_pos * q->state_bytes, state, q->state_bytes);
  q->tail_pos++;
  q->length++;
  return true;
}

// Gives back a chunk whose states were all popped: it becomes the spare, or
// is unmapped when there is one.
static void release_chunk(McrtQueue *q, McrtChunk *c) {
  if (q->spare)
    unmap_chunk(q, c);
  else
    q->spare = c;
}

// Unlinks the head chunk, consumed (or the queue is empty), and returns it.
static McrtChunk *unlink_head(McrtQueue *q) {
  McrtChunk *c = q->head;
  q->head = c->next;
  q->head_pos = 0;
  if (!q->head)
    q->tail = NULL, q->tail_pos = 0;
  return c;
}

bool mcrt_queue_pop(McrtQueue *q, uint8_t *out) {
  if (q->length == 0)
    return false;
  if (q->disk)
    return mcrt_disk_queue_pop(q, out);
  memcpy(out, q->head->data + q->head_pos * q->state_bytes, q->state_bytes);
  q->head_pos++;
  q->length--;
  if (q->head_pos == q->per_chunk || q->length == 0)
    release_chunk(q, unlink_head(q));
  return true;
}

void mcrt_queue_take(McrtQueue *q, uint64_t n, McrtQueueSpan *spans, size_t *nspans) {
  *nspans = 0;
  while (n > 0) {
    uint64_t m = q->per_chunk - q->head_pos < n ? q->per_chunk - q->head_pos : n;
    spans[(*nspans)++] = (McrtQueueSpan){q->head->data + q->head_pos * q->state_bytes, m};
    q->head_pos += m;
    q->length -= m;
    n -= m;
    if (q->head_pos == q->per_chunk || q->length == 0) {
      McrtChunk *c = unlink_head(q);
      c->next = q->taken;
      q->taken = c;
    }
  }
}

void mcrt_queue_release(McrtQueue *q) {
  for (McrtChunk *c = q->taken, *next; c; c = next) {
    next = c->next;
    release_chunk(q, c);
  }
  q->taken = NULL;
}

bool mcrt_queue_save(const McrtQueue *q, McrtWriteFn *write, void *w) {
  if (q->disk)
    return mcrt_disk_queue_save(q, write, w);
  uint64_t left = q->length;
  size_t pos = q->head_pos;
  for (const McrtChunk *c = q->head; c && left > 0; c = c->next, pos = 0) {
    uint64_t n = q->per_chunk - pos < left ? q->per_chunk - pos : left;
    if (!write(w, c->data + pos * q->state_bytes, (size_t)n * q->state_bytes))
      return false;
    left -= n;
  }
  return left == 0;
}

// Chunks to add for n more states.
static uint64_t chunks_for(const McrtQueue *q, uint64_t n) {
  uint64_t room = q->tail ? q->per_chunk - q->tail_pos : 0;
  return n > room ? (n - room + q->per_chunk - 1) / q->per_chunk : 0;
}

size_t mcrt_queue_append_bytes(const McrtQueue *q, uint64_t n) {
  uint64_t k = chunks_for(q, n);
  return (size_t)(k - (k && q->spare)) * q->chunk_bytes;
}

bool mcrt_queue_append(McrtQueue *q, uint64_t n, McrtQueueSpan *spans, size_t *nspans) {
  // Every chunk is mapped before the queue changes.
  uint64_t k = chunks_for(q, n);
  McrtChunk *fresh = NULL; // linked through next, spare first
  for (uint64_t i = 0; i < k; i++) {
    McrtChunk *c = i == 0 && q->spare ? q->spare : map_chunk(q);
    if (!c) {
      for (McrtChunk *f = fresh, *next; f; f = next) {
        next = f->next;
        if (f != q->spare)
          unmap_chunk(q, f);
      }
      return false;
    }
    c->next = fresh;
    fresh = c;
  }
  if (k && q->spare)
    q->spare = NULL;
  *nspans = 0;
  uint64_t left = n;
  if (q->tail && q->tail_pos < q->per_chunk && left > 0) {
    uint64_t m = q->per_chunk - q->tail_pos < left ? q->per_chunk - q->tail_pos : left;
    spans[(*nspans)++] = (McrtQueueSpan){q->tail->data + q->tail_pos * q->state_bytes, m};
    q->tail_pos += m;
    left -= m;
  }
  while (left > 0) {
    McrtChunk *c = fresh;
    fresh = c->next;
    link_tail(q, c);
    uint64_t m = q->per_chunk < left ? q->per_chunk : left;
    spans[(*nspans)++] = (McrtQueueSpan){c->data, m};
    q->tail_pos = m;
    left -= m;
  }
  q->length += n;
  return true;
}
