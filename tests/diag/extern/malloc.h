#include <stdbool.h>
#include <stdint.h>
int keep(int x);
