#include "struct_field_type.h"
int total(const struct Conn *c) { return c->seq + c->open; }
