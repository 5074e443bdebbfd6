#include "win.h"

static struct Win with_count(struct Win w, uint8_t count) {
  w.count = count;
  for (int i = 0; i < 2; i++)
    w.busy[i] = i < count;
  return w;
}

struct Win win_send(struct Win w) { return with_count(w, (uint8_t)(w.count + 1)); }

struct Win win_ack(const struct Win *w) {
  struct Win n = with_count(*w, (uint8_t)(w->count - 1));
  n.base = (uint8_t)((w->base + 1) % 4);
  return n;
}
