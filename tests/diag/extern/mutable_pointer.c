#include "mutable_pointer.h"
int total(struct Conn *c) { return c->seq + c->open; }
