// SPDX-License-Identifier: MIT
// mcgen.h: the compiler's one internal header. Its parts follow the folders
// of compiler/, which are its layers, lowest first (a file calls only into
// its own layer or below: tests/layers/folders.sh), and in each part a
// section per file lists exactly what that file exports; everything else in
// the file is static.
//
// Pipeline (main.c): read (core/diag.c) -> tokenize and parse (front/mc/),
// or read a DVE model (front/dve/) or a PNML net (front/pnml/), to one
// syntax tree (ast/) -> check, layout, extern, scenarios, dependencies
// (analysis/) -> emit (emit/) -> m4 -> cc.
#ifndef MCGEN_H
#define MCGEN_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MCGEN_VERSION "0.1.0"

// The iterations a while loop may run before the step fails (CMurphi's
// default -loopmax): a loop that does not end is an error, not a hang.
#define MCGEN_WHILE_LIMIT 1000

typedef struct Token Token;
typedef struct Type Type;
typedef struct Node Node;
typedef struct Obj Obj;
typedef struct Decl Decl;
typedef struct Program Program;
typedef struct Behaviour Behaviour;

// ===========================================================================
// core/: memory, strings, spec files and their errors, where mcgen's files are
// ===========================================================================

//
// util.c: memory (never freed: the compiler is short-lived), strings,
// internal errors.
//
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *vformat(const char *fmt, va_list ap);
// `s` as the inside of a C string literal: printable ASCII only, so also
// free of the m4 quotes.
char *c_escape(const char *s);
// `s` for the inside of a C comment: c_escape(s) that cannot end the
// comment or open a nested one.
char *c_comment_escape(const char *s);
_Noreturn void die_at(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define die(...) die_at(__FILE__, __LINE__, __VA_ARGS__)
#define unreachable() die("unreachable")

// A growable array of pointers.
typedef struct Vec {
  void **data;
  int len, cap;
} Vec;
void vec_push(Vec *v, void *item);

// A growable string.
typedef struct Buf {
  char *data;
  size_t len, cap;
} Buf;
void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_puts(Buf *b, const char *s);

// A set of strings (open addressing; the strings are not copied).
typedef struct StrSet {
  const char **slots;
  size_t cap, count;
} StrSet;
uint64_t str_hash(const char *s); // 64-bit FNV-1a
// XXH3-64 of LEN bytes: the identity of a file (the spec's text, the C
// files of `extern`, the generated C), which a checkpoint is bound to.
uint64_t bytes_hash(const void *data, size_t len);
// Adds `s`; false if it was there already.
bool strset_add(StrSet *set, const char *s);
bool strset_has(const StrSet *set, const char *s);
// `base` if it is not in `set`, else the first of base_2, base_3, ... that
// is not; added to the set.
const char *strset_fresh(StrSet *set, const char *base);

//
// diag.c: spec files and their errors, for people. `file:line:col: error:
// msg`, the source line, a caret under the column; then optional notes and
// hints.
//
typedef struct SrcFile {
  const char *name; // as given on the command line
  const char *text; // NUL-terminated contents
  size_t len;
} SrcFile;

void error_at(const Token *tok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void error_at_loc(const SrcFile *file, const char *loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void note_at(const Token *tok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// A warning: shown like an error, not counted as one.
void warning_at(const Token *tok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
// An error with no position in the spec (a bad -D): `mcgen: error: msg`.
void error_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int error_count(void);
// Stream for diagnostics (stderr by default; tests may redirect).
extern FILE *diag_out;
// Colour on a terminal: diag_color(true) colours the kinds, places and
// carets; diag_sgr(c) is the escape that starts part c (DIAG_PLAIN ends
// one), "" when colour is off. color_auto(fd): whether --color auto means on
// for fd (a terminal, NO_COLOR unset or empty, TERM not dumb).
typedef enum { DIAG_PLAIN, DIAG_PLACE, DIAG_ERROR, DIAG_WARNING, DIAG_NOTE, DIAG_GOOD } DiagColor;
void diag_color(bool on);
const char *diag_sgr(DiagColor c);
bool color_auto(int fd);
// Capture mode (the language server): every message is appended to *into
// as a Diagnostic* instead of being printed; NULL prints again. A note or
// a hint belongs to the error or warning before it.
typedef struct Diagnostic {
  const char *kind;     // "error", "warning", "note" or "hint"
  const SrcFile *file;  // NULL: no place (a hint, a bad -D)
  int line, col, len;   // 1-based line and byte column; len in bytes
  const char *message;
} Diagnostic;
void diag_capture(Vec *into);
// The candidate nearest to `name` by edit distance, or NULL if none is
// close enough to suggest.
const char *closest_name(const char *name, const char *const *candidates, int n);
// Line and column (1-based) of a location in a file.
void loc_line_col(const SrcFile *file, const char *loc, int *line, int *col);
// Reads a whole file ("-": standard input); NULL if it cannot be read.
SrcFile *read_file(const char *path);

//
// paths.c: the templates and the runtime, found relative to the running
// mcgen (installed tree or build tree) or named by MCGEN_TEMPLATES,
// MCGEN_RUNTIME and MCGEN_RUNTIME_INCLUDE.
//
typedef struct Paths {
  const char *templates; // holds checker.c.m4
  const char *runtime;   // holds libmcrt.a (NULL when not needed)
  const char *include;   // holds mcrt.h (NULL when not needed)
} Paths;
// need_runtime false: only the templates are looked for (--emit-c). Returns
// false after saying on stderr where it looked.
bool find_paths(const char *argv0, bool need_runtime, Paths *out);

// ===========================================================================
// ast/: the syntax tree that every front end builds and the later stages
// read, and the questions about its types
// ===========================================================================

// Tokens, made by a front end's reader: every node keeps one, so that every
// stage can point at the source.
typedef enum {
  TK_IDENT,   // identifiers
  TK_KEYWORD, // reserved words
  TK_PUNCT,   // operators and punctuation
  TK_NUM,     // decimal integer literal
  TK_STR,     // string literal
  TK_EOF,
} TokenKind;

struct Token {
  TokenKind kind;
  Token *next;
  const char *loc; // start in file->text
  int len;
  int64_t val;     // TK_NUM
  char *str;       // TK_STR: contents with escapes decoded; TK_IDENT: the name
  const char *spelling; // TK_PUNCT standing in for a bad character: what it
                        // stands for (a lone '&' is read as "&&"), else NULL
  const SrcFile *file;
  int line, col;
};

// Types as written, then resolved by check.c.
typedef enum {
  TY_BOOL,
  TY_RANGE,     // lo..hi
  TY_ENUM,
  TY_SCALARSET,
  TY_OPTIONAL,  // base?
  TY_ARRAY,     // [index] base
  TY_RECORD,
  TY_SET,       // set<base>
  TY_MULTISET,  // multiset<base, cap>
  TY_QUEUE,     // queue<base, cap>
  TY_NAMED,     // a name to resolve (check.c sets `target`)
  TY_INT,       // check.c: an integer expression's type (not writable)
  TY_NONE,      // check.c: the type of the literal `none`
  TY_STRING,    // check.c: assert messages
  TY_ERROR,     // check.c: after an error, suppresses follow-on errors
} TypeKind;

typedef struct Field {
  Token *name;
  Type *type;
  int64_t offset; // layout.c: bit offset in the record
} Field;

struct Type {
  TypeKind kind;
  Token *tok;         // where it was written
  const char *name;   // the alias that declared it (`type Proc = ...`), if any

  Node *lo_expr, *hi_expr; // TY_RANGE as written
  int64_t lo, hi;          // TY_RANGE, after check
  bool made_up;            // TY_RANGE: empty as written (reported); lo..lo stands in,
                           // and no constant is reported out of it

  Vec members;        // TY_ENUM: Token* of each member
  Obj **member_objs;  // TY_ENUM: check.c

  Node *size_expr;    // TY_SCALARSET as written
  Node *cap_expr;     // TY_MULTISET, TY_QUEUE as written
  int64_t size;       // TY_SCALARSET: N;  TY_MULTISET/TY_QUEUE: K

  Type *base;         // TY_OPTIONAL, TY_ARRAY, TY_SET, TY_MULTISET, TY_QUEUE
  Type *index;        // TY_ARRAY

  Field **fields;     // TY_RECORD
  int nfields;

  Token *ref;         // TY_NAMED: the name
  Type *target;       // TY_NAMED: check.c

  // layout.c
  int64_t width;      // bits of the encoding
  int64_t card;       // number of values of a scalar type (0: not scalar)
  int id;             // emit.c: index of its descriptor
  const char **member_labels; // TY_ENUM: how members print, if not their names (DVE)
};

typedef enum {
  ND_NUM,       // val
  ND_BOOL,      // val 0/1
  ND_NONE,      // none
  ND_STR,       // tok->str
  ND_IDENT,     // name; check.c sets obj
  ND_BINARY,    // op, lhs, rhs
  ND_UNARY,     // op, lhs
  ND_COND,      // cond ? then : els
  ND_INDEX,     // lhs[rhs]
  ND_FIELD,     // lhs.name
  ND_CALL,      // name(args): a fn
  ND_METHOD,    // lhs.name(args): len head pop empty full count push add remove clear
  ND_RECORD_LIT,// name { field: expr, ... } (fields/args parallel)
  ND_QUANT,     // op (forall exists count sum), binders, body

  ND_ASSIGN,    // lhs = rhs
  ND_IF,        // cond, then, els (els may be another ND_IF or ND_BLOCK)
  ND_FOR,       // binders (one), body
  ND_WHILE,     // while cond { body } (the Murphi front end only): at most
                // MCGEN_WHILE_LIMIT iterations, then a run-time error
  ND_LET,       // let name = rhs  (local constant)
  ND_VARDECL,   // var name: decl_type = rhs (local variable); rhs NULL (the
                // Murphi front end only): the type's default
  ND_ASSERT,    // lhs (condition), rhs (ND_STR message, may be NULL)
  ND_RETURN,    // lhs
  ND_EXPR_STMT, // lhs: a method call used as a statement
  ND_BLOCK,     // stmts
  ND_RESET,     // the DVE front end's error state (in actions): every state
                // variable back to its type's default, then lhs (a statement),
                // then the action ends
} NodeKind;

typedef enum {
  OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD,
  OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
  OP_AND, OP_OR, OP_IMPLIES, OP_IFF, OP_IN,
  OP_NOT, OP_NEG,
  OP_FORALL, OP_EXISTS, OP_COUNT, OP_SUM,
  // Bitwise operators on integers (DVE): & | ^ << >> ~
  OP_BAND, OP_BOR, OP_BXOR, OP_SHL, OP_SHR, OP_BNOT,
} Op;

// How the checker types an operator's operands and result.
typedef enum {
  OPC_ARITH,  // integers to an integer: + - * / % & | ^ << >>
  OPC_ORDER,  // integers (or two of one enum) to a bool: < <= > >=
  OPC_EQUAL,  // two comparable values to a bool: == !=
  OPC_LOGIC,  // bools to a bool: && || -> <->
  OPC_MEMBER, // an element and a collection to a bool: in
  OPC_UNARY,  // ! - ~
  OPC_QUANT,  // forall exists count sum
} OpClass;

// C's operator precedences, loosest first (emit.c prints C with the
// parentheses it needs).
enum {
  PREC_COND = 3, PREC_OR, PREC_AND, PREC_BOR, PREC_BXOR, PREC_BAND, PREC_EQ, PREC_REL, PREC_SHIFT,
  PREC_ADD, PREC_MUL, PREC_UNARY = 15, PREC_PRIMARY,
};

// What every stage knows about an operator, one row per Op (ast.c): the
// parser climbs the precedences, check.c types by class and names the
// spelling in messages, emit.c writes the C operator, the runtime function
// or the overflow check. The DVE front end reads the same rows: its parser
// climbs dve_prec, its lowering maps each operator to its row's Op and class.
typedef struct OpInfo {
  const char *spelling; // as written in a spec (a keyword for in and the quantifiers)
  int prec;             // binary operator of the spec grammar: 1 (loosest, ->) to 8
                        // (* / %); 0: not one (unary, quantifier, DVE-only)
  bool right_assoc;     // `a -> b -> c` is `a -> (b -> c)`; the others group left
  OpClass cls;
  const char *c_op;     // the C operator emit.c writes (-> is || on the negated left
                        // operand), or NULL
  int c_prec;           // the C operator's precedence (PREC_*)
  const char *c_fn;     // the runtime function emit.c calls instead (<< >>), or NULL
  const char *overflow; // "add" for __builtin_add_overflow: the check written when the
                        // result may leave int64; NULL: none (/ and % have their own)
  bool dve_only;        // not an operator of a spec (the lexer does not read it)
  int dve_prec;         // binary operator of DVE: C's precedence (PREC_*), but `imply`
                        // (this row's spelling is ->) is looser than ||; 0: not one
} OpInfo;
extern const OpInfo op_info[OP_BNOT + 1];

// A bound name: a parameter, a quantifier or loop variable.
// `x: T` sets type; `x in EXPR` sets in_expr.
typedef struct Binder {
  Token *name;
  Type *type;
  Node *in_expr;
  Obj *obj; // check.c
} Binder;

struct Node {
  NodeKind kind;
  Token *tok;      // the token that best locates it (operator, name, keyword)
  Op op;
  Node *lhs, *rhs;
  Node *cond, *then, *els;
  Vec args;        // ND_CALL, ND_METHOD: Node*; ND_RECORD_LIT: values; ND_BLOCK: statements
  Vec fnames;      // ND_RECORD_LIT: Token* field names, parallel to args
  Vec binders;     // ND_QUANT, ND_FOR: Binder*
  Node *body;      // ND_QUANT, ND_FOR
  Token *name;     // ND_IDENT, ND_FIELD, ND_CALL, ND_METHOD, ND_RECORD_LIT, ND_LET, ND_VARDECL
  Type *decl_type; // ND_VARDECL
  int64_t val;     // ND_NUM, ND_BOOL

  // check.c
  Type *ty;        // the expression's type (resolved: never TY_NAMED)
  Obj *obj;        // ND_IDENT, ND_CALL (the fn), ND_LET/ND_VARDECL (the local)
  Field *field;    // ND_FIELD, and for ND_RECORD_LIT the fields in order
  bool is_const;   // constant expression (value in val)
};

typedef enum {
  OBJ_CONST,      // decl
  OBJ_TYPE,       // decl
  OBJ_VAR,        // a state variable: decl
  OBJ_FN,         // decl
  OBJ_ENUM_MEMBER,// enum_type, index
  OBJ_PARAM,      // a binder: binder
  OBJ_LOCAL,      // let / var inside a body: node
  OBJ_ACTION,     // decl
  OBJ_INIT,       // decl
  OBJ_PREDICATE,  // invariant / reachable / terminal / constraint / property: decl
} ObjKind;

struct Obj {
  ObjKind kind;
  const char *name;
  Token *tok;      // where it was declared
  Type *type;      // resolved type (consts: TY_INT or TY_BOOL)
  Decl *decl;
  Binder *binder;
  Node *node;
  Type *enum_type;
  int64_t index;   // OBJ_ENUM_MEMBER: position
  int64_t val;     // OBJ_CONST: value
  bool writable;   // OBJ_LOCAL declared with `var`
  int id;          // emit.c: unique number for C names of locals/binders
};

typedef enum {
  DK_MODEL,
  DK_CONST,
  DK_TYPE,
  DK_VAR,
  DK_FN,
  DK_INIT,
  DK_ACTION,
  DK_INVARIANT,
  DK_REACHABLE,
  DK_TERMINAL,
  DK_CONSTRAINT,
  DK_PROPERTY,
  DK_ACCEPTING, // accepting NAME: EXPR;  (scenario.c)
  DK_SCENARIO,  // scenario NAME = BEHAVIOUR;  (scenario.c)
  DK_FAIR,
  DK_WATCH,     // watch NAME: EXPR;  (or mcgen -W NAME=EXPR): shown by the trace printers
} DeclKind;

typedef enum {
  TEMP_ALWAYS,            // [] P
  TEMP_EVENTUALLY,        // <> P
  TEMP_LEADSTO,           // P ~> Q
  TEMP_ALWAYS_EVENTUALLY, // []<> P
  TEMP_EVENTUALLY_ALWAYS, // <>[] P
} TemporalKind;

struct Decl {
  DeclKind kind;
  Token *tok;      // the keyword
  Token *name;     // NULL for an unnamed init
  Vec params;      // DK_FN, DK_INIT, DK_ACTION: Binder*; DK_PROPERTY: forall binders
  Type *type;      // DK_TYPE: aliased type; DK_VAR: type; DK_FN: return type
  Node *expr;      // DK_CONST: value; DK_INIT/DK_ACTION: `when` (or NULL);
                   // predicates: the expression; DK_PROPERTY: P
  Node *expr2;     // DK_PROPERTY: Q of `P ~> Q`
  TemporalKind temporal;
  Node *body;      // DK_FN, DK_INIT, DK_ACTION: ND_BLOCK
  bool strong;     // DK_FAIR
  Vec fair_actions;// DK_FAIR: Token* action names; several = a group `(A | B)`
  Obj *obj;        // check.c
  int index;       // check.c: position among declarations of its kind
  const char *label; // how traces and reports name it, if not its name (DVE)
  Behaviour *beh;    // DK_SCENARIO
  bool is_extern;  // DK_FN, DK_CONST: `extern fn` (no body), `extern const`
                   // (expr set by extern_load)
  bool trusted;    // DK_FN: `extern fn ... trusted;`
  const char *process; // DK_ACTION from a DVE transition: its process (deps.c)
};

// extern "h" sources "a.c", "b.c";   (extern.c reads the files)
typedef struct ExternFile {
  Token *tok;      // `extern`
  Token *header;   // TK_STR, relative to the spec
  Vec sources;     // Token* TK_STR, relative to the spec
} ExternFile;

struct Program {
  const SrcFile *file;
  Token *model_name; // from `model NAME;`, or NULL
  Vec decls;         // Decl*, in source order
  Vec enums;         // check.c: every enum type written anywhere, in order met
  const char *net_c; // a PNML net: the checker's McrtNet table (C, emit.c writes it as is)
  Vec extern_files;  // ExternFile*
  Vec extern_types;  // Token* names of `extern type NAME;`
  bool loop_order_free; // a Murphi model: a loop over a scalarset whose order
                        // matters is no error (check.c); it refuses symmetry
                        // reduction instead, saying why in symmetry_refused
  const char *symmetry_refused;
  bool range_checks_at_run_time; // a Murphi model: a constant index or value out of
                                 // range is the run-time error of the step that
                                 // meets it, not a compile-time error (check.c)
  bool none_undefined; // a Murphi model: `none` is Murphi's undefined value, and
                       // reading it is an error anywhere but in `x == none`
                       // (emit.c checks, deps.c counts the check as a failure)
};

// A scenario's behaviour as written (Cord's operators; scenario.c gives
// their meaning).
typedef enum {
  BH_NAME,       // an action (with args, or none written) or another scenario: name, args
  BH_ANY,        // _ : any one invocation
  BH_ANY_SEQ,    // ... : any sequence of invocations
  BH_SEQ,        // lhs ; rhs
  BH_LOOSE_SEQ,  // lhs -> rhs  (lhs ; ... ; rhs)
  BH_CHOICE,     // lhs | rhs
  BH_AND,        // lhs & rhs
  BH_SYNC,       // lhs || rhs
  BH_INTERLEAVE, // lhs ||| rhs
  BH_SYNC_INTER, // lhs |?| rhs
  BH_STAR,       // lhs *
  BH_PLUS,       // lhs +
  BH_OPT,        // lhs ?
  BH_REPEAT,     // lhs {min} or lhs {min,max}: min_expr, max_expr
  BH_NOT,        // ! lhs
} BehKind;

// One argument of an invocation: `_`, `VALUE` or `PARAM = VALUE`.
typedef struct BehArg {
  Token *tok;   // where it starts
  Token *param; // the parameter named, or NULL (positional)
  Node *value;  // NULL for `_`
} BehArg;

struct Behaviour {
  BehKind kind;
  Token *tok;              // the operator, or the name
  Behaviour *lhs, *rhs;
  bool has_args;           // BH_NAME: written with parentheses
  Vec args;                // BH_NAME: BehArg*
  Node *min_expr, *max_expr; // BH_REPEAT (max_expr NULL: exactly min)
};

//
// ast.c: the tree's builders, shared by the front ends, and its tokens'
// spelling.
//
// Zeroed memory for the tree (nodes, types, binders, fields), from large
// chunks: never freed, like all compiler memory.
void *ast_alloc(size_t size);
// Past `max` nodes made, over(at) is called and must not return (0: no
// bound); each call starts a new count.
void ast_node_budget(long max, void (*over)(Token *at));
Node *new_node(NodeKind kind, Token *t);
Node *new_num(Token *at, int64_t v);
Node *new_bool(Token *at, bool v);
Node *new_ident(Token *at, Token *name);
Node *new_unary(Op op, Node *l, Token *at);
Node *new_binary(Op op, Node *lhs, Node *rhs, Token *t);
Node *new_cond(NodeKind kind, Node *cond, Node *then, Node *els, Token *at);
Type *new_type(TypeKind kind, Token *t);
Type *new_range_type(Token *at, int64_t lo, int64_t hi);
// A declaration appended to the program's.
Decl *new_decl(Program *prog, DeclKind kind, Token *tok, Token *name);
Token *name_token(const SrcFile *file, int line, int col, const char *text);
// Whether the token spells `s` (a string literal or the end never does).
bool equal(const Token *tok, const char *s);
char *token_text(const Token *tok);

// The one walk over a tree of nodes. Calls visit(node, ctx) on NODE
// and then, unless visit returns false, walks its children in this order:
// lhs, rhs, cond, then, els, body, args, each binder's in_expr. NULL
// children are skipped.
typedef bool Visitor(Node *node, void *ctx);
void walk(Node *node, Visitor *visit, void *ctx);

//
// types.c: every question about a Type. The encodings require check().
//
// The type of an expression whose type could not be determined (after an
// error): it suppresses follow-on errors.
extern Type *const ty_error;
// Follows TY_NAMED links.
Type *resolve(Type *ty);
bool is_scalar(const Type *ty); // bool, range, enum, scalarset, int
const char *type_name(const Type *ty); // for messages
// Lays out a type (its width and card, a record's field offsets); reports
// (as a spec error at `where`, or at the type) a type too large to encode.
bool layout_of(Type *ty, Token *where);
// Distinct encodings of a collection element (its card, or 2^width).
int64_t element_space(Type *ty);
// The number of values of a scalar type (0: not scalar), laid out first.
int64_t card_of(Type *ty);
// The number of values a parameter takes.
int64_t binder_card(Binder *b);
// Every scalarset a type holds (each added to `out` once, in the order
// met), and the first of them (NULL: none; a permutation cannot change the
// type's values).
void scalarsets_in(Type *ty, Vec *out);
Type *scalarset_in(Type *ty);
// How the runtime prints value `e` (an encoding) of a finite scalar type.
char *value_name(Type *ty, int64_t e);
// The bits of a state at most (2 MiB), of an array or a record too.
#define MAX_STATE_BITS ((int64_t)1 << 24)
// Reports that `what` needs `bits`, more than `max`; false.
bool too_many_bits(Token *where, const char *what, int64_t bits, int64_t max);

// ===========================================================================
// front/: the front ends, one a folder: a spec file to a syntax tree
// ===========================================================================

//
// front.c: the front end of a file, by its extension: .dve is DiVinE's DVE,
// .pnml a Petri net, anything else mcgen's language.
//
// Parses the file (its errors reported); NULL only after a PNML file that is
// not well-formed XML.
Program *parse_spec(const SrcFile *file);
bool is_pnml(const char *path);

//
// mc/lex.c, mc/parse.c: mcgen's language (.mc)
//
// Tokenizes the whole file; reports bad characters and unterminated
// strings/comments and goes on. The list always ends with TK_EOF.
Token *tokenize(const SrcFile *file);

// Parses a whole file; reports every syntax error it can (recovering at
// the next declaration) and always returns a Program.
Program *parse(Token *tok);
// mcgen -W NAME=EXPR: the tokens of one option's text (a file of its own,
// named "-W", so that errors point into it), parsed and appended to prog as
// a watch declaration. False after a syntax error (reported).
bool parse_watch_option(Program *prog, Token *tok);

//
// dve/dve_lower.c: the DVE front end (dve_parse.c reads the file, dve_lower.c
// resolves and lowers it; dve.h is what they share). Parses a .dve file and
// lowers it to the same Program that parse() builds; reports every syntax
// and name error of the file, like parse() and check().
//
Program *parse_dve(const SrcFile *file);

//
// murphi/murphi_lower.c: the Murphi front end (murphi_lex.c, murphi_parse.c
// and murphi_lower.c; murphi.h is what they share). Reads a Murphi model
// (.m, as Rumur accepts it) and lowers it to the same Program that parse()
// builds; reports every syntax error, and every name and type error and
// every construct it does not support, one per declaration.
Program *parse_murphi(const SrcFile *file);

// pnml/pnml.c: the PNML front end. Reads a place/transition net (.pnml) and
// lowers it to a Program (one counter per place, one action per transition)
// with its McrtNet table in net_c. NULL after a file that is not
// well-formed XML (reported); otherwise reports every refusal of the net.
//
Program *parse_pnml(const SrcFile *file);
// mcgen --net-info: reads the net and prints its structural analyses
// (petri.c). 0 printed, 1 the net was refused, 2 not well-formed XML (both
// reported).
int pnml_net_info(const SrcFile *file, FILE *out);

// ===========================================================================
// analysis/: what the compiler finds out about a checked tree
// ===========================================================================

//
// check.c: name resolution, types, constants, the scalarset rules, definite
// assignment of scalarsets in init blocks, `-D` overrides.
//
typedef struct Define {
  const char *name;
  const char *value;
} Define;

// Requires parse(). Returns false if errors were reported.
bool check(Program *prog, Define *defines, int ndefines);

//
// layout.c: the bit offset of every state variable (each type's width is
// types.c's).
//
typedef struct Layout {
  int64_t state_bits;
  int64_t state_bytes;
  Vec vars;          // Obj* state variables in declaration order
  int64_t *offsets;  // bit offset of vars[i]
} Layout;

// Requires check(). Reports (as spec errors) types too large to encode.
bool layout(Program *prog, Layout *out);

//
// extern.c: C functions, types and constants used by a spec (`extern`),
// read with libclang. extern_load (after parse) reads the header and the
// sources and sets each `extern const`; extern_check (after check) compares
// every `extern fn` and `extern type` with its C declaration and checks that
// the functions are deterministic. Both report spec errors with the C
// location in a note; errors in the C input itself (a missing file, C that
// does not compile) also make extern_input_bad() true (mcgen exits 2).
//
bool extern_load(Program *prog);
bool extern_check(Program *prog);
bool extern_input_bad(void);
// The C file's `#include` lines for the headers (absolute paths).
const char *extern_includes(Program *prog);
// The C sources to compile with the checker (paths usable from the cwd).
Vec extern_sources(Program *prog);
// Every C file extern_load read (the headers, the sources and the files
// they include outside the system headers), once each, as lines
// `PATH=HASH`: its absolute path and the XXH3-64 of its bytes (16 hex
// digits). The checker's build identity names them (runtime/context/checkpoint.c).
const char *extern_file_hashes(void);
// Writes the wrapper f_NAME of an `extern fn`: the same signature as a
// spec fn's, converting the arguments to C and checking the result.
void emit_extern_fn(Buf *protos, Buf *out, Decl *fn);

//
// scenario.c: scenarios compiled to automata over the actions' bindings, and
// the product with the model (a hidden state variable that the compiler adds,
// a guard and an update per action). Requires check().
//
typedef struct ScenarioOptions {
  const char *name;     // --scenario NAME, or NULL: the model alone
  bool behaviour_only;  // --behaviour-only: the actions' guards and bodies ignored
  int max_states;       // the size cap of an automaton
} ScenarioOptions;

// Compiles every scenario (reporting its errors) and, when one is chosen,
// adds the automaton's state variable to the program. Returns false after
// errors.
bool scenario_compile(Program *prog, const ScenarioOptions *opt);
// The words of up to `len` steps that the chosen scenario accepts, one a
// line (each step the name of its action; `<empty>` for the empty word),
// for the operator tests, which compare them with a brute-force evaluator.
bool scenario_print_words(FILE *out, int len);
// What emit.c needs of the chosen scenario: whether there is one, its
// name, the state variable added for it, whether symmetry stays sound, and
// the C text of its tables and of mc_scenario_step(q, rule) (the variable's
// next value, or -1: no move) and mc_scenario_accept[q].
bool scenario_active(void);
const char *scenario_name(void);
Obj *scenario_state_var(void);
bool scenario_symmetric(void);
void scenario_emit_tables(Buf *out);

//
// deps.c: the cells each action rule reads and writes, the process of each
// rule and the cells the predicates read (partial-order reduction).
// Requires check() and layout(); after scenario_compile().
//
// Appends the C tables (mc_deps, a McrtDeps) to out; false when there are
// too many rules or cells to tabulate (then only a comment saying so).
bool deps_emit(Program *prog, Layout *lay, Buf *out);
// mcgen --deps: the tables for a person (json false) or for tools. 0
// printed, 2 too large to tabulate (said on stderr).
int deps_print(Program *prog, Layout *lay, FILE *out, bool json);

// ===========================================================================
// emit/: the tree to the generated C
// ===========================================================================

//
// emit.c: writes the m4 definitions of the model; the templates give the
// generated C its shape.
//
bool emit(Program *prog, Layout *lay, FILE *out);
// The action rules (one per parameter binding) of the last emit().
uint64_t emitted_rules(void);
const char *model_name(Program *prog); // `model NAME;` or the file's base name

//
// symmetry.c: the permutation tables of the scalarsets in the state and the
// functions that apply a permutation to a state and compute the invariant
// keys the runtime's canonicaliser sorts by (mc_sym_apply, mc_sym_keys).
//
// Appends their C text to out; returns the number of scalarsets in the
// state (0: no symmetry, nothing written but maybe a comment).
int emit_symmetry(Layout *lay, Buf *out);

// ===========================================================================
// lsp/: the language server (mcgen --lsp)
// ===========================================================================

//
// lsp.c: serves the Language Server Protocol on stdin and stdout until the
// client says exit; the exit status (0 after a shutdown request, 1 without).
//
int lsp_main(void);

#endif
