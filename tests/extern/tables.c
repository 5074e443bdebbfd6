#include <stddef.h>
#include <string.h>
#include "tables.h"

/* Const all the way down, pointers included: a list whose links point to
 * const nodes, and an array of const pointers to const strings. mcgen
 * accepts reading them (nothing read out of them can write static data). */
struct node {
  int32_t value;
  const struct node *next;
};
static const struct node third = {3, NULL};
static const struct node second = {2, &third};
static const struct node first = {1, &second};
static const char *const names[4] = {"zero", "one", "two", "three"};

/* The sum of the first n values of the list. */
int32_t list_sum(int32_t n) {
  int32_t sum = 0;
  for (const struct node *p = &first; p && n > 0; p = p->next, n--)
    sum += p->value;
  return sum;
}

int32_t name_length(int32_t i) { return (int32_t)strlen(names[i]); }
