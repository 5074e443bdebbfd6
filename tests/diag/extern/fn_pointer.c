#include "fn_pointer.h"
static int ident(int x) { return x; }
int apply(int x) {
  int (*const hook)(int) = ident;
  return hook(x);
}
