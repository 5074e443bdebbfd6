#include "rand.h"
#include <stdlib.h>
int pick(int x) { return rand() % (x + 1); }
