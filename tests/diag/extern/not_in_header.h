#include <stdbool.h>
#include <stdint.h>
int other(int x);
