#include <stdbool.h>
#include <stdint.h>
int increment(int x);
