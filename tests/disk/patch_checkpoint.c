// SPDX-License-Identifier: MIT
// patch_checkpoint.c: tests/disk/run.sh's tool for checkpoints that are
// wrong but intact. Overwrites the 8-byte word at OFFSET of a checkpoint
// file with VALUE (native byte order, as the checkpoint writes), then
// recomputes the XXH3-64 checksum of the file's last 8 bytes, so that the
// checker's refusal is its reading of the word, not the checksum.
//   patch_checkpoint FILE OFFSET VALUE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: patch_checkpoint FILE OFFSET VALUE\n");
    return 2;
  }
  FILE *f = fopen(argv[1], "r+b");
  if (!f || fseek(f, 0, SEEK_END) != 0) {
    perror(argv[1]);
    return 1;
  }
  long size = ftell(f);
  long at = strtol(argv[2], NULL, 0);
  uint64_t value = strtoull(argv[3], NULL, 0);
  unsigned char *buf = malloc(size > 0 ? (size_t)size : 1);
  if (size < 16 || at < 0 || at + 8 > size - 8 || !buf) {
    fprintf(stderr, "patch_checkpoint: offset %ld outside the body of %s\n", at, argv[1]);
    return 1;
  }
  rewind(f);
  if (fread(buf, 1, (size_t)size, f) != (size_t)size) {
    perror(argv[1]);
    return 1;
  }
  memcpy(buf + at, &value, 8);
  uint64_t digest = XXH3_64bits(buf, (size_t)size - 8);
  memcpy(buf + size - 8, &digest, 8);
  rewind(f);
  if (fwrite(buf, 1, (size_t)size, f) != (size_t)size || fclose(f) != 0) {
    perror(argv[1]);
    return 1;
  }
  free(buf);
  return 0;
}
