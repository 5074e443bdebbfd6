#include <stdint.h>
int total(const uint8_t a[3]);
