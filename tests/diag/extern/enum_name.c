#include "enum_name.h"
enum phase next(enum phase p) { return p == idle ? working : done; }
