#include <stdbool.h>
#include <stdint.h>
struct Win { uint8_t slot[3]; };
int total(const struct Win *w);
