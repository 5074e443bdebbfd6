#include "const_not_int.h"
int f(int x) { return x; }
