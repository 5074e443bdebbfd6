#include "incr.h"

int incr(int x) { return x + 1; }
