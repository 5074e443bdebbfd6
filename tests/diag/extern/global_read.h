#include <stdbool.h>
#include <stdint.h>
int scale(int x);
