#include <stdbool.h>
#include <stdint.h>
int step(int x);
