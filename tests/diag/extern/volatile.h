#include <stdbool.h>
#include <stdint.h>
int poll(int x);
