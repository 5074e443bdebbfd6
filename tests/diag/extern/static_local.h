#include <stdbool.h>
#include <stdint.h>
int count(int x);
