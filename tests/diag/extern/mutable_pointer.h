#include <stdbool.h>
#include <stdint.h>
struct Conn { uint8_t seq; bool open; };
int total(struct Conn *c);
