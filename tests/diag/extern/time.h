#include <stdbool.h>
#include <stdint.h>
int stamp(int x);
