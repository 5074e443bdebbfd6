#include <stdbool.h>
#include <stdint.h>
bool flip(int b);
