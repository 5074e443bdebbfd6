#include <errno.h>
#include <setjmp.h>
#include <x86intrin.h>
#include "counters.h"
int32_t by_builtin(int32_t x) { return (int32_t)((x + __builtin_ia32_rdtsc()) & 3u); }
int32_t by_intrinsic(int32_t x) { return (int32_t)((x + __rdtsc()) & 3u); }
int32_t by_errno(int32_t x) { return errno ? x : 0; }
int32_t by_setjmp(int32_t x) { jmp_buf jb; return setjmp(jb) ? 0 : x; }
static _Thread_local int32_t last;
int32_t by_thread_local(int32_t x) { int32_t was = last; last = x; return was & 3; }
int32_t by_cycles(int32_t x) { return (int32_t)((x + __builtin_readcyclecounter()) & 3u); }
