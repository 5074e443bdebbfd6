#include <stdbool.h>
#include <stdint.h>
int add(int x, int y, int z);
