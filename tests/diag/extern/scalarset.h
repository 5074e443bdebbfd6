#include <stdbool.h>
#include <stdint.h>
int who(int p);
