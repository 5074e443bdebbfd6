/* Constant tables that hold pointers (tests/extern/tables_c.mc). */
#ifndef TABLES_H
#define TABLES_H
#include <stdint.h>
int32_t list_sum(int32_t n);
int32_t name_length(int32_t i);
#endif
