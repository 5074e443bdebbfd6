#include <stdbool.h>
#include <stdint.h>
int show(int x);
