// SPDX-License-Identifier: MIT
// mcrt.h: the contract between a checker that mcgen generates and the
// runtime it links against. It is the only runtime header a generated file
// includes. The generated file describes the model (layout, types, rule
// groups) as static data and implements the functions of McrtModel; the
// runtime owns everything else: the search, the fingerprint set, the trace
// log, replay, reports and the command line.
//
// State encoding. A state is a bit string of `state_bits` bits stored in
// `state_bytes` bytes; bit b is bit (b % 8) of byte (b / 8). Every value is
// encoded in the fewest bits its type needs (see McrtType); unused bits are
// always zero, so two states are equal exactly when their bytes are equal and
// the bytes can be hashed directly. Every buffer handed to generated code has
// MCRT_SLACK readable and writable bytes after its last byte, so that a field
// is read with one unaligned 64-bit load.
#ifndef MCRT_H
#define MCRT_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MCRT_ABI_VERSION 6
#define MCRT_SLACK 8
#define MCRT_NONE INT64_MIN /* the logical value of `none` in generated code */

// ---------------------------------------------------------------------------
// Bit access (inline: with constant offsets the C compiler folds each call to
// a load, a shift and a mask).

// Reads `width` (0..56) bits at bit offset `off`.
// Shifts of 64-bit integers defined for every count (DVE's << and >>):
// counts outside 0..63 shift everything out.
static inline int64_t mcrt_shl(int64_t a, int64_t n) {
  return n < 0 || n > 63 ? 0 : (int64_t)((uint64_t)a << n);
}
static inline int64_t mcrt_shr(int64_t a, int64_t n) {
  return n < 0 || n > 63 ? (a < 0 ? -1 : 0) : a >> n;
}

static inline uint64_t mcrt_get(const uint8_t *base, uint64_t off, unsigned width) {
  uint64_t w;
  memcpy(&w, base + (off >> 3), sizeof w);
  return (w >> (off & 7)) & ((UINT64_C(1) << width) - 1);
}

// Writes the low `width` (0..56) bits of v at bit offset `off`.
static inline void mcrt_set(uint8_t *base, uint64_t off, unsigned width, uint64_t v) {
  uint64_t w, mask = ((UINT64_C(1) << width) - 1) << (off & 7);
  memcpy(&w, base + (off >> 3), sizeof w);
  w = (w & ~mask) | ((v << (off & 7)) & mask);
  memcpy(base + (off >> 3), &w, sizeof w);
}

// Reads or writes any width up to 64 bits.
static inline uint64_t mcrt_get_wide(const uint8_t *base, uint64_t off, unsigned width) {
  if (width <= 56)
    return mcrt_get(base, off, width);
  return mcrt_get(base, off, 32) | (mcrt_get(base, off + 32, width - 32) << 32);
}
static inline void mcrt_set_wide(uint8_t *base, uint64_t off, unsigned width, uint64_t v) {
  if (width <= 56) {
    mcrt_set(base, off, width, v);
    return;
  }
  mcrt_set(base, off, 32, v & 0xffffffffu);
  mcrt_set(base, off + 32, width - 32, v >> 32);
}

// Copies `nbits` bits from src at bit offset soff to dst at bit offset doff.
static inline void mcrt_copy_bits(uint8_t *dst, uint64_t doff, const uint8_t *src, uint64_t soff,
                                  uint64_t nbits) {
  while (nbits > 0) {
    unsigned n = nbits > 56 ? 56 : (unsigned)nbits;
    mcrt_set(dst, doff, n, mcrt_get(src, soff, n));
    doff += n, soff += n, nbits -= n;
  }
}

// Compares `nbits` bits at two offsets; true when equal.
static inline bool mcrt_equal_bits(const uint8_t *a, uint64_t aoff, const uint8_t *b, uint64_t boff,
                                   uint64_t nbits) {
  while (nbits > 0) {
    unsigned n = nbits > 56 ? 56 : (unsigned)nbits;
    if (mcrt_get(a, aoff, n) != mcrt_get(b, boff, n))
      return false;
    aoff += n, boff += n, nbits -= n;
  }
  return true;
}

// ---------------------------------------------------------------------------
// Values: optional scalars and collections, in the encodings above. Each
// collection helper takes the bit location of the collection and its shape
// (set: element space; multiset: capacity, slot width; queue: length width,
// capacity, element width).

