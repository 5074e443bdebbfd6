// SPDX-License-Identifier: MIT
// disk.c: --disk DIR, the trace log and the frontier in files, so that RAM
// holds the fingerprint set and two bounded windows.
//
// The frontier is a FIFO: pushes fill a write block of MCRT_DISK_BLOCK bytes (whole
// states), appended to the file with one pwritev(2) when full; pops drain a
// read block, refilled from the file with one pread(2), or, once the file
// is read to its end, by taking the write block itself (the two buffers
// swap). What has been read is punched out of the file (fallocate), so the
// disk holds the frontier and nothing more. In BFS both ends move forward,
// so every access is sequential.
//
// The trace log keeps its chunks (log.c); a full chunk stays in RAM until
// the full chunks not yet written make a block, then they are appended with
// one pwritev(2) and unmapped (their pointer becomes NULL). The log is read
// back only to build a trace: one pread(2) per record of the path.
//
// The files are unlinked as soon as they are open: nothing is left in DIR
// when the run ends, however it ends (a checkpoint copies what it needs).
// The first failure (DIR missing or unwritable, the disk full, an I/O
// error) is recorded with its file and errno; the log's and the queue's
// operations then fail and the search stops with MCRT_BOUND_DISK, an
// orderly "incomplete" whose summary names the file and the reason.
//
// Test hooks: MCRT_TEST_DISK_LIMIT=BYTES makes writes beyond BYTES in all
// fail with ENOSPC, a full disk where no small file system can be mounted;
// MCRT_TEST_DISK_BLOCK=BYTES shrinks the blocks, so that small models
// exercise every path (spills, refills, the buffers' swap).
#include "store/store.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define MCRT_DISK_BLOCK ((size_t)4 << 20) // bytes per write or read

typedef struct McrtDiskQueue {
  McrtDiskFile *file;
  size_t state_bytes;
  size_t block_states;   // states per block
  uint8_t *wbuf, *rbuf;  // a block each (malloc'd once)
  size_t wlen;           // states in wbuf
  size_t rpos, rlen;     // next state to pop in rbuf, states in rbuf
  uint64_t read_off;     // file offset of the first unread byte
} McrtDiskQueue;

static uint64_t written_total; // all files (MCRT_TEST_DISK_LIMIT)
static uint64_t test_limit = UINT64_MAX;
static size_t block = MCRT_DISK_BLOCK;

static bool fail(McrtDiskFile *f, const char *op, int err) {
  if (!f->err)
    f->err = err ? err : EIO, f->op = op;
  return false;
}

static void open_file(McrtDiskFile *f, const char *dir, const char *name) {
  f->fd = -1;
  size_t n = strlen(dir) + strlen(name) + 16;
  f->path = malloc(n);
  if (!f->path) {
    fail(f, "create", ENOMEM);
    return;
  }
  snprintf(f->path, n, "%s/%s.XXXXXX", dir, name);
  f->fd = mkostemp(f->path, O_CLOEXEC);
  if (f->fd < 0) {
    // The file's name is a pattern: say the directory.
    snprintf(f->path, n, "%s", dir);
    fail(f, "create a file in", errno);
    return;
  }
  unlink(f->path);
}

// Appends n bytes at the file's end (iov: n bytes in cnt pieces).
static bool append(McrtDiskFile *f, const struct iovec *iov, int cnt, size_t n) {
  if (f->err)
    return false;
  if (written_total + n > test_limit)
    return fail(f, "write", ENOSPC);
  struct iovec v[64];
  memcpy(v, iov, (size_t)cnt * sizeof *iov);
  size_t done = 0;
  int first = 0;
  while (done < n) {
    ssize_t w = pwritev(f->fd, v + first, cnt - first, (off_t)(f->size + done));
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return fail(f, "write", w < 0 ? errno : ENOSPC);
    done += (size_t)w;
    for (size_t k = (size_t)w; k > 0;) { // skip what was written
      size_t t = k < v[first].iov_len ? k : v[first].iov_len;
      v[first].iov_base = (char *)v[first].iov_base + t;
      v[first].iov_len -= t;
      k -= t;
      if (v[first].iov_len == 0 && first < cnt - 1)
        first++;
    }
  }
  f->size += n;
  written_total += n;
  return true;
}

static bool read_at(McrtDiskFile *f, void *p, size_t n, uint64_t off) {
  for (size_t done = 0; done < n;) {
    ssize_t r = pread(f->fd, (char *)p + done, n - done, (off_t)(off + done));
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return fail(f, "read", r < 0 ? errno : EIO);
    done += (size_t)r;
  }
  return true;
}

