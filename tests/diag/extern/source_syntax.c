#include "source_syntax.h"
int f(int x) { return x + ; }