// Unsigned arithmetic: a range may hold up to 2^64 - 1 values, so v - lo
// does not always fit an int64_t.
static inline int64_t mcrt_opt_decode(uint64_t e, int64_t lo) {
  return e == 0 ? MCRT_NONE : (int64_t)(e - 1 + (uint64_t)lo);
}
static inline uint64_t mcrt_opt_encode(int64_t v, int64_t lo) {
  return v == MCRT_NONE ? 0 : (uint64_t)v - (uint64_t)lo + 1;
}
static inline void mcrt_clear(uint8_t *b, uint64_t off, uint64_t nbits) {
  while (nbits > 0) {
    unsigned n = nbits > 56 ? 56 : (unsigned)nbits;
    mcrt_set(b, off, n, 0);
    off += n, nbits -= n;
  }
}

/* set<T>: one bit per element encoding. */
static inline bool mcrt_set_has(const uint8_t *b, uint64_t off, uint64_t space, uint64_t e) {
  return e < space && mcrt_get(b, off + e, 1);
}
static inline void mcrt_set_add(uint8_t *b, uint64_t off, uint64_t space, uint64_t e) {
  (void)space;
  mcrt_set(b, off + e, 1, 1);
}
static inline void mcrt_set_remove(uint8_t *b, uint64_t off, uint64_t space, uint64_t e) {
  if (e < space)
    mcrt_set(b, off + e, 1, 0);
}
static inline uint64_t mcrt_set_len(const uint8_t *b, uint64_t off, uint64_t space) {
  uint64_t n = 0;
  for (uint64_t i = 0; i < space; i += 56) {
    unsigned w = space - i > 56 ? 56 : (unsigned)(space - i);
    n += (uint64_t)__builtin_popcountll(mcrt_get(b, off + i, w));
  }
  return n;
}
static inline uint64_t mcrt_set_count(const uint8_t *b, uint64_t off, uint64_t space, uint64_t e) {
  return mcrt_set_has(b, off, space, e);
}

/* multiset<T, K>: K slots of sw bits holding encoding + 1, occupied slots
 * first in ascending order, so equal multisets have equal bits. */
static inline uint64_t mcrt_ms_slot(const uint8_t *b, uint64_t off, uint64_t k, uint64_t sw,
                                  uint64_t i) {
  (void)k;
  return mcrt_get(b, off + i * sw, (unsigned)sw);
}
static inline uint64_t mcrt_ms_len(const uint8_t *b, uint64_t off, uint64_t k, uint64_t sw) {
  uint64_t n = 0;
  while (n < k && mcrt_ms_slot(b, off, k, sw, n))
    n++;
  return n;
}
static inline bool mcrt_ms_first(const uint8_t *b, uint64_t off, uint64_t k, uint64_t sw,
                               uint64_t i) {
  return i == 0 || mcrt_ms_slot(b, off, k, sw, i) != mcrt_ms_slot(b, off, k, sw, i - 1);
}
static inline uint64_t mcrt_ms_count(const uint8_t *b, uint64_t off, uint64_t k, uint64_t sw,
                                   uint64_t e) {
  uint64_t n = 0;
  if (e == UINT64_MAX)
    return 0;
  for (uint64_t i = 0; i < k; i++) {
    uint64_t v = mcrt_ms_slot(b, off, k, sw, i);
    if (v == 0 || v > e + 1)
      break;
    n += v == e + 1;
  }
  return n;
}
static inline bool mcrt_ms_has(const uint8_t *b, uint64_t off, uint64_t k, uint64_t sw,
                             uint64_t e) {
  return mcrt_ms_count(b, off, k, sw, e) > 0;
}
static inline bool mcrt_ms_add(uint8_t *b, uint64_t off, uint64_t k, uint64_t sw, uint64_t e) {
  uint64_t n = mcrt_ms_len(b, off, k, sw), i = n;
  if (n == k)
    return false;
  for (; i > 0 && mcrt_ms_slot(b, off, k, sw, i - 1) > e + 1; i--)
    mcrt_set(b, off + i * sw, (unsigned)sw, mcrt_ms_slot(b, off, k, sw, i - 1));
  mcrt_set(b, off + i * sw, (unsigned)sw, e + 1);
  return true;
}
static inline void mcrt_ms_remove(uint8_t *b, uint64_t off, uint64_t k, uint64_t sw, uint64_t e) {
  uint64_t n = mcrt_ms_len(b, off, k, sw), i = 0;
  if (e == UINT64_MAX)
    return;
  while (i < n && mcrt_ms_slot(b, off, k, sw, i) != e + 1)
    i++;
  if (i == n)
    return;
  for (; i + 1 < n; i++)
    mcrt_set(b, off + i * sw, (unsigned)sw, mcrt_ms_slot(b, off, k, sw, i + 1));
  mcrt_set(b, off + (n - 1) * sw, (unsigned)sw, 0);
}