McrtDisk *mcrt_disk_open(const char *dir, McrtLog *log, McrtQueue *queue) {
  McrtDisk *d = calloc(1, sizeof *d);
  McrtDiskQueue *q = calloc(1, sizeof *q);
  if (!d || !q) {
    free(d), free(q);
    return NULL;
  }
  const char *v = getenv("MCRT_TEST_DISK_LIMIT");
  test_limit = v && *v ? strtoull(v, NULL, 10) : UINT64_MAX;
  v = getenv("MCRT_TEST_DISK_BLOCK");
  block = v && *v && strtoull(v, NULL, 10) > 0 ? (size_t)strtoull(v, NULL, 10) : MCRT_DISK_BLOCK;
  mkdir(dir, 0777); // one level, as --checkpoint; an error shows below
  open_file(&d->log, dir, "mcgen-log");
  open_file(&d->frontier, dir, "mcgen-frontier");
  q->file = &d->frontier;
  q->state_bytes = queue->state_bytes;
  q->block_states = block / q->state_bytes ? block / q->state_bytes : 1;
  q->wbuf = malloc(q->block_states * q->state_bytes);
  q->rbuf = malloc(q->block_states * q->state_bytes);
  queue->disk = q; // mcrt_queue_free frees q
  log->disk = &d->log;
  if (!q->wbuf || !q->rbuf) {
    mcrt_disk_close(d);
    return NULL;
  }
  return d;
}

void mcrt_disk_close(McrtDisk *d) {
  if (!d)
    return;
  if (d->log.fd >= 0)
    close(d->log.fd);
  if (d->frontier.fd >= 0)
    close(d->frontier.fd);
  free(d->log.path);
  free(d->frontier.path);
  free(d);
}

const McrtDiskFile *mcrt_disk_failure(const McrtDisk *d) {
  return !d ? NULL : d->log.err ? &d->log : d->frontier.err ? &d->frontier : NULL;
}

uint64_t mcrt_disk_bytes(const McrtDisk *d) {
  return d ? d->log.size + d->frontier.size - d->frontier.released : 0;
}

// ---------------------------------------------------------------------------
// The trace log.

static size_t log_chunk_bytes(const McrtLog *log, uint64_t c) {
  return (size_t)(mcrt_log_parent_bytes(c) + log->rule_bytes) << MCRT_LOG_CHUNK_SHIFT;
}

// The file offset of chunk c: the full chunks before it, in order.
static uint64_t chunk_offset(const McrtLog *log, uint64_t c) {
  uint64_t parent = c == 0 ? 0 : 2 + 3 * (c - 1 < 255 ? c - 1 : 255) + 4 * (c > 256 ? c - 256 : 0);
  return (parent + (uint64_t)log->rule_bytes * c) << MCRT_LOG_CHUNK_SHIFT;
}

bool mcrt_disk_log_spill(McrtLog *log) {
  McrtDiskFile *f = log->disk;
  if (f->err)
    return false;
  size_t pending = 0; // full chunks in RAM: all but the last (being filled)
  size_t last = log->nchunks;
  for (size_t c = log->disk_chunks; c < last; c++)
    pending += log_chunk_bytes(log, c);
  if (pending < block && last - log->disk_chunks < 64)
    return true;
  struct iovec iov[64];
  int cnt = 0;
  for (size_t c = log->disk_chunks; c < last; c++)
    iov[cnt++] = (struct iovec){log->chunks[c], log_chunk_bytes(log, c)};
  if (f->size != chunk_offset(log, log->disk_chunks))
    mcrt_die("disk log: the file has %" PRIu64 " bytes, chunk %zu starts at %" PRIu64, f->size,
             log->disk_chunks, chunk_offset(log, log->disk_chunks));
  if (!append(f, iov, cnt, pending))
    return false;
  for (size_t c = log->disk_chunks; c < last; c++) {
    munmap(log->chunks[c], log_chunk_bytes(log, c));
    log->chunks[c] = NULL;
  }
  log->disk_chunks = last;
  return true;
}

McrtLogRecord mcrt_disk_log_get(const McrtLog *log, uint64_t id) {
  uint64_t c = id >> MCRT_LOG_CHUNK_SHIFT;
  unsigned pb = mcrt_log_parent_bytes(c);
  uint8_t rec[8] = {0};
  McrtLogRecord r = {MCRT_LOG_INITIAL, 0};
  uint64_t off = chunk_offset(log, c) + (id & MCRT_LOG_CHUNK_MASK) * (pb + log->rule_bytes);
  if (!read_at(log->disk, rec, pb + log->rule_bytes, off)) {
    fprintf(stderr, "error: --disk: cannot read the trace log %s: %s: the trace printed is not "
                    "the search's\n",
            log->disk->path, strerror(log->disk->err));
    return r;
  }
  r.parent = 0;
  memcpy(&r.parent, rec, pb);
  if (r.parent == (uint32_t)(UINT64_C(0xffffffff) >> (32 - 8 * pb)))
    r.parent = MCRT_LOG_INITIAL;
  memcpy(&r.rule, rec + pb, log->rule_bytes);
  return r;
}

