#include <stdbool.h>
#include <stdint.h>
unsigned neg(unsigned x);
