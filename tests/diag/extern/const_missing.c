#include "const_missing.h"
int f(int x) { return x; }
