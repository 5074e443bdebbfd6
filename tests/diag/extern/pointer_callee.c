#include "pointer_callee.h"
static int32_t passed, returned;
static int32_t *const PASSED = &passed;
static void bump(int32_t *p) { (*p)++; }
int32_t pass_on(int32_t x) { bump(PASSED); return x; }        // a callee writes through it
static int32_t *where(void) { return &returned; }             // a callee gives the address
int32_t from_callee(int32_t x) { *where() += 1; return x; }
