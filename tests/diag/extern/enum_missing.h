#include <stdbool.h>
#include <stdint.h>
enum phase { idle, busy };
enum phase next(enum phase p);
