// SPDX-License-Identifier: MIT
// pnml.h: a place/transition net, as the PNML front end reads it and the
// net analyses (semiflows, coverability, workflow structure) see it.
// pnml.c reads a .pnml file into a Net and lowers it to the .mc tree
// (mcgen.h); petri.c holds the structural analyses. Nothing else includes it.
#ifndef PNML_H
#define PNML_H

#include <stdbool.h>
#include <stdint.h>

typedef enum { ARC_IN, ARC_OUT, ARC_INHIBITOR } ArcKind;

// One arc between place `place` and transition `trans`. ARC_IN takes
// `weight` tokens from the place when the transition fires; ARC_OUT puts
// `weight` tokens into it; ARC_INHIBITOR lets the transition fire only
// while the place holds fewer than `weight` tokens (TINA's convention) and
// moves no token. Parallel arcs of one kind are summed when read, so a
// (place, trans, kind) triple occurs at most once.
typedef struct {
  uint32_t place, trans;
  ArcKind kind;
  int64_t weight; // >= 1
  int line;       // where the arc is in the file (for messages)
} Arc;

typedef struct {
  const char *id, *name; // name: the <name><text>, or the id when absent
  int64_t initial;       // >= 0
  int line;
} Place;

typedef struct {
  const char *id, *name;
  int line;
} Transition;

typedef struct {
  const char *path;      // the file it was read from
  const char *id, *name; // of the <net>
  Place *places;
  uint32_t nplaces;
  Transition *trans;
  uint32_t ntrans;
  Arc *arcs;             // sorted by (trans, kind, place)
  uint32_t narcs;
} Net;

#endif
