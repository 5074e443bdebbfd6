#include <stdint.h>
/* A comment that mentions #include "/dev/zero" is no directive. */
#include "../extern"
int32_t f(int32_t x);
