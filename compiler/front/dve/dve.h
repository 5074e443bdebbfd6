// SPDX-License-Identifier: MIT
// dve.h: what the two halves of the DVE front end share. dve_parse.c reads a
// .dve file into the DVE syntax tree below; dve_lower.c resolves its names
// and lowers it to the .mc tree (mcgen.h). Nothing outside them includes it.
#ifndef DVE_H
#define DVE_H

#include "mcgen.h"

typedef struct DProc DProc;
typedef struct DVar DVar;
typedef struct DChan DChan;

typedef enum { DE_NUM, DE_VAR, DE_STATE, DE_UNARY, DE_BINARY } DExprKind;

typedef struct DExpr {
  DExprKind kind;
  Token *tok;        // operator, name or number
  int64_t val;       // DE_NUM
  Token *proc;       // DE_VAR `P->x`, DE_STATE `P.s`: the process name
  Token *name;       // DE_VAR, DE_STATE
  struct DExpr *idx; // DE_VAR: a[idx]
  Op op;             // DE_UNARY, DE_BINARY: its op_info row (`and` is OP_AND, `imply` OP_IMPLIES)
  struct DExpr *l, *r;
  // resolution
  DVar *var;
  DProc *sproc;      // DE_STATE
  int state;         // DE_STATE
} DExpr;

struct DVar {
  Token *name;       // first: dve_lower.c finds an element by it
  bool is_int, is_const;
  int64_t size;      // -1: scalar; an array's size (0 until resolved)
  DExpr *size_expr;  // an array's size as written
  Vec init;          // DExpr*
  DProc *proc;       // NULL: global
  bool broken;       // its declaration has a syntax error
  const char *cname;
  int64_t cval;      // a scalar constant's value
  bool cval_unknown; // ... could not be computed (an error was reported)
};

struct DChan {
  Token *name;       // first: dve_lower.c finds an element by it
  Vec types;         // bool* is_int per component (NULL entries: byte)
  int ncomp;
  bool typed;
  int64_t cap;       // 0: rendezvous
  DExpr *cap_expr;   // the capacity as written, or NULL
  const char **qnames; // buffered: queue per component (or a counter)
};

typedef struct DTrans {
  DProc *proc;
  Token *tok, *from, *to;
  int fromi, toi;
  Vec guards;        // DExpr*
  Token *sync_tok;   // NULL: no sync
  Token *chan_tok;
  DChan *chan;
  bool send;
  Vec sexprs;        // send: values; receive: lvalues (DE_VAR)
  Vec lhs, rhs;      // effects
  bool broken;       // has a syntax error: only its names are resolved
} DTrans;

struct DProc {
  Token *name;       // first: dve_lower.c finds an element by it
  Vec vars;          // DVar*
  Vec states;        // Token*
  Token *init;
  int initi;
  Vec commits, accepts; // Token*, as written
  bool *commit, *accept; // per state, after resolution
  Vec assert_states, assert_exprs; // Token*, DExpr*
  Vec trans;         // DTrans*
  bool broken;       // its body has a syntax error
  bool states_lost, vars_lost; // a state or variable name is missing (a
                     // syntax error): an unknown one is not reported
  const char *cname;
  const char **state_cnames;
};

typedef struct DSystem {
  Vec vars;          // DVar* globals and constants
  Vec chans;         // DChan*
  Vec procs;         // DProc*
  Token *property;
  Token *system_tok;
  bool vars_lost, chans_lost, procs_lost; // a name of that kind is missing
                     // (a syntax error): an unknown one is not reported
} DSystem;

//
// dve_parse.c
//

// Tokenizes and parses a .dve file. Reports every syntax error, recovering
// at the next transition clause, transition, process item or declaration;
// always returns a tree (with what could be parsed).
DSystem *dve_parse(const SrcFile *file);
// Whether `name` was skipped by error recovery (or is missing): an unknown
// name that is one of these is not reported, since its declaration may be
// in what was skipped.
bool dve_name_lost(const char *name);

#endif
