#include "pointer_tables.h"
static int32_t a, b, n;
static int32_t *const slots[2] = {&a, &b};            // an array of pointers to statics
struct config { int32_t *counter; };
static const struct config CONFIG = {&n};             // a struct member holding one
static int32_t *const SCRATCH = (int32_t[]){0};        // a compound literal at file scope
int32_t by_slot(int32_t x) { *slots[x & 1] = x; return x; }
int32_t by_field(int32_t x) { (*CONFIG.counter)++; return x; }
int32_t by_literal(int32_t x) { return x + (SCRATCH[0] = 0); }
