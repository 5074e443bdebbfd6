// SPDX-License-Identifier: MIT
// murphi.h: what the three parts of the Murphi front end share.
// murphi_lex.c turns a .m file into tokens, murphi_parse.c reads them into
// the Murphi syntax tree below (its expressions and statements are the .mc
// tree's nodes, plus the Murphi-only kinds listed here), murphi_lower.c
// resolves its names and lowers it to the .mc Program (mcgen.h), rewriting
// every Murphi-only node away. Nothing outside them includes it.
#ifndef MURPHI_H
#define MURPHI_H

#include "mcgen.h"

// Statement and expression kinds that only the Murphi tree has. Each is
// lowered to ordinary nodes before check() sees the program.
enum {
  MND_ISUNDEF = ND_RESET + 100, // isundefined(lhs)
  MND_UNDEFINE,  // undefine lhs
  MND_CLEAR,     // clear lhs
  MND_WHILE,     // while cond do body
  MND_SWITCH,    // switch lhs: args are MND_CASE nodes, els the else block
  MND_CASE,      // case args (values): body
  MND_PCALL,     // name(args) as a statement: a procedure call
  MND_ALIAS,     // alias binders (name, in_expr: the aliased expression) do body
  MND_ERROR,     // error "msg": rhs (ND_STR)
  MND_PUT,       // put lhs (an expression or ND_STR)
  MND_STEP_FOR,  // for binder := lo to hi by step (binder in binders, lo in
                 // lhs, hi in rhs, step in cond or NULL) do body
  MND_STEP_QUANT,// forall/exists written with := lo to hi by step (as above; op)
  MND_ASSUME,    // assume lhs "msg" (statement)
  MND_COVER,     // cover lhs "msg" (statement)
  MND_MSADD,     // multisetadd(lhs, rhs: the multiset)
  MND_MSREMOVE,  // multisetremove(lhs: the index, rhs: the multiset)
  MND_MSREMOVEPRED, // multisetremovepred(binder: rhs; cond)
  MND_MSCOUNT,   // multisetcount(binder: rhs; cond)
};

typedef enum {
  MD_CONST,
  MD_TYPE,
  MD_VAR,
  MD_FUNCTION,   // a function (ret set) or a procedure (ret NULL)
  MD_RULE,
  MD_STARTSTATE,
  MD_INVARIANT,
  MD_COVER,
  MD_ASSUME,
  MD_LIVENESS,
  MD_RULESET,    // binders, then the rules in `inner`; a binder with an in_expr
                 // is CMurphi's `choose i: m` over the multiset m
  MD_ALIASRULE,  // binders (aliases), then the rules in `inner`
} MDeclKind;

typedef struct MParam {
  Token *name;
  Type *type;
  bool by_ref;       // a `var` parameter
} MParam;

typedef struct MDecl {
  MDeclKind kind;
  Token *tok;        // the keyword
  Token *name;       // const, type, var, function: the name
  Token *label;      // rules, start states, properties: the TK_STR name, or NULL
  Node *expr;        // const: value; rule: guard (or NULL); properties: the expression
  Type *type;        // type, var: the type; function: result (NULL: a procedure)
  Vec params;        // MParam*
  Vec locals;        // MDecl* (const, type, var) of a function, rule or start state
  Node *body;        // ND_BLOCK
  Vec binders;       // ruleset: Binder*; alias rule: Binder* (in_expr the expression)
  Vec inner;         // ruleset, alias rule: MDecl*
} MDecl;

typedef struct MModel {
  Vec decls;         // MDecl*, in source order
} MModel;

//
// murphi_lex.c
//

// Tokenizes a Murphi file: `--` and `/* */` comments, identifiers,
// keywords (case-insensitive: their str is in lower case), decimal, octal
// and hexadecimal numbers, strings in straight or curved quotes, ASCII
// punctuation and Rumur's Unicode operators (their `spelling` is the ASCII
// form). Reports bad characters and goes on; the list ends with TK_EOF.
Token *murphi_tokenize(const SrcFile *file);
bool murphi_is_kw(const Token *tok, const char *kw);

//
// murphi_parse.c
//

// Parses the token list; reports every syntax error it can (recovering at
// the next declaration) and always returns a model.
MModel *murphi_parse(Token *tok);
// Nodes and types of the tree, for the parser and the lowering; a node
// may be of a Murphi-only kind (the enum at the top).
static inline Node *murphi_node(int kind, Token *t) { return new_node((NodeKind)kind, t); }
Type *murphi_type(TypeKind kind, Token *t);

#endif
