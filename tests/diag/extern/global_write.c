#include "global_write.h"
int ticks;
int tick(int x) { ticks = x; return x; }
