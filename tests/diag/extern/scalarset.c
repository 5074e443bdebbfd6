#include "scalarset.h"
int who(int p) { return p; }
