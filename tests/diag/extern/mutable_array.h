#include <stdint.h>
int total(uint8_t a[4]);
