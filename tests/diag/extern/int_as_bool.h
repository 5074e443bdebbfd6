#include <stdbool.h>
#include <stdint.h>
bool low(bool x);