/* queue<T, K>: a length of lw bits, then K slots of ew bits from the head;
 * slots past the length are zero. */
static inline uint64_t mcrt_q_len(const uint8_t *b, uint64_t off, uint64_t lw, uint64_t k,
                                uint64_t ew) {
  (void)k, (void)ew;
  return mcrt_get(b, off, (unsigned)lw);
}
static inline uint64_t mcrt_q_at(const uint8_t *b, uint64_t off, uint64_t lw, uint64_t k,
                               uint64_t ew, uint64_t i) {
  (void)k;
  return mcrt_get(b, off + lw + i * ew, (unsigned)ew);
}
static inline uint64_t mcrt_q_count(const uint8_t *b, uint64_t off, uint64_t lw, uint64_t k,
                                  uint64_t ew, uint64_t e) {
  uint64_t n = 0, len = mcrt_q_len(b, off, lw, k, ew);
  for (uint64_t i = 0; i < len; i++)
    n += mcrt_q_at(b, off, lw, k, ew, i) == e;
  return n;
}
static inline bool mcrt_q_has(const uint8_t *b, uint64_t off, uint64_t lw, uint64_t k, uint64_t ew,
                            uint64_t e) {
  return mcrt_q_count(b, off, lw, k, ew, e) > 0;
}
static inline bool mcrt_q_push(uint8_t *b, uint64_t off, uint64_t lw, uint64_t k, uint64_t ew,
                             uint64_t e) {
  uint64_t len = mcrt_q_len(b, off, lw, k, ew);
  if (len == k)
    return false;
  mcrt_set(b, off + lw + len * ew, (unsigned)ew, e);
  mcrt_set(b, off, (unsigned)lw, len + 1);
  return true;
}
static inline bool mcrt_q_head(const uint8_t *b, uint64_t off, uint64_t lw, uint64_t k, uint64_t ew,
                             uint64_t *e) {
  if (mcrt_q_len(b, off, lw, k, ew) == 0)
    return false;
  *e = mcrt_q_at(b, off, lw, k, ew, 0);
  return true;
}
static inline bool mcrt_q_pop(uint8_t *b, uint64_t off, uint64_t lw, uint64_t k, uint64_t ew,
                            uint64_t *e) {
  uint64_t len = mcrt_q_len(b, off, lw, k, ew);
  if (len == 0)
    return false;
  *e = mcrt_q_at(b, off, lw, k, ew, 0);
  mcrt_copy_bits(b, off + lw, b, off + lw + ew, (len - 1) * ew);
  mcrt_set(b, off + lw + (len - 1) * ew, (unsigned)ew, 0);
  mcrt_set(b, off, (unsigned)lw, len - 1);
  return true;
}

// ---------------------------------------------------------------------------
// Type descriptors: what the runtime knows of the model's values, used to
// print states, parameters and traces (text and JSON). Encodings:
//   BOOL       1 bit, 0 false, 1 true
//   RANGE      value - lo, in width bits (width may be 0 for a one-value range)
//   ENUM       member index;  SCALARSET: element index 0..card-1
//   OPTIONAL   base must be a scalar type: 0 is none, else enc(base) + 1
//   ARRAY      card(index) elements of width(base) bits, element i at i*width(base)
//   RECORD     fields at their offsets, in declaration order
//   SET        card(base) bits; bit i set when the element of encoding i is in
//   MULTISET   capacity slots of width(base)+1 bits; a slot holds enc(elem)+1 or
//              0 (empty); occupied slots first, in ascending order of content
//   QUEUE      a length field of len_width bits, then capacity slots of
//              width(base) bits from the head; slots past the length are 0
// The encoding of a record or array used as a set/multiset/queue element is its
// bit string read as an unsigned integer (width <= 56).
typedef enum {
  MCRT_BOOL,
  MCRT_RANGE,
  MCRT_ENUM,
  MCRT_SCALARSET,
  MCRT_OPTIONAL,
  MCRT_ARRAY,
  MCRT_RECORD,
  MCRT_SET,
  MCRT_MULTISET,
  MCRT_QUEUE,
} McrtTypeKind;