bool mcrt_log_save(const McrtLog *log, McrtWriteFn *write, void *w) {
  uint8_t *buf = NULL;
  if (log->disk_chunks) { // on disk: copied a block at a time
    buf = malloc(block);
    if (!buf)
      return false;
    uint64_t end = chunk_offset(log, log->disk_chunks);
    for (uint64_t off = 0; off < end; off += block) {
      size_t n = end - off < block ? (size_t)(end - off) : block;
      if (!read_at(log->disk, buf, n, off) || !write(w, buf, n)) {
        free(buf);
        return false;
      }
    }
    free(buf);
  }
  for (size_t c = log->disk_chunks; c < log->nchunks; c++) {
    uint64_t first = (uint64_t)c << MCRT_LOG_CHUNK_SHIFT;
    uint64_t n = log->count - first < (UINT64_C(1) << MCRT_LOG_CHUNK_SHIFT)
                     ? log->count - first
                     : UINT64_C(1) << MCRT_LOG_CHUNK_SHIFT;
    if (!write(w, log->chunks[c], (size_t)n * (mcrt_log_parent_bytes(c) + log->rule_bytes)))
      return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// The frontier.

size_t mcrt_disk_queue_bytes(const McrtQueue *q) {
  return 2 * q->disk->block_states * q->disk->state_bytes;
}

bool mcrt_disk_queue_push(McrtQueue *q, const uint8_t *state) {
  McrtDiskQueue *d = q->disk;
  if (d->file->err)
    return false;
  if (d->wlen == d->block_states) {
    struct iovec iov = {d->wbuf, d->wlen * d->state_bytes};
    if (!append(d->file, &iov, 1, iov.iov_len))
      return false;
    d->wlen = 0;
  }
  memcpy(d->wbuf + d->wlen++ * d->state_bytes, state, d->state_bytes);
  q->length++;
  return true;
}

bool mcrt_disk_queue_pop(McrtQueue *q, uint8_t *out) {
  McrtDiskQueue *d = q->disk;
  if (d->rpos == d->rlen) {
    McrtDiskFile *f = d->file;
    if (d->read_off < f->size) { // the next block of the file
      uint64_t left = f->size - d->read_off;
      size_t n = left < d->block_states * d->state_bytes ? (size_t)left
                                                           : d->block_states * d->state_bytes;
      if (f->err || !read_at(f, d->rbuf, n, d->read_off))
        return false;
      // Read: give its blocks back (where the file system can).
      if (fallocate(f->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)d->read_off,
                    (off_t)n) == 0)
        f->released += n;
      d->read_off += n;
      d->rlen = n / d->state_bytes;
    } else { // the file is read: the states being written come next
      uint8_t *t = d->rbuf;
      d->rbuf = d->wbuf, d->wbuf = t;
      d->rlen = d->wlen, d->wlen = 0;
    }
    d->rpos = 0;
  }
  memcpy(out, d->rbuf + d->rpos++ * d->state_bytes, d->state_bytes);
  q->length--;
  return true;
}

void mcrt_disk_queue_free(McrtQueue *q) {
  McrtDiskQueue *d = q->disk;
  free(d->wbuf);
  free(d->rbuf);
  free(d);
  q->disk = NULL;
  q->length = 0;
}

bool mcrt_disk_queue_save(const McrtQueue *q, McrtWriteFn *write, void *w) {
  const McrtDiskQueue *d = q->disk;
  if (!write(w, d->rbuf + d->rpos * d->state_bytes, (d->rlen - d->rpos) * d->state_bytes))
    return false;
  if (d->read_off < d->file->size) {
    uint8_t *buf = malloc(block);
    if (!buf)
      return false;
    for (uint64_t off = d->read_off; off < d->file->size; off += block) {
      size_t n = d->file->size - off < block ? (size_t)(d->file->size - off) : block;
      if (!read_at(d->file, buf, n, off) || !write(w, buf, n)) {
        free(buf);
        return false;
      }
    }
    free(buf);
  }
  return write(w, d->wbuf, d->wlen * d->state_bytes);
}
