/* A send window returned by value (tests/extern/win_c.mc). */
#ifndef WIN_H
#define WIN_H
#include <stdbool.h>
#include <stdint.h>

struct Win {
  uint8_t base;  /* the oldest unacknowledged slot, modulo 4 */
  uint8_t count; /* packets in flight, at most 2 */
  bool busy[2];  /* busy[i]: i < count */
};

struct Win win_send(struct Win w);
struct Win win_ack(const struct Win *w);
#endif