typedef struct McrtType McrtType;

typedef struct McrtField {
  const char *name;
  const McrtType *type;
  uint32_t offset; // bit offset within the record
} McrtField;

struct McrtType {
  McrtTypeKind kind;
  uint32_t width;              // bits of the encoding
  uint64_t card;               // number of values (scalar types; 0 if not scalar)
  int64_t lo;                  // RANGE: the lowest value
  const char *name;            // ENUM, SCALARSET: the type's name (values print NAME_1..)
  const char *const *members;  // ENUM: member names, card of them
  const McrtType *base;        // OPTIONAL, ARRAY, SET, MULTISET, QUEUE: element type
  const McrtType *index;       // ARRAY: index type
  uint32_t capacity;           // MULTISET, QUEUE: the bound K
  uint32_t len_width;          // QUEUE: bits of the length field
  uint32_t nfields;            // RECORD
  const McrtField *fields;     // RECORD
};

// A state variable.
typedef struct McrtVar {
  const char *name;
  const McrtType *type;
  uint32_t offset; // bit offset in the state
} McrtVar;

// A parameter of an action or init block. Its values are the encodings of its
// type (for `x in EXPR`, of the collection's element type).
typedef struct McrtParam {
  const char *name;
  const McrtType *type;
} McrtParam;

// An action or an init block, with all its parameter bindings. Binding b of
// the group is rule (first_rule + b); b is the mixed-radix number of the
// parameter encodings, the first parameter most significant, so that rule
// order is the order docs/LANGUAGE.md prescribes. Actions and init blocks are
// numbered separately, each from 0.
typedef struct McrtRuleGroup {
  const char *name;
  uint32_t nparams;
  const McrtParam *params;
  uint64_t first_rule;
  uint64_t nbindings;
  const char *file;
  int line;
} McrtRuleGroup;

// A named predicate (invariant, reachable, terminal, constraint, property).
typedef struct McrtPredicate {
  const char *name;
  const char *file;
  int line;
} McrtPredicate;

// Liveness (ABI 2). A `property` with a `forall` prefix is one instance per
// binding; each instance is checked on its own. The forms of docs/LANGUAGE.md:
typedef enum {
  MCRT_TEMP_ALWAYS,            // [] P
  MCRT_TEMP_EVENTUALLY,        // <> P
  MCRT_TEMP_LEADSTO,           // P ~> Q
  MCRT_TEMP_ALWAYS_EVENTUALLY, // []<> P
  MCRT_TEMP_EVENTUALLY_ALWAYS, // <>[] P
} McrtTemporal;

typedef struct McrtPropInstance {
  const char *name;  // "no_starvation(p=Proc_1)"; the property's name if no forall
  uint32_t property; // index into McrtModel.properties
  McrtTemporal form;
} McrtPropInstance;

// Consecutive action rules first .. first + count - 1.
typedef struct McrtRuleRange {
  uint64_t first, count;
} McrtRuleRange;

// One `fair` declaration. A rule is enabled in a state exactly when the
// successor function emits it there, and taken on an edge that it labels,
// so the rules are all the runtime needs. `fair weak A` with A taking
// parameters is one constraint per binding (per_binding); a group
// `(A | B)`, or an action without parameters, is one constraint over all
// the rules of its ranges.
typedef struct McrtFairness {
  bool strong;
  bool per_binding;
  uint32_t nranges;
  const McrtRuleRange *ranges;
  const char *text; // as written: "weak climb", "strong (a | b)"
  const char *file;
  int line;
} McrtFairness;
// A scalarset that occurs in the state (symmetry reduction). perms holds
// nperms rows of `size` bytes, every permutation in lexicographic order (row
// r maps element i to perms[r * size + i]); NULL when too large to tabulate.
typedef struct McrtScalarset {
  const char *name;
  uint32_t size;
  uint64_t nperms;
  const uint8_t *perms;
} McrtScalarset;

// Mixes b into the hash a (symmetry keys: sums of these, so a walk's order
// does not matter).
static inline uint64_t mcrt_sym_mix(uint64_t a, uint64_t b) {
  uint64_t h = a * UINT64_C(0x9e3779b97f4a7c15) ^ (b + UINT64_C(0x632be59bd9b4e019));
  h ^= h >> 31;
  h *= UINT64_C(0xbf58476d1ce4e5b9);
  h ^= h >> 29;
  return h;
}

