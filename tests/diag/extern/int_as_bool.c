#include "int_as_bool.h"
bool low(bool x) { return !x; }
