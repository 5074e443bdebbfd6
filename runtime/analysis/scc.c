// SPDX-License-Identifier: MIT
// scc.c: the strongly connected components of parts of the edge table's
// graph, on every thread of a team (fair.c decides the properties over
// them; docs/DESIGN.md, "Liveness").
//
// The graph: the states v with part[v] != 0 and the edges v -> w with
// part[w] == part[v]; so one call decomposes many disjoint subgraphs at
// once (the components a fairness refinement or a property's restriction
// leaves). The answer: comp[v], a representative state of v's component.
//
// The algorithm is UFSCC (Bloemen, Laarman and van de Pol, "Multi-core
// on-the-fly SCC decomposition", PPoPP 2016): each worker runs Tarjan's
// depth-first search with a stack of roots, but the components found so
// far are sets of a union-find shared by every worker, so that what one
// worker learns (two states on a cycle, a complete component) the others
// use at once, and the work of a large component is shared: each set keeps
// a cyclic list of its states, and a worker that has explored its own
// states of a set picks any state of the list that nobody has finished
// yet. A state's set is complete (dead) when every state on its list has
// had all its edges explored: each edge then leads into the set or into a
// dead set. Per set (at its root): the workers that have a state of it on
// their stacks (a bit each), so that a worker meeting an edge into a set
// carrying its own bit has closed a cycle and merges the sets on its root
// stack down to it. It needs no reverse edges and does little more work
// than Tarjan's algorithm (a find per edge), which is why it was chosen
// over forward-backward decomposition (which needs the reverse graph, 4
// more bytes an edge, and several passes over it) and over OWCTY (which
// gives the set of states that may lie on an accepting cycle, not the
// components strong fairness and the shared decomposition of fair.c need).
//
// Synchronisation: the union-find parent of each state (path halving with
// plain atomic stores: a parent only ever moves up), the workers' bits and
// the flags (DONE: explored; at a root, DEAD: complete, LOCK) are atomic;
// a set's list and head change only under its root's lock, taken by a
// union (both roots, in id order) and by a worker looking for a state of
// the list that is not done (which unlinks the done ones it passes).
// Claims racing with a union: the union moves the parent first and reads
// the old root's bits after, and a claim that set its bit on a root reads
// the parent again after, so no bit is lost (every access sequentially
// consistent).
#include "analysis/analysis.h"

#include <stdatomic.h>
#include <stdlib.h>

enum { UF_DONE = 1, UF_DEAD = 2, UF_LOCK = 4 };
enum { CLAIM_DEAD, CLAIM_FOUND, CLAIM_NEW };

typedef struct UfNode {
  _Atomic uint64_t workers; // at a root: the workers with a state of the set on their stacks
  _Atomic uint32_t parent;  // itself at a root
  uint32_t next;            // the set's cyclic list (under the root's lock)
  uint32_t head;            // at a root: a state of the list
  _Atomic uint8_t flags;
} UfNode;

typedef struct Frame {
  uint32_t v; // the state this frame was opened for (its set is the frame's)
  uint32_t x; // the state whose edges are being explored (UINT32_MAX: pick one)
  uint32_t e; // how many of x's edges it has explored
} Frame;

typedef struct Worker {
  Frame *f;
  size_t nf, fcap;
  uint32_t *r; // the stack of roots
  size_t nr, rcap;
  bool nomem;
} Worker;

typedef struct Scc {
  const McrtLiveGraph *g;
  const uint32_t *part;
  UfNode *u;
  Worker *w;
  uint32_t nworkers;
  _Atomic bool stop; // a signal or no memory: every worker gives up
} Scc;

// ---------------------------------------------------------------------------
// The union-find.

static uint32_t find(UfNode *u, uint32_t v) {
  for (;;) {
    uint32_t p = atomic_load_explicit(&u[v].parent, memory_order_acquire);
    if (p == v)
      return v;
    uint32_t gp = atomic_load_explicit(&u[p].parent, memory_order_acquire);
    if (gp == p)
      return p;
    atomic_store_explicit(&u[v].parent, gp, memory_order_relaxed); // halving
    v = gp;
  }
}

static bool same_set(UfNode *u, uint32_t a, uint32_t b) {
  for (;;) {
    uint32_t ra = find(u, a), rb = find(u, b);
    if (ra == rb)
      return true;
    if (atomic_load(&u[ra].parent) == ra) // ra was still a root after rb was found
      return false;
  }
}

static bool is_dead(UfNode *u, uint32_t v) { return atomic_load(&u[find(u, v)].flags) & UF_DEAD; }