// The runtime's per-thread search context; generated code passes it through.
typedef struct McrtCtx McrtCtx;

// A place/transition net (the checker of a .pnml file; NULL for a spec).
// Place p is state variable p, a counter 0..capacity[p]; transition t is
// action t, without parameters (rule t). The arcs of transition t are
// arcs[arc_start[t] .. arc_start[t + 1]). The actions fire only what the
// counters can hold: where a capacity is not a proven bound, runtime/store/net.c
// watches for a transition the net enables but a counter blocks (the run's
// net answers are then partial).
typedef enum { MCRT_ARC_IN, MCRT_ARC_OUT, MCRT_ARC_INHIBITOR } McrtArcKind;
typedef struct McrtNetArc {
  uint32_t place;
  McrtArcKind kind;
  int64_t weight;
} McrtNetArc;
typedef struct McrtNet {
  uint32_t nplaces, ntrans, narcs, ninhibitor;
  const int64_t *capacity;   // per place
  const bool *proven;        // per place: the capacity is a proven bound
  const uint64_t *arc_start; // ntrans + 1 entries
  const McrtNetArc *arcs;
  const char *id;            // the net's id in the file
  const char *unbounded;     // the net is unbounded: the place and a firing
                             // sequence that pumps it (text); NULL: not known
} McrtNet;

// Dependency (partial-order reduction; compiler/analysis/deps.c). The state is cut
// into ncells cells at the finest granularity the layout allows: a scalar
// variable, one array element, one record field (recursively); a set,
// multiset or queue is one cell. For action rule r, three sorted lists of
// cell indices: what its guard reads, what guard and body read, what the
// body may write. An index that depends on the state (a[x] with x a
// variable) reads or writes every cell of the array. The lists of rule r
// are list[start[r] .. start[r + 1]).
typedef struct McrtDeps {
  uint32_t ncells;
  const char *const *cell_names;         // "x", "a[2]", "p[Proc_1].pc"
  const uint32_t *guard_start, *guard;   // nrules + 1 offsets; cells
  const uint32_t *read_start, *read;
  const uint32_t *write_start, *write;
  // The process of each rule: DVE: the transition's process (a rendezvous:
  // the sender's); .mc: the binding of the action's first scalarset
  // parameter (one process per action and value), else the action itself.
  uint32_t nprocesses;
  const uint32_t *process;               // nrules entries
  const char *const *process_names;
  // The cells the invariant, reachable, terminal, constraint and accepting
  // predicates read (visibility), as one sorted list (each kind's apart at
  // the end of the struct).
  uint32_t nvisible;
  const uint32_t *visible;
  // DVE's error state: a rule whose evaluation may fail (an overflow, an
  // index out of range) then resets the whole state (its write list holds
  // every cell). resets[r]: rule r may (NULL: no rule may); its writes
  // when it does not are normal_write[normal_write_start[r] ..
  // normal_write_start[r + 1]) (the write lists themselves when resets is
  // NULL). A successor is the error state when its bits [error_offset,
  // error_offset + error_width) hold error_value (the first process's
  // state variable at its error state).
  const uint8_t *resets;
  const uint32_t *normal_write_start, *normal_write;
  uint32_t error_offset, error_width;
  uint64_t error_value;
  // Conjuncts of each rule's guard, for the enabling sets of partial-order
  // reduction: for k in key_start[r] .. key_start[r + 1], rule r is
  // disabled unless the encoding in cell key_cell[k] compares to
  // key_value[k] by key_op[k]: 0 ==, 1 !=, 2 <, 3 <=, 4 >, 5 >= (the
  // ordered ones on integer ranges, whose encodings are in the values'
  // order). cell_bits[2c] and cell_bits[2c + 1]: the bit offset and width
  // of cell c.
  const uint32_t *key_start, *key_cell;
  const uint64_t *key_value;
  const uint8_t *key_op;
  const uint32_t *cell_bits;
  // What rule r reads (guard and body) and writes (without the error
  // state) at a given state: the cells pread[pread_start[r] ..) and
  // pwrite[pwrite_start[r] ..), and for each entry e of dyn (8 numbers from
  // 8 * dyn_start[r] up to 8 * dyn_start[r + 1]: base, k, n, cell, shift,
  // inner, size, write) the cells base + p * k + inner .. + size of the
  // element p = encoding of cell `cell` + shift, an array access at an
  // index held in one cell (every element when p is not in 0 .. n - 1). A
  // rule that reads that cell depends on every writer of it, so within the
  // rules independent of r the element stays the same.
  const uint32_t *pread_start, *pread, *pwrite_start, *pwrite, *dyn_start;
  const int64_t *dyn;
  // The values rule r writes into single scalar cells (without the error
  // state): pairs (cell, encoding) from 2 * values_start[r] up to
  // 2 * values_start[r + 1], encoding -1 where it is not a constant. A
  // cell of pwrite without a pair is written through a method call or a
  // dynamic index (any value).
  const uint32_t *values_start;
  const int64_t *values;
  // What each kind of predicate reads, sorted lists of cells (visible is
  // their union): the invariants, the reachables, the terminal predicates,
  // the constraints, the accepting predicates (with a scenario's state
  // cell). A search may need only some to be visible (runtime/engine/odpor.c).
  uint32_t ninvariant_reads;
  const uint32_t *invariant_reads;
  uint32_t nreachable_reads;
  const uint32_t *reachable_reads;
  uint32_t nterminal_reads;
  const uint32_t *terminal_reads;
  uint32_t nconstraint_reads;
  const uint32_t *constraint_reads;
  uint32_t naccepting_reads;
  const uint32_t *accepting_reads;
} McrtDeps;

