#include "struct_unknown.h"
int f(int x) { return x; }
