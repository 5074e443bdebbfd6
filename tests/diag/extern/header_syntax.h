#include <stdbool.h>
#include <stdint.h>
int f(int x)
int g(int y);
