#include "header_syntax.h"
int f(int x) { return x; }
