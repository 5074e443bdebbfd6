#include "flags.h"

int flags_set(const bool f[NFLAGS]) {
  int n = 0;
  for (int i = 0; i < NFLAGS; i++)
    n += f[i];
  return n;
}
