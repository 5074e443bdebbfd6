#include "recursion.h"
static bool odd(int x);
bool even(int x) { return x == 0 ? true : odd(x - 1); }
static bool odd(int x) { return x == 0 ? false : even(x - 1); }
