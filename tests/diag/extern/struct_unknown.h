#include <stdint.h>
struct Con { uint8_t seq; };
int f(int x);
