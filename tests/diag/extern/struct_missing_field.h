#include <stdbool.h>
#include <stdint.h>
struct Conn { uint8_t seq; };
int total(const struct Conn *c);
