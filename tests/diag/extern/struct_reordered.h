#include <stdbool.h>
#include <stdint.h>
struct Conn { bool open; uint8_t seq; };
int total(const struct Conn *c);
