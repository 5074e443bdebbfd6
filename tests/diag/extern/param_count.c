#include "param_count.h"
int add(int x, int y, int z) { return x + y + z; }
