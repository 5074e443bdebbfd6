#include <stdbool.h>
#include <stdint.h>
int f(int x);
