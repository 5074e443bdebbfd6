#include <stdbool.h>
#include <stdint.h>
bool even(int x);
