/* A function that reads a global (tests/extern/scale_c.mc, trusted). */
#ifndef SCALE_H
#define SCALE_H
int scale(int x);
#endif
