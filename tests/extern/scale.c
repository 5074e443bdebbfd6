#include "scale.h"

/* Never written: the function is deterministic, but mcgen cannot know
 * that the global stays 10, so the spec says `trusted`. */
int factor = 10;

int scale(int x) { return x * factor; }
