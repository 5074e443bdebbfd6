/* Counting set flags in an array (tests/extern/flags_c.mc). */
#ifndef FLAGS_H
#define FLAGS_H
#include <stdbool.h>

#define NFLAGS 3

int flags_set(const bool f[NFLAGS]);
#endif