// A C function the spec calls (`extern fn`, ABI 4): named in the message
// of a call the runtime abandons (runtime/watchdog.c) and in that of a
// trace that does not replay.
typedef struct McrtExternFn {
  const char *name;        // the C function
  const char *file;        // where the spec declares it
  int line, col;
  bool trusted;            // declared `trusted`: mcgen warned instead of refusing
  uint32_t nparams;
  const McrtParam *params; // names and types of its parameters
} McrtExternFn;

// What traces and the report show (ABI 6): watches, which the trace
// printers evaluate (never the search), coverage marks and the per-action
// steps, which the profile (runtime/context/profile.c) reads and samples.
//
// A `watch NAME: EXPR;` declaration (or `mcgen -W NAME=EXPR`): an
// expression the trace printers evaluate at every step, never the search.
typedef struct McrtWatch {
  const char *name;
  const McrtType *type;
  const char *file; // where it is declared ("-W" for the command line's)
  int line;
} McrtWatch;

// One action's successors alone, in the order mc_successors computes them
// (the profile times each action on a sample of the expansions): with
// `emits`, fn hands every enabled binding's successor to the search and
// returns true when the search must stop (an action with parameters);
// without, fn returns true when the action (no parameters) is enabled, its
// successor in `n`, or failed (mcrt_failed), and the caller emits it.
// `per_state`: a parameter ranges over a collection of the state (`x in
// EXPR`), so the bindings tried vary with the state (the profile does not
// count them).
typedef struct McrtActionStep {
  bool (*fn)(McrtCtx *ctx, const uint8_t *s, uint8_t *n);
  bool emits;
  bool per_state;
} McrtActionStep;

