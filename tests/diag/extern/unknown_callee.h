#include <stdbool.h>
#include <stdint.h>
int wrap(int x);
int elsewhere(int x);
