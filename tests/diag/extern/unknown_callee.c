#include "unknown_callee.h"
int wrap(int x) { return elsewhere(x); }
