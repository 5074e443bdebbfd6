#include "asm.h"
#define BARRIER() __asm__ __volatile__("" ::: "memory")
int32_t basic(int32_t x) { __asm__("nop"); return x; }
int32_t tsc_low(int32_t x) {
  uint32_t lo, hi;
  __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi)); // the time-stamp counter
  return (int32_t)((lo + (uint32_t)x) & 3u);
}
static uint32_t tsc(void) {
  uint32_t lo, hi;
  __asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
  return lo;
}
int32_t via_callee(int32_t x) { return (int32_t)((tsc() + (uint32_t)x) & 3u); }
int32_t via_macro(int32_t x) { BARRIER(); return x; }
