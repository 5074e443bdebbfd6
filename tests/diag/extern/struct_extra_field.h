#include <stdbool.h>
#include <stdint.h>
struct Conn { uint8_t seq; bool open; int extra; };
int total(const struct Conn *c);
