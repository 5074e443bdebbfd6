#include "array_length.h"
int total(const struct Win *w) { return w->slot[0] + w->slot[1] + w->slot[2]; }
