#include "signed.h"
unsigned neg(unsigned x) { return 0u - x; }
