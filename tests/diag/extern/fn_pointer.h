#include <stdbool.h>
#include <stdint.h>
int apply(int x);
