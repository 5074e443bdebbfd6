// SPDX-License-Identifier: MIT
// petri.h: structural analyses of a place/transition net (pnml.h), run
// before or instead of a search: P- and T-semiflows (Farkas), place bounds
// (semiflows, then Karp-Miller coverability), classical soundness of
// workflow nets. Every answer is complete, or refused with a reason; none is
// a guess. Memory comes from xcalloc and is never freed (STYLE.md 6).
#ifndef PETRI_H
#define PETRI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pnml.h"

// A firing sequence: transition indices into Net.trans.
typedef struct {
  uint32_t *trans;
  uint32_t len;
} FiringSeq;

// Why a net is unbounded: firing `prefix` from the initial marking reaches a
// marking m, from which `pump` leads to m' >= m with m'(place) > m(place);
// `pump` can then be fired again and again, so `place` grows without bound.
typedef struct {
  uint32_t place;
  FiringSeq prefix, pump;
} PetriUnbounded;

// bound[p] >= 0: a proven bound of place p; -1: none proven (nets with
// inhibitor arcs, where coverability is undecidable). Returns false and
// fills *u (place, firing sequence that pumps it) if the net is unbounded.
// bound has net->nplaces entries; when false is returned, the unbounded
// places (and those not decided) hold -1.
bool petri_bounds(const Net *net, int64_t *bound, PetriUnbounded *u);

// One minimal-support semiflow, sparse: coef[i] > 0 is its weight on
// node idx[i] (a place for a P-semiflow, a transition for a T-semiflow),
// idx ascending; the coefficients have gcd 1.
typedef struct {
  uint32_t *idx;
  int64_t *coef;
  uint32_t len;
} Semiflow;

typedef struct {
  Semiflow *flows;
  uint32_t nflows;
  const char *refused; // NULL: the list is complete; else why there is none
} SemiflowSet;

// Every minimal-support P-semiflow (y >= 0, y.C = 0) or T-semiflow
// (x >= 0, C.x = 0) of the net, C its incidence matrix; inhibitor arcs are
// not part of C. Refused on arithmetic overflow, when the intermediate
// matrix outgrows PETRI_FARKAS_MAX_ROWS, or past the step budget of petri.c
// (every analysis has one: about a second of work).
#define PETRI_FARKAS_MAX_ROWS 20000
SemiflowSet petri_p_semiflows(const Net *net);
SemiflowSet petri_t_semiflows(const Net *net);

// Bounds with how each was found, for reports.
typedef enum {
  BOUND_SEMIFLOW,     // k / y(p) for a P-semiflow y with y.m0 = k (an upper bound)
  BOUND_COVERABILITY, // the exact bound, from the Karp-Miller tree
  BOUND_UNBOUNDED,    // the place grows without bound
  BOUND_UNKNOWN,      // none proven: see PetriBounds.refused
} BoundKind;

typedef struct {
  int64_t *bound;    // per place; -1 for BOUND_UNBOUNDED and BOUND_UNKNOWN
  BoundKind *kind;   // per place
  bool unbounded;    // then `witness` is filled
  PetriUnbounded witness;
  const char *refused; // why coverability was not decided, or NULL
} PetriBounds;

// Karp-Miller trees larger than this are abandoned (places left unknown).
#define PETRI_KM_MAX_NODES 200000
PetriBounds petri_bounds_explained(const Net *net);

// Classical soundness of a workflow net, from the marking [source] (one
// token in the source place, the net's own initial marking is ignored).
typedef enum {
  WF_NOT_WORKFLOW,     // `reason` says which condition fails
  WF_REFUSED,          // `reason`: inhibitor arcs, or more than PETRI_WF_MAX_STATES markings
  WF_SOUND,
  WF_UNBOUNDED,        // `unbounded` pumps a place from [source]
  WF_IMPROPER,         // `seq` reaches `marking`, which marks sink and more
  WF_NO_COMPLETION,    // `seq` reaches `marking`, from which [sink] is unreachable
  WF_DEAD_TRANSITION,  // `dead` is enabled in no marking reachable from [source]
} WorkflowVerdict;

typedef struct {
  WorkflowVerdict verdict;
  const char *reason;
  uint32_t source, sink; // places; valid unless WF_NOT_WORKFLOW
  FiringSeq seq;
  int64_t *marking;      // nplaces entries, for WF_IMPROPER and WF_NO_COMPLETION
  PetriUnbounded unbounded;
  uint32_t dead;         // a transition, for WF_DEAD_TRANSITION
  uint64_t states;       // markings explored
} Workflow;

#define PETRI_WF_MAX_STATES 200000
Workflow petri_workflow(const Net *net);
const char *petri_workflow_verdict_name(WorkflowVerdict v);

// Prints the semiflows (with place and transition names), the bounds and the
// workflow verdict, for `mcgen --net-info`.
void petri_print_info(const Net *net, FILE *out);

#endif
