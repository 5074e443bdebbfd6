#include <stdbool.h>
#include <stdint.h>
enum phase { idle, busy = 2, done };
enum phase next(enum phase p);
