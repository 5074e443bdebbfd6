#include "struct_extra_field.h"
int total(const struct Conn *c) { return c->seq + c->open; }
