/* An increment that forgets to wrap (tests/extern/incr_c.mc). */
#ifndef INCR_H
#define INCR_H
int incr(int x);
#endif
