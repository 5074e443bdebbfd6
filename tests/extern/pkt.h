/* A packet header's checksum (tests/extern/pkt_c.mc). */
#ifndef PKT_H
#define PKT_H
#include <stdbool.h>
#include <stdint.h>

struct Pkt {
  uint8_t seq;
  bool ack;
};

int pkt_checksum(const struct Pkt *p);
#endif
