#include "enum_value.h"
enum phase next(enum phase p) { return p == idle ? busy : done; }
