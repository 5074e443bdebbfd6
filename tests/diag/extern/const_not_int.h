#include <stdbool.h>
#include <stdint.h>
#define CAP "four"
int f(int x);
