#include "struct_reordered.h"
int total(const struct Conn *c) { return c->seq + c->open; }
