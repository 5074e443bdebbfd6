/* A function whose body uses memcpy, on the allow-list
 * (tests/extern/inline_c.mc). */
#ifndef TWICE_H
#define TWICE_H
int twice(int x);
#endif
