#include <stdbool.h>
#include <stdint.h>
#define CAP 4
int f(int x);
