#include "not_in_header.h"
int other(int x) { return x; }
int helper(int x) { return x; }
