#include "bool_as_int.h"
bool flip(int b) { return !b; }
