#include <stdbool.h>
#include <stdint.h>
enum phase { idle, busy, done, failed };
enum phase next(enum phase p);
