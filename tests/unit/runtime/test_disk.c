// SPDX-License-Identifier: MIT
// Unit tests of --disk (runtime/store/disk.c): the trace log's chunks written out
// and read back, the frontier through its file, what a checkpoint saves of
// them, and failures. Blocks are shrunk (MCRT_TEST_DISK_BLOCK) so that a
// few states already go through the files.
#include <criterion/criterion.h>

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "store/store.h"

static char dir[] = "/tmp/mcgen-test-disk.XXXXXX";
static McrtLog log;
static McrtQueue queue;
static McrtDisk *disk;

// A log and a queue, on disk in a fresh directory.
static void setup_disk(size_t state_bytes, const char *block, const char *limit) {
  cr_assert(mkdtemp(dir) || errno == EEXIST);
  setenv("MCRT_TEST_DISK_BLOCK", block, 1);
  if (limit)
    setenv("MCRT_TEST_DISK_LIMIT", limit, 1);
  else
    unsetenv("MCRT_TEST_DISK_LIMIT");
  mcrt_log_init(&log, 1000);
  mcrt_queue_init(&queue, state_bytes);
  cr_assert(disk = mcrt_disk_open(dir, &log, &queue));
}

static void teardown_disk(void) {
  mcrt_log_free(&log);
  mcrt_queue_free(&queue);
  mcrt_disk_close(disk);
  rmdir(dir); // empty: the files were unlinked at once
  memcpy(dir + strlen(dir) - 6, "XXXXXX", 6);
}

static uint32_t parent_of(uint64_t i) { return i % 5000 == 0 ? MCRT_LOG_INITIAL : (uint32_t)(i / 2); }
static uint32_t rule_of(uint64_t i) { return (uint32_t)(i * 13 % 1001); }

typedef struct Sink {
  uint8_t *p;
  size_t n, cap;
} Sink;

static bool sink_write(void *w, const void *p, size_t n) {
  Sink *s = w;
  if (s->n + n > s->cap) {
    s->cap = (s->n + n) * 2;
    s->p = realloc(s->p, s->cap);
  }
  memcpy(s->p + s->n, p, n);
  s->n += n;
  return true;
}

// Past chunk 256 parents take 4 bytes: the file offsets of chunks must
// follow the widths. Every record read back from disk, and the bytes a
// checkpoint saves equal those of the same log kept in RAM.
Test(disk, log_written_and_read_back) {
  setup_disk(8, "4096", NULL);
  McrtLog ram;
  mcrt_log_init(&ram, 1000);
  uint64_t n = 258 * (UINT64_C(1) << MCRT_LOG_CHUNK_SHIFT) + 123;
  for (uint64_t i = 0; i < n; i++) {
    cr_assert(mcrt_log_append(&log, parent_of(i), rule_of(i)));
    cr_assert(mcrt_log_append(&ram, parent_of(i), rule_of(i)));
  }
  cr_assert_gt(log.disk_chunks, 256);
  cr_assert_null(log.chunks[0]);
  cr_assert_lt(mcrt_log_bytes(&log), mcrt_log_bytes(&ram) / 50);
  for (uint64_t i = 0; i < n; i += i < 70000 || i > n - 70000 ? 1 : 997) {
    McrtLogRecord r = mcrt_log_get(&log, i);
    cr_assert_eq(r.parent, parent_of(i), "record %llu", (unsigned long long)i);
    cr_assert_eq(r.rule, rule_of(i), "record %llu", (unsigned long long)i);
  }
  Sink a = {0}, b = {0};
  cr_assert(mcrt_log_save(&log, sink_write, &a));
  cr_assert(mcrt_log_save(&ram, sink_write, &b));
  cr_assert_eq(a.n, b.n);
  cr_assert(memcmp(a.p, b.p, a.n) == 0);
  free(a.p), free(b.p);
  mcrt_log_free(&ram);
  cr_assert_null(mcrt_disk_failure(disk));
  teardown_disk();
}

