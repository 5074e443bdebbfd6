#include <stdbool.h>
#include <stdint.h>
int tick(int x);
