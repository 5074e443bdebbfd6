#include "pkt.h"

int pkt_checksum(const struct Pkt *p) { return p->seq * 2 + (p->ack ? 1 : 0); }
