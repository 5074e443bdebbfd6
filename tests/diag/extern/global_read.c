#include "global_read.h"
int factor = 10;
int scale(int x) { return x * factor; }