typedef struct McrtModel {
  uint32_t abi_version; // MCRT_ABI_VERSION
  const char *name;
  const char *source_file;
  const char *mcgen_version;
  uint32_t state_bits;
  uint32_t state_bytes;

  uint32_t nvars;
  const McrtVar *vars;

  uint32_t ninits;
  const McrtRuleGroup *inits;
  uint64_t ninit_rules;
  uint32_t nactions;
  const McrtRuleGroup *actions;
  uint64_t nrules;

  uint32_t ninvariants;
  const McrtPredicate *invariants;
  uint32_t nreachables;
  const McrtPredicate *reachables;
  uint32_t nproperties; // liveness properties, checked by the liveness issue
  const McrtPredicate *properties;
  bool has_terminal;
  bool has_constraint;
  uint32_t nscalarsets; // scalarset types in the spec (symmetry)

  // Generated functions. A run-time error or a failed assert inside any of
  // them is reported with mcrt_runtime_error/mcrt_assert_failed, after which
  // the function returns at once and mcrt_failed(ctx) is true.

  // Calls mcrt_emit_initial for every binding of every init block whose
  // `when` holds, in rule order.
  void (*initial_states)(McrtCtx *ctx);
  // Calls mcrt_emit_successor for every enabled action binding, in rule
  // order, and stops early when it returns true.
  void (*successors)(McrtCtx *ctx, const uint8_t *state);
  // Replay: the initial state of one init rule, or the successor of `in`
  // by one action rule. False if the `when`/guard does not hold or the rule
  // fails (then mcrt_failed(ctx) tells which).
  bool (*apply_init)(McrtCtx *ctx, uint64_t rule, uint8_t *out);
  bool (*apply_rule)(McrtCtx *ctx, uint64_t rule, const uint8_t *in, uint8_t *out);
  // Index of the first invariant that does not hold, or -1.
  int (*check_invariants)(McrtCtx *ctx, const uint8_t *state);
  // Whether invariant i holds in the state (ABI 5: every invariant a state
  // violates, --max-violations; a trail's, --replay). An invariant
  // `forall x: T, ... :: P` that fails names the first binding that makes
  // P false through mcrt_witness before it returns.
  bool (*check_invariant)(McrtCtx *ctx, uint32_t i, const uint8_t *state);
  // Whether reachable predicate i holds in the state.
  bool (*check_reachable)(McrtCtx *ctx, uint32_t i, const uint8_t *state);
  // Whether some terminal predicate holds (the state may have no successors).
  bool (*is_terminal)(McrtCtx *ctx, const uint8_t *state);
  // Whether every constraint holds (otherwise the state is not expanded).
  bool (*within_constraints)(McrtCtx *ctx, const uint8_t *state);

  // Liveness (ABI 2).
  uint32_t ninstances; // property instances (one per forall binding)
  const McrtPropInstance *instances;
  uint32_t nfairness;
  const McrtFairness *fairness;
  // Sets, in `bits` (zeroed by the caller, (2 * ninstances + 7) / 8 bytes),
  // bit 2i when P of instance i holds in the state and bit 2i+1 when its Q
  // holds (leads-to only).
  void (*property_bits)(McrtCtx *ctx, const uint8_t *state, uint8_t *bits);
  // Symmetry reduction (ABI 2). nsym scalarsets occur in the state (0: the
  // model has no symmetry and the two functions are NULL).
  uint32_t nsym;
  const McrtScalarset *sym;
  // Writes to out (every bit) the state in with element i of scalarset k
  // renamed pm[k][i] everywhere (array positions, values, collections).
  void (*sym_apply)(const uint8_t *in, uint8_t *out, const uint8_t *const *pm);
  // Adds to key[k][i] a hash of what the state says about element i of
  // scalarset k, such that permuting the state permutes the keys alike.
  void (*sym_keys)(const uint8_t *state, uint64_t *const *key);
  // Scenarios (runtime/output/export.c): whether a state is accepting (the
  // scenario's automaton accepts and every `accepting` predicate holds);
  // NULL when the spec has neither. The scenario explored, or NULL.
  bool (*is_accepting)(McrtCtx *ctx, const uint8_t *state);
  const char *scenario;
  // Why the model has no symmetry reduction although scalarsets occur in
  // the state (a scenario that names their values), or NULL.
  const char *symmetry_refused;
  // A place/transition net: its arcs and capacities (NULL for a spec).
  const McrtNet *net;
  // A hash of the spec's source text (16 hex digits): a checkpoint of
  // another version of the spec is refused (runtime/context/checkpoint.c). NULL: none.
  const char *source_hash;
  // The build's identity (ABI 3), which a checkpoint is bound to
  // (runtime/context/checkpoint.c): the XXH3-64 of the generated C file (16 hex
  // digits), which holds the three strings below; and for naming what
  // differs, the spec's constants after -D (lines NAME=VALUE), the C files
  // `extern` read (lines PATH=HASH) and mcgen's --cflags. NULL: none.
  const char *c_hash;
  const char *constants;
  const char *extern_files;
  const char *cflags;
  // Dependency tables (partial-order reduction); NULL when not computed
  // (more than 2^20 rules or cells).
  const McrtDeps *deps;
  // The C functions the spec calls (ABI 4).
  uint32_t nextern;
  const McrtExternFn *externs;

  // What traces and the report show (ABI 6, above).
  // Watches: writes watch i's value in state s to out (its type's encoding
  // at bit 0; out holds width / 8 + 1 + MCRT_SLACK bytes); false after a
  // run-time error (mcrt_failed tells which).
  uint32_t nwatches;
  const McrtWatch *watches;
  bool (*watch)(McrtCtx *ctx, uint32_t i, const uint8_t *s, uint8_t *out);
  // Coverage: the generated code sets covered[k] (relaxed atomic stores,
  // once) when statement k runs; it is on spec line cover_lines[k].
  uint32_t ncover;
  const uint32_t *cover_lines;
  _Atomic uint8_t *covered;
  // Per action group, its successors alone (NULL: the profile times the
  // expansions whole).
  const McrtActionStep *action_steps;
} McrtModel;

