#include "time.h"
#include <time.h>
int stamp(int x) { return time(0) & 1 ? x : 0; }
