#include <stdint.h>
int32_t by_builtin(int32_t x);
int32_t by_intrinsic(int32_t x);
int32_t by_errno(int32_t x);
int32_t by_setjmp(int32_t x);
int32_t by_thread_local(int32_t x);
int32_t by_cycles(int32_t x);
