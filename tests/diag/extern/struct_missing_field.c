#include "struct_missing_field.h"
int total(const struct Conn *c) { return c->seq; }
