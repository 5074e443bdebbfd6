#include "enum_extra.h"
enum phase next(enum phase p) { return p == idle ? busy : done; }
