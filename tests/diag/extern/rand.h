#include <stdbool.h>
#include <stdint.h>
int pick(int x);
