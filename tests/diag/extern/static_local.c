#include "static_local.h"
int count(int x) {
  static int calls;
  (void)calls;
  return x;
}