static void lock(UfNode *u, uint32_t r) {
  for (;;) {
    uint8_t f = atomic_load_explicit(&u[r].flags, memory_order_relaxed);
    if (!(f & UF_LOCK) && atomic_compare_exchange_weak(&u[r].flags, &f, f | UF_LOCK))
      return;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
}

static void unlock(UfNode *u, uint32_t r) { atomic_fetch_and(&u[r].flags, (uint8_t)~UF_LOCK); }

// Locks the root of v's set and returns it.
static uint32_t lock_root(UfNode *u, uint32_t v) {
  for (;;) {
    uint32_t r = find(u, v);
    lock(u, r);
    if (atomic_load(&u[r].parent) == r)
      return r;
    unlock(u, r);
  }
}

// Worker `bit` meets state w: its set is complete (DEAD), already on this
// worker's stack (FOUND: a cycle), or new to it (NEW: the bit is set).
static int claim(UfNode *u, uint32_t w, uint64_t bit) {
  bool set = false;
  for (;;) {
    uint32_t r = find(u, w);
    if (atomic_load(&u[r].flags) & UF_DEAD)
      return CLAIM_DEAD;
    if (!set && (atomic_load(&u[r].workers) & bit))
      return CLAIM_FOUND;
    atomic_fetch_or(&u[r].workers, bit);
    set = true;
    if (atomic_load(&u[r].parent) == r)
      return CLAIM_NEW;
  }
}

// Merges the sets of a and b (both live).
static void unite(UfNode *u, uint32_t a, uint32_t b) {
  for (;;) {
    uint32_t ra = find(u, a), rb = find(u, b);
    if (ra == rb)
      return;
    uint32_t lo = ra < rb ? ra : rb, hi = ra ^ rb ^ lo;
    lock(u, lo);
    lock(u, hi);
    if (atomic_load(&u[ra].parent) == ra && atomic_load(&u[rb].parent) == rb) {
      atomic_store(&u[ra].parent, rb);
      atomic_fetch_or(&u[rb].workers, atomic_load(&u[ra].workers));
      uint32_t ha = u[ra].head, hb = u[rb].head, t = u[ha].next;
      u[ha].next = u[hb].next; // splice the two cycles
      u[hb].next = t;
      unlock(u, hi);
      unlock(u, lo);
      return;
    }
    unlock(u, hi);
    unlock(u, lo);
  }
}

// A state of v's set whose edges nobody has finished exploring, or
// UINT32_MAX when there is none: then the set is complete and marked dead.
static uint32_t pick(UfNode *u, uint32_t v) {
  if (!(atomic_load(&u[v].flags) & UF_DONE))
    return v;
  uint32_t r = lock_root(u, v);
  uint32_t h = u[r].head, found = UINT32_MAX;
  if (atomic_load(&u[r].flags) & UF_DEAD) {
  } else if (!(atomic_load(&u[h].flags) & UF_DONE)) {
    found = h;
  } else {
    uint32_t cur = u[h].next;
    while (cur != h && found == UINT32_MAX) {
      if (!(atomic_load(&u[cur].flags) & UF_DONE)) {
        found = u[r].head = cur;
      } else {
        u[h].next = u[cur].next; // unlink a done state
        cur = u[cur].next;
      }
    }
    if (found == UINT32_MAX)
      atomic_fetch_or(&u[r].flags, UF_DEAD);
  }
  unlock(u, r);
  return found;
}

// ---------------------------------------------------------------------------
// A worker's search.

static bool push_frame(Worker *w, uint32_t v) {
  if (w->nf == w->fcap) {
    size_t cap = w->fcap ? 2 * w->fcap : 1024;
    Frame *f = realloc(w->f, cap * sizeof *f);
    if (!f)
      return false;
    w->f = f, w->fcap = cap;
  }
  w->f[w->nf++] = (Frame){v, UINT32_MAX, 0};
  return true;
}

static bool push_root(Worker *w, uint32_t v) {
  if (w->nr == w->rcap) {
    size_t cap = w->rcap ? 2 * w->rcap : 1024;
    uint32_t *r = realloc(w->r, cap * sizeof *r);
    if (!r)
      return false;
    w->r = r, w->rcap = cap;
  }
  w->r[w->nr++] = v;
  return true;
}

// The frame's set is done with (complete, or the frame below has the same
// set and goes on with it): closes it, and pops its root unless a merge
// took it already (then the frame below has the set).
static void close_frame(Worker *w) {
  uint32_t v = w->f[--w->nf].v;
  if (w->nr && w->r[w->nr - 1] == v)
    w->nr--;
}

// The target of x's k-th edge in this worker's order: each worker starts at
// another edge and wraps round, so that two workers in one component tend
// to go different ways.
static uint32_t kth_target(const McrtLiveGraph *g, uint32_t x, uint32_t k, uint32_t self) {
  uint64_t deg = g->start[x + 1] - g->start[x], i = self % deg + k;
  return g->targets[g->start[x] + (i < deg ? i : i - deg)];
}

// Tarjan-like search from `root` (claimed by this worker) until its set is
// complete. False: out of memory or stopped.
static bool search(Scc *S, Worker *w, uint32_t self, uint32_t root) {
  const McrtLiveGraph *g = S->g;
  UfNode *u = S->u;
  uint64_t bit = UINT64_C(1) << self, polls = 0;
  if (!push_frame(w, root) || !push_root(w, root))
    return false;
  while (w->nf) {
    if ((++polls & 0xfff) == 0 && (mcrt_signal || atomic_load(&S->stop)))
      return false;
    Frame *f = &w->f[w->nf - 1];
    if (f->x == UINT32_MAX) {
      uint32_t x;
      if ((w->nf > 1 && same_set(u, w->f[w->nf - 2].v, f->v)) ||
          (x = pick(u, f->v)) == UINT32_MAX) {
        close_frame(w);
        continue;
      }
      f->x = x, f->e = 0;
    }
    uint32_t x = f->x;
    if (f->e == g->start[x + 1] - g->start[x]) {
      atomic_fetch_or(&u[x].flags, UF_DONE);
      f->x = UINT32_MAX;
      continue;
    }
    uint32_t t = kth_target(g, x, f->e++, self);
    if (t == x || S->part[t] != S->part[x])
      continue;
    switch (claim(u, t, bit)) {
    case CLAIM_DEAD:
      break;
    case CLAIM_NEW:
      if (!push_frame(w, t) || !push_root(w, t))
        return false;
      break;
    case CLAIM_FOUND: // a cycle: merge the sets on the root stack down to t's
      while (!same_set(u, f->v, t) && w->nr > 1) {
        uint32_t r = w->r[--w->nr];
        unite(u, r, w->r[w->nr - 1]);
      }
      break;
    }
  }
  return true;
}

typedef struct Job {
  Scc *S;
  uint64_t n;
  uint32_t *comp;
} Job;

// Each worker starts searches from every state of the parts, beginning at
// its own share of the ids and wrapping round: every state is complete
// when all have returned.
static void work(void *arg, uint32_t self) {
  Job *j = arg;
  Scc *S = j->S;
  Worker *w = &S->w[self];
  if (self >= S->nworkers)
    return;
  uint64_t n = j->n, first = n * self / S->nworkers;
  for (uint64_t i = 0; i < n && !atomic_load(&S->stop); i++) {
    uint64_t v64 = first + i < n ? first + i : first + i - n;
    uint32_t v = (uint32_t)v64;
    if (!S->part[v] || is_dead(S->u, v))
      continue;
    if (claim(S->u, v, UINT64_C(1) << self) != CLAIM_NEW)
      continue; // complete, or (a worker with no stack) cannot be found again
    w->nf = w->nr = 0;
    if (!search(S, w, self, v)) {
      w->nomem = !mcrt_signal;
      atomic_store(&S->stop, true);
    }
  }
}

// comp[v]: the root of v's set, each worker for its share of the states.
static void write_comp(void *arg, uint32_t self) {
  Job *j = arg;
  Scc *S = j->S;
  if (self >= S->nworkers)
    return;
  uint64_t lo = j->n * self / S->nworkers, hi = j->n * (self + 1) / S->nworkers;
  for (uint64_t v = lo; v < hi; v++)
    j->comp[v] = S->part[v] ? find(S->u, (uint32_t)v) : UINT32_MAX;
}

size_t mcrt_scc_bytes(uint64_t nstates) { return (size_t)nstates * sizeof(UfNode); }

int mcrt_scc_decompose(const McrtLiveGraph *g, const uint32_t *part, uint32_t *comp,
                       McrtTeam *team) {
  uint64_t n = g->nstates;
  Scc S = {.g = g, .part = part};
  S.nworkers = team->pool.n < 64 ? team->pool.n : 64;
  S.u = malloc((n ? n : 1) * sizeof *S.u);
  S.w = calloc(S.nworkers, sizeof *S.w);
  if (!S.u || !S.w) {
    free(S.u), free(S.w);
    return MCRT_SCC_NOMEM;
  }
  for (uint64_t v = 0; v < n; v++) {
    atomic_init(&S.u[v].workers, 0);
    atomic_init(&S.u[v].parent, (uint32_t)v);
    S.u[v].next = S.u[v].head = (uint32_t)v;
    atomic_init(&S.u[v].flags, 0);
  }
  Job j = {&S, n, comp};
  mcrt_team_run(team, work, &j);
  int status = MCRT_SCC_OK;
  for (uint32_t i = 0; i < S.nworkers; i++) {
    if (S.w[i].nomem)
      status = MCRT_SCC_NOMEM;
    free(S.w[i].f), free(S.w[i].r);
  }
  if (status == MCRT_SCC_OK && atomic_load(&S.stop))
    status = MCRT_SCC_STOPPED;
  if (status == MCRT_SCC_OK)
    mcrt_team_run(team, write_comp, &j);
  free(S.u), free(S.w);
  return status;
}