// ---------------------------------------------------------------------------
// Called by generated code.

// Hands an initial state (built by init rule `rule`) to the search.
void mcrt_emit_initial(McrtCtx *ctx, const uint8_t *state, uint64_t rule);
// Hands the successor of the state being expanded, by action `action`
// (index into McrtModel.actions) with global rule `rule`, to the search.
// Returns true when the search wants no more successors of this state.
bool mcrt_emit_successor(McrtCtx *ctx, const uint8_t *next, uint32_t action, uint64_t rule);

// Record a run-time error (division by zero, index out of range, ...) or a
// failed assert at a spec position. The first one wins; the generated
// function then returns.
void mcrt_runtime_error(McrtCtx *ctx, const char *file, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void mcrt_assert_failed(McrtCtx *ctx, const char *file, int line, int col, const char *message);
// Whether a run-time error or assert failure has been recorded and not yet
// handled by the runtime.
bool mcrt_failed(const McrtCtx *ctx);
// Tells the runtime which rule was being evaluated when mcrt_failed became
// true inside initial_states/successors (so it can build the trace).
void mcrt_failed_in_rule(McrtCtx *ctx, bool init, uint64_t rule);
// An invariant's forall found false (ABI 5): binder `index` of its chain of
// foralls (outer binders first), its name and type, and the encoding of its
// value in the binding that makes the body false.
void mcrt_witness(McrtCtx *ctx, uint32_t index, const char *name, const McrtType *type,
                  uint64_t encoding);

// Replay of one rule, for apply_init and apply_rule: finds the group that
// holds `rule` (binary search on first_rule; groups in rule order) and calls
// that group's replay function with the binding's index within the group.
// False if no group holds the rule, or as the replay function returns.
typedef bool McrtReplay(McrtCtx *ctx, uint64_t binding, const uint8_t *in, uint8_t *out);
// The index of the group that holds `rule`, or UINT32_MAX if none does.
uint32_t mcrt_find_group(const McrtRuleGroup *groups, uint32_t ngroups, uint64_t rule);
bool mcrt_replay(const McrtRuleGroup *groups, McrtReplay *const *replay, uint32_t ngroups,
                 McrtCtx *ctx, uint64_t rule, const uint8_t *in, uint8_t *out);

// A call of a C function, by the generated wrapper of an `extern fn` (ABI
// 4), which holds it on its stack:
//
//   McrtExternCall call = {.fn = &fn, .values = values, .packed = packed};
//   if (setjmp(call.jump)) {           // the call was abandoned
//     mcrt_extern_abandoned(ctx, &call);
//     return;                          // mcrt_failed(ctx) is true
//   }
//   mcrt_extern_begin(&call);
//   result = the_c_function(...);
//   mcrt_extern_end(&call);
//
// values[i]: parameter i's value if it is a scalar; packed[i]: its bits if
// it is a record or an array (else NULL). The runtime abandons a call that
// outlasts --extern-timeout or that a stop signal finds running by a
// longjmp to `jump` (mcrt_extern_begin may jump at once: a stop signal
// came, or the same call timed out before); mcrt_extern_abandoned then
// records why as a run-time error of the spec.
typedef struct McrtExternCall {
  const McrtExternFn *fn;
  const int64_t *values;
  const uint8_t *const *packed;
  jmp_buf jump;
} McrtExternCall;
void mcrt_extern_begin(McrtExternCall *call);
void mcrt_extern_end(McrtExternCall *call);
void mcrt_extern_abandoned(McrtCtx *ctx, McrtExternCall *call);

// The checker's main: parses the command line of docs/DESIGN.md, runs the search,
// prints the summary and traces, writes reports; returns the exit code.
int mcrt_main(const McrtModel *model, int argc, char **argv);
// The same under MPI (a checker built by mcgen --mpi, linked with
// libmcrt_mpi.a): every rank of `mpirun -np K` calls it; rank 0 reports.
int mcrt_mpi_main(const McrtModel *model, int argc, char **argv);

// Exit codes.
enum {
  MCRT_EXIT_OK = 0,
  MCRT_EXIT_VIOLATION = 1,
  MCRT_EXIT_USAGE = 2,
  MCRT_EXIT_INCOMPLETE = 3,
};

#endif
