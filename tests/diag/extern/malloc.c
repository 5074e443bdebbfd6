#include "malloc.h"
#include <stdlib.h>
int keep(int x) {
  int *p = malloc(sizeof *p);
  return p ? x : 0;
}
