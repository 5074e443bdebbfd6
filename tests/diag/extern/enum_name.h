#include <stdbool.h>
#include <stdint.h>
enum phase { idle, working, done };
enum phase next(enum phase p);
