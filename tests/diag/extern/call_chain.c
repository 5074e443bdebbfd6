#include "call_chain.h"
#include <stdlib.h>
static int jitter(void) { return rand() & 1; }
static int helper(int x) { return x + jitter(); }
int step(int x) { return helper(x) % 10; }