static void fill(uint8_t *s, size_t bytes, uint64_t v) {
  for (size_t k = 0; k < bytes; k++)
    s[k] = (uint8_t)(v >> (8 * (k % 8))) ^ (uint8_t)k;
}

// FIFO order whatever the mix of pushes and pops (through the file, the
// read block, the swap with the write block); a checkpoint's copy of the
// frontier is the states not yet popped, oldest first; what was read is
// given back on the disk.
Test(disk, frontier_fifo_through_the_file) {
  const size_t sb = 12;
  setup_disk(sb, "4096", NULL); // 341 states a block
  uint8_t s[12], out[12], want[12];
  uint64_t pushed = 0, popped = 0;
  for (int round = 0; round < 40; round++) {
    uint64_t np = (uint64_t)(round * 977 % 3000), nq = (uint64_t)(round * 613 % 2500);
    for (uint64_t i = 0; i < np; i++) {
      fill(s, sb, pushed++);
      cr_assert(mcrt_queue_push(&queue, s));
    }
    for (uint64_t i = 0; i < nq && popped < pushed; i++) {
      cr_assert(mcrt_queue_pop(&queue, out));
      fill(want, sb, popped++);
      cr_assert(memcmp(out, want, sb) == 0, "state %llu", (unsigned long long)popped - 1);
    }
    cr_assert_eq(queue.length, pushed - popped);
    if (round % 7 == 3) {
      Sink a = {0};
      cr_assert(mcrt_queue_save(&queue, sink_write, &a));
      cr_assert_eq(a.n, (pushed - popped) * sb);
      for (uint64_t k = 0; k < pushed - popped; k++) {
        fill(want, sb, popped + k);
        cr_assert(memcmp(a.p + k * sb, want, sb) == 0);
      }
      free(a.p);
    }
  }
  while (popped < pushed) {
    cr_assert(mcrt_queue_pop(&queue, out));
    fill(want, sb, popped++);
    cr_assert(memcmp(out, want, sb) == 0);
  }
  cr_assert(!mcrt_queue_pop(&queue, out));
  cr_assert_gt(disk->frontier.size, 0);
  cr_assert_lt(mcrt_disk_bytes(disk) - disk->log.size, 4096 + 1); // punched out behind
  cr_assert_eq(mcrt_queue_bytes(&queue), 2 * 341 * sb);
  teardown_disk();
}

// A full disk: the write that does not fit fails, the failure names the
// file and ENOSPC, and every later operation fails too.
Test(disk, full_disk_fails_in_order) {
  setup_disk(16, "4096", "20000");
  uint8_t s[16] = {0};
  uint64_t i = 0;
  while (i < 100000 && mcrt_queue_push(&queue, s))
    i++;
  cr_assert_lt(i, 100000);
  cr_assert_geq(i * 16, 20000 - 4096);
  const McrtDiskFile *f = mcrt_disk_failure(disk);
  cr_assert_not_null(f);
  cr_assert_eq(f->err, ENOSPC);
  cr_assert_str_eq(f->op, "write");
  cr_assert(strstr(f->path, "mcgen-frontier."));
  cr_assert(!mcrt_queue_push(&queue, s));
  unsetenv("MCRT_TEST_DISK_LIMIT");
  teardown_disk();
}

// A directory that does not exist: the failure is recorded at the start and
// the first push fails; the path named is the directory.
Test(disk, missing_directory) {
  unsetenv("MCRT_TEST_DISK_LIMIT");
  mcrt_log_init(&log, 10);
  mcrt_queue_init(&queue, 4);
  cr_assert(disk = mcrt_disk_open("/nonexistent/mcgen-disk-test", &log, &queue));
  uint8_t s[4] = {1, 2, 3, 4};
  cr_assert(!mcrt_queue_push(&queue, s));
  const McrtDiskFile *f = mcrt_disk_failure(disk);
  cr_assert_not_null(f);
  cr_assert_eq(f->err, ENOENT);
  cr_assert_str_eq(f->path, "/nonexistent/mcgen-disk-test");
  mcrt_log_free(&log);
  mcrt_queue_free(&queue);
  mcrt_disk_close(disk);
}
