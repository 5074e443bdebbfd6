// SPDX-License-Identifier: MIT
// index.c: one version of a document, analysed as mcgen analyses a spec
// (parse_spec, extern_load, check, extern_check, scenario_compile, layout)
// with the diagnostics captured (diag.c's capture mode), then turned into
// what the server answers from: the diagnostics as LSP's, the outline,
// and an index of every name in the document (a ref) and what it names (a
// def, with its hover text). Every node keeps its token, so each ref is a
// token of the checked tree: a name in an expression (its Obj), a named
// type (the alias it resolves to), a field, a parameter, an action in a
// `fair` line or a scenario.
//
// It runs in a child process of the server (lsp.c): the compiler's stages
// keep their state in statics and never free (docs/STYLE.md 6), so each
// version gets a fresh process, and its memory goes with it.
#include "lsp.h"

// Columns: the client's are 0-based UTF-16 units (or UTF-8 bytes when it
// accepts them); the compiler's 1-based bytes. A file's line starts turn
// one into the other.
typedef struct Lines {
  const SrcFile *file;
  const char **start; // start[i]: the first byte of line i + 1
  int n;
} Lines;

static const SrcFile *doc;
static const char *doc_uri;
static bool utf8_columns;

static Lines *lines_of(const SrcFile *f) {
  static Lines doc_lines, other; // the document's, and the last other file's
  Lines *l = f == doc ? &doc_lines : &other;
  if (l->file == f)
    return l;
  Vec starts = {0};
  vec_push(&starts, (void *)f->text);
  for (const char *p = f->text; p < f->text + f->len; p++)
    if (*p == '\n')
      vec_push(&starts, (void *)(p + 1));
  *l = (Lines){.file = f, .start = (const char **)starts.data, .n = starts.len};
  return l;
}

// The end of line i (0-based), before its line break.
static const char *line_end(Lines *l, int i) {
  const char *end = i + 1 < l->n ? l->start[i + 1] - 1 : l->file->text + l->file->len;
  return end > l->start[i] && end[-1] == '\r' ? end - 1 : end;
}

// {"line", "character"} of byte column `col` (1-based) of line `line`.
static cJSON *position(const SrcFile *f, int line, int col) {
  Lines *l = lines_of(f);
  int i = line < 1 ? 0 : line > l->n ? l->n - 1 : line - 1;
  const char *start = l->start[i], *end = line_end(l, i);
  const char *at = col < 1 ? start : col - 1 > end - start ? end : start + col - 1;
  int units = 0;
  for (const char *p = start; p < at; p++) {
    unsigned char c = (unsigned char)*p;
    if (utf8_columns || (c & 0xc0) != 0x80)
      units += 1 + (!utf8_columns && c >= 0xf0); // past the BMP: a surrogate pair
  }
  cJSON *pos = cJSON_CreateObject();
  cJSON_AddNumberToObject(pos, "line", i);
  cJSON_AddNumberToObject(pos, "character", units);
  return pos;
}

static cJSON *range_on_line(const SrcFile *f, int line, int col, int len) {
  cJSON *r = cJSON_CreateObject();
  cJSON_AddItemToObject(r, "start", position(f, line, col));
  cJSON_AddItemToObject(r, "end", position(f, line, col + (len > 0 ? len : 0)));
  return r;
}

static cJSON *token_range(const Token *t) {
  return range_on_line(t->file, t->line, t->col, t->len);
}

// Whether p points into the document's text (a token made up by a front
// end, a PNML name, points elsewhere).
static bool in_doc(const char *p) {
  return p >= doc->text && p <= doc->text + doc->len;
}

// The 1-based line and byte column of a pointer into the document.
static void doc_line_col(const char *p, int *line, int *col) {
  Lines *l = lines_of(doc);
  int lo = 0, hi = l->n - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (l->start[mid] <= p)
      lo = mid;
    else
      hi = mid - 1;
  }
  *line = lo + 1;
  *col = (int)(p - l->start[lo]) + 1;
}

static cJSON *doc_position(const char *p) {
  int line, col;
  doc_line_col(p, &line, &col);
  return position(doc, line, col);
}

//
// Diagnostics
//

static cJSON *location(const SrcFile *f, int line, int col, int len) {
  cJSON *loc = cJSON_CreateObject();
  cJSON_AddStringToObject(loc, "uri", f == doc ? doc_uri : path_to_uri(f->name));
  cJSON_AddItemToObject(loc, "range", range_on_line(f, line, col, len));
  return loc;
}

// An LSP Diagnostic of an error or a warning. One elsewhere than in the
// document (a C file of `extern`) or at no place stands at its start, and
// says where it is.
static cJSON *new_diagnostic(const Diagnostic *d, Buf *message) {
  cJSON *out = cJSON_CreateObject();
  bool here = d->file == doc;
  cJSON_AddItemToObject(out, "range", here ? range_on_line(doc, d->line, d->col, d->len)
                                           : range_on_line(doc, 1, 1, 0));
  cJSON_AddNumberToObject(out, "severity", strcmp(d->kind, "error") ? 2 : 1);
  cJSON_AddStringToObject(out, "source", "mcgen");
  *message = (Buf){0};
  if (d->file && !here)
    buf_printf(message, "%s:%d:%d: ", d->file->name, d->line, d->col);
  buf_puts(message, d->message);
  return out;
}

// A note of the diagnostic before it: its related information when it has
// a place, else a line of its message; a hint: a line of its message.
static void add_note(cJSON *diag, Buf *message, const Diagnostic *d) {
  if (!strcmp(d->kind, "hint") || !d->file) {
    buf_printf(message, "\n%s: %s", d->kind, d->message);
    return;
  }
  cJSON *related = cJSON_GetObjectItem(diag, "relatedInformation");
  if (!related)
    related = cJSON_AddArrayToObject(diag, "relatedInformation");
  cJSON *info = cJSON_CreateObject();
  cJSON_AddItemToObject(info, "location", location(d->file, d->line, d->col, d->len));
  cJSON_AddStringToObject(info, "message", d->message);
  cJSON_AddItemToArray(related, info);
}

static cJSON *lsp_diagnostics(Vec *captured) {
  cJSON *out = cJSON_CreateArray();
  cJSON *cur = NULL;
  Buf message = {0};
  for (int i = 0; i <= captured->len; i++) {
    Diagnostic *d = i < captured->len ? captured->data[i] : NULL;
    bool starts = !d || !strcmp(d->kind, "error") || !strcmp(d->kind, "warning");
    if (starts && cur)
      cJSON_AddStringToObject(cur, "message", message.data);
    if (d && starts)
      cJSON_AddItemToArray(out, cur = new_diagnostic(d, &message));
    else if (d && cur)
      add_note(cur, &message, d);
  }
  return out;
}

//
// Declarations: their text, their extent, the outline
//

static const char *name_of(const Token *t) {
  return t->str ? t->str : token_text(t);
}

// Skips a comment or a string literal at p; p itself when there is none.
static const char *skip_comment_or_string(const char *p, const char *end) {
  if (p + 1 < end && p[0] == '/' && p[1] == '/')
    return memchr(p, '\n', (size_t)(end - p)) ? (const char *)memchr(p, '\n', (size_t)(end - p))
                                              : end;
  if (p + 1 < end && p[0] == '/' && p[1] == '*') {
    const char *close = memmem(p + 2, (size_t)(end - p - 2), "*/", 2);
    return close ? close + 2 : end;
  }
  if (*p == '"') {
    for (p++; p < end && *p != '"' && *p != '\n'; p++)
      if (*p == '\\' && p + 1 < end)
        p++;
    return p < end ? p + 1 : end;
  }
  return p;
}

// Where a declaration's text ends: past the `;` that ends it, or the `}`
// that closes its body (at `body`, when it has one), whichever brackets
// are open between; NULL when its text is not in the document.
static const char *decl_end(const Decl *d) {
  const char *p = d->body && d->body->tok ? d->body->tok->loc : d->tok->loc;
  if (!in_doc(d->tok->loc) || !in_doc(p))
    return NULL;
  const char *end = doc->text + doc->len;
  int depth = 0;
  while (p < end) {
    const char *q = skip_comment_or_string(p, end);
    if (q != p) {
      p = q;
      continue;
    }
    char c = *p++;
    depth += (c == '{' || c == '(' || c == '[') - (c == '}' || c == ')' || c == ']');
    if ((depth <= 0 && c == ';') || (d->body && depth <= 0 && c == '}'))
      return p;
  }
  return end;
}

// The declaration as written, up to its body: `action start(p: Proc) when
// pc[p] == idle`, with runs of blanks and line breaks as one space and
// comments left out.
// A declaration a front end made up (DVE's lowering) has no text of its
// own: its name stands for it.
static const char *decl_header(const Decl *d) {
  const char *stop = d->body && d->body->tok && in_doc(d->body->tok->loc) ? d->body->tok->loc
                                                                         : decl_end(d);
  if (!stop || !in_doc(d->tok->loc) || stop < d->tok->loc)
    return name_of(d->name ? d->name : d->tok);
  Buf b = {0};
  buf_puts(&b, "");
  for (const char *p = d->tok->loc; p < stop && b.len < 400;) {
    const char *q = skip_comment_or_string(p, stop);
    if (q != p && *p != '"') {
      p = q;
      continue;
    }
    for (; p < (q != p ? q : p + 1); p++) {
      bool blank = *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r';
      if (!blank)
        buf_printf(&b, "%c", *p);
      else if (b.len && b.data[b.len - 1] != ' ')
        buf_puts(&b, " ");
    }
  }
  while (b.len && b.data[b.len - 1] == ' ')
    b.data[--b.len] = '\0';
  return b.data;
}

static int symbol_kind(const Decl *d) {
  enum { MODULE = 2, ENUM = 10, FUNCTION = 12, VARIABLE = 13, CONSTANT = 14,
         OBJECT = 19, STRUCT = 23, EVENT = 24, TYPE_PARAMETER = 26, PROPERTY = 7,
         CONSTRUCTOR = 9 };
  switch (d->kind) {
  case DK_MODEL: return MODULE;
  case DK_CONST: return CONSTANT;
  case DK_TYPE: {
    Type *ty = d->type;
    return ty->kind == TY_ENUM ? ENUM : ty->kind == TY_RECORD ? STRUCT : TYPE_PARAMETER;
  }
  case DK_VAR: return VARIABLE;
  case DK_FN: return FUNCTION;
  case DK_INIT: return CONSTRUCTOR;
  case DK_ACTION: return EVENT;
  case DK_SCENARIO: return OBJECT;
  default: return PROPERTY;
  }
}

static cJSON *symbol(const char *name, int kind, const char *detail, cJSON *range,
                     cJSON *selection) {
  cJSON *s = cJSON_CreateObject();
  cJSON_AddStringToObject(s, "name", *name ? name : "?");
  cJSON_AddNumberToObject(s, "kind", kind);
  if (detail)
    cJSON_AddStringToObject(s, "detail", detail);
  cJSON_AddItemToObject(s, "range", range);
  cJSON_AddItemToObject(s, "selectionRange", selection);
  return s;
}

// The members of an enum and the fields of a record, as children.
static void member_symbols(cJSON *parent, Type *ty) {
  if (ty->kind != TY_ENUM && ty->kind != TY_RECORD)
    return;
  cJSON *children = cJSON_AddArrayToObject(parent, "children");
  int n = ty->kind == TY_ENUM ? ty->members.len : ty->nfields;
  for (int i = 0; i < n; i++) {
    Token *t = ty->kind == TY_ENUM ? ty->members.data[i] : ty->fields[i]->name;
    if (t->file != doc || !t->len)
      continue;
    const char *detail = ty->kind == TY_RECORD ? type_name(ty->fields[i]->type) : NULL;
    cJSON_AddItemToArray(children, symbol(name_of(t),
                                          ty->kind == TY_ENUM ? 22 : 8, detail,
                                          token_range(t), token_range(t)));
  }
}

static cJSON *decl_symbol(const Decl *d) {
  Token *name = d->name;
  cJSON *selection = token_range(name);
  const char *end = decl_end(d);
  cJSON *range = cJSON_CreateObject();
  if (end && in_doc(d->tok->loc)) {
    cJSON_AddItemToObject(range, "start", position(doc, d->tok->line, d->tok->col));
    cJSON_AddItemToObject(range, "end", doc_position(end));
  } else {
    cJSON_Delete(range);
    range = token_range(name);
  }
  const char *detail = d->kind == DK_VAR ? type_name(d->type) : NULL;
  cJSON *s = symbol(name_of(name), symbol_kind(d), detail, range, selection);
  if (d->kind == DK_TYPE)
    member_symbols(s, d->type);
  return s;
}

static cJSON *outline(Program *prog) {
  cJSON *out = cJSON_CreateArray();
  for (int i = 0; i < prog->decls.len; i++) {
    Decl *d = prog->decls.data[i];
    if (d->name && d->name->len && d->name->file == doc && d->kind != DK_FAIR)
      cJSON_AddItemToArray(out, decl_symbol(d));
  }
  return out;
}

//
// The index: defs (what a name names) and refs (each name in the document)
//

typedef struct Ref {
  int line, start, end, def;
} Ref;

static cJSON *defs;   // {"uri", "range", "hover"}
static Vec refs;      // Ref*
static Program *prog;
static bool laid_out; // layout() ran: the widths are known

// Pointer keys (an Obj, a Field, a declared Type) to their def, by open
// addressing; the table doubles at half full.
static const void **keys;
static int *vals;
static size_t nkeys, cap;

static size_t slot_of(const void *key) {
  size_t h = (size_t)((uintptr_t)key * 0x9e3779b97f4a7c15u) & (cap - 1);
  while (keys[h] && keys[h] != key)
    h = (h + 1) & (cap - 1);
  return h;
}

static void map_put(const void *key, int def) {
  if (2 * (nkeys + 1) > cap) {
    const void **old = keys;
    int *old_vals = vals;
    size_t old_cap = cap;
    cap = cap ? 2 * cap : 256;
    keys = xcalloc(cap, sizeof *keys);
    vals = xcalloc(cap, sizeof *vals);
    for (size_t i = 0; i < old_cap; i++)
      if (old[i]) {
        size_t h = slot_of(old[i]);
        keys[h] = old[i];
        vals[h] = old_vals[i];
      }
  }
  size_t h = slot_of(key);
  nkeys += !keys[h];
  keys[h] = key;
  vals[h] = def;
}

static int map_get(const void *key) {
  if (!cap)
    return -1;
  size_t h = slot_of(key);
  return keys[h] ? vals[h] : -1;
}

// A def at token `at` (in the document, or no def: -1), with its hover as
// a block of mcgen code and a line of facts.
static int new_def(const void *key, const Token *at, const char *code, const char *facts) {
  if (map_get(key) >= 0)
    return map_get(key);
  if (!at || at->file != doc || !at->len)
    return -1;
  cJSON *def = cJSON_CreateObject();
  cJSON_AddStringToObject(def, "uri", doc_uri);
  cJSON_AddItemToObject(def, "range", token_range(at));
  cJSON_AddStringToObject(def, "hover", format("```mc\n%s\n```%s%s", code, facts ? "\n\n" : "",
                                               facts ? facts : ""));
  cJSON_AddItemToArray(defs, def);
  int id = cJSON_GetArraySize(defs) - 1;
  map_put(key, id);
  return id;
}

static const char *value_text(const Obj *obj) {
  Type *ty = obj->type ? resolve(obj->type) : NULL;
  if (ty && ty->kind == TY_BOOL)
    return obj->val ? "true" : "false";
  return format("%lld", (long long)obj->val);
}

// What a declaration's hover says below its text.
static const char *decl_facts(const Obj *obj) {
  switch (obj->kind) {
  case OBJ_CONST: return format("value: `%s`", value_text(obj));
  case OBJ_VAR:
    return laid_out ? format("state variable, %lld bit%s", (long long)resolve(obj->type)->width,
                             resolve(obj->type)->width == 1 ? "" : "s")
                    : "state variable";
  default: return NULL;
  }
}

static const char *describe_binder(const Binder *b) {
  return b->type ? format("%s: %s", name_of(b->name), type_name(b->type))
                 : format("%s in ...", name_of(b->name));
}

// The def of an object, made when first met.
static int def_of(Obj *obj) {
  if (!obj)
    return -1;
  int id = map_get(obj);
  if (id >= 0)
    return id;
  const char *name = obj->name ? obj->name : token_text(obj->tok);
  switch (obj->kind) {
  case OBJ_ENUM_MEMBER:
    return new_def(obj, obj->tok, name, format("a value of `%s`", type_name(obj->enum_type)));
  case OBJ_PARAM:
    return new_def(obj, obj->tok, describe_binder(obj->binder), "parameter or bound variable");
  case OBJ_LOCAL:
    return new_def(obj, obj->tok,
                   format("%s %s: %s", obj->writable ? "var" : "let", name, type_name(obj->type)),
                   "local");
  default:
    return obj->decl ? new_def(obj, obj->tok, decl_header(obj->decl), decl_facts(obj)) : -1;
  }
}

static void add_ref(const Token *t, int def) {
  if (def < 0 || !t || t->file != doc || !t->len || t->line < 1)
    return;
  Ref *r = xcalloc(1, sizeof *r);
  cJSON *range = token_range(t);
  cJSON *start = cJSON_GetObjectItem(range, "start"), *end = cJSON_GetObjectItem(range, "end");
  r->line = cJSON_GetObjectItem(start, "line")->valueint;
  r->start = cJSON_GetObjectItem(start, "character")->valueint;
  r->end = cJSON_GetObjectItem(end, "character")->valueint;
  r->def = def;
  cJSON_Delete(range);
  vec_push(&refs, r);
}

static void index_expr(Node *n);

static void index_type(Type *ty, const char *record_name) {
  if (!ty)
    return;
  switch (ty->kind) {
  case TY_NAMED:
    add_ref(ty->ref, ty->target ? map_get(ty->target) : -1);
    return;
  case TY_ENUM:
    for (int i = 0; ty->member_objs && i < ty->members.len; i++)
      add_ref(ty->members.data[i], def_of(ty->member_objs[i]));
    return;
  case TY_RECORD:
    for (int i = 0; i < ty->nfields; i++) {
      Field *f = ty->fields[i];
      const char *code = format("%s: %s", name_of(f->name), type_name(f->type));
      add_ref(f->name, new_def(f, f->name, code, format("a field of `%s`", record_name)));
      index_type(f->type, name_of(f->name));
    }
    return;
  default:
    index_expr(ty->lo_expr);
    index_expr(ty->hi_expr);
    index_expr(ty->size_expr);
    index_expr(ty->cap_expr);
    index_type(ty->index, record_name);
    index_type(ty->base, record_name);
  }
}

static void index_binder(Binder *b) {
  add_ref(b->name, def_of(b->obj));
  index_type(b->type, "record");
}

static bool index_node(Node *n, void *ctx) {
  (void)ctx;
  switch (n->kind) {
  case ND_IDENT: add_ref(n->name ? n->name : n->tok, def_of(n->obj)); break;
  case ND_CALL: add_ref(n->name, def_of(n->obj)); break;
  case ND_FIELD: add_ref(n->name, map_get(n->field)); break;
  case ND_LET:
  case ND_VARDECL:
    add_ref(n->name, def_of(n->obj));
    index_type(n->decl_type, "record");
    break;
  case ND_QUANT:
  case ND_FOR:
    for (int i = 0; i < n->binders.len; i++) {
      Binder *b = n->binders.data[i];
      add_ref(b->name, def_of(b->obj));
      index_type(b->type, "record");
    }
    break;
  default: break;
  }
  return true;
}

static void index_expr(Node *n) {
  if (n)
    walk(n, index_node, NULL);
}

// The action or scenario a name in a `fair` line or a behaviour names.
static int def_named(const Token *name) {
  for (int i = 0; i < prog->decls.len; i++) {
    Decl *d = prog->decls.data[i];
    if ((d->kind == DK_ACTION || d->kind == DK_SCENARIO) && d->name &&
        d->name->len == name->len && !memcmp(d->name->loc, name->loc, (size_t)name->len))
      return d->obj ? def_of(d->obj) : new_def(d, d->name, decl_header(d), NULL);
  }
  return -1;
}

static void index_behaviour(Behaviour *b) {
  if (!b)
    return;
  if (b->kind == BH_NAME)
    add_ref(b->tok, def_named(b->tok));
  for (int i = 0; i < b->args.len; i++)
    index_expr(((BehArg *)b->args.data[i])->value);
  index_expr(b->min_expr);
  index_expr(b->max_expr);
  index_behaviour(b->lhs);
  index_behaviour(b->rhs);
}

static void index_decl(Decl *d) {
  if (d->obj)
    add_ref(d->name, def_of(d->obj));
  else if (d->kind == DK_SCENARIO) {
    add_ref(d->name, def_named(d->name));
  }
  for (int i = 0; i < d->params.len; i++)
    index_binder(d->params.data[i]);
  for (int i = 0; i < d->fair_actions.len; i++)
    add_ref(d->fair_actions.data[i], def_named(d->fair_actions.data[i]));
  index_type(d->type, d->name ? name_of(d->name) : "record");
  index_expr(d->expr);
  index_expr(d->expr2);
  index_expr(d->body);
  index_behaviour(d->beh);
}

static int by_position(const void *a, const void *b) {
  const Ref *x = *(Ref *const *)a, *y = *(Ref *const *)b;
  return x->line != y->line ? (x->line > y->line) - (x->line < y->line)
                            : (x->start > y->start) - (x->start < y->start);
}

// The refs in order of position, a name once: [[line, start, end, def], ...].
static cJSON *sorted_refs(void) {
  qsort(refs.data, (size_t)refs.len, sizeof *refs.data, by_position);
  cJSON *out = cJSON_CreateArray();
  for (int i = 0; i < refs.len; i++) {
    Ref *r = refs.data[i];
    if (i && !by_position(&refs.data[i - 1], &refs.data[i]))
      continue;
    int row[4] = {r->line, r->start, r->end, r->def};
    cJSON_AddItemToArray(out, cJSON_CreateIntArray(row, 4));
  }
  return out;
}

// Indexes the declarations. Names may be used above their declaration, so
// the defs that refs find through a pointer (a type alias's, for the
// TY_NAMEDs that resolve to it; a record's fields, for field accesses)
// are made first; a second visit of a type adds nothing (refs are kept
// once).
static cJSON *index_program(void) {
  for (int i = 0; i < prog->decls.len; i++) {
    Decl *d = prog->decls.data[i];
    if (d->kind == DK_TYPE && d->obj)
      map_put(d->type, def_of(d->obj));
  }
  for (int i = 0; i < prog->decls.len; i++) {
    Decl *d = prog->decls.data[i];
    index_type(d->type, d->name ? name_of(d->name) : "record");
  }
  for (int i = 0; i < prog->decls.len; i++)
    index_decl(prog->decls.data[i]);
  return sorted_refs();
}

// The compiler's stages as main.c runs them up to the layout; false after
// errors. Syntax errors stop before check(), whose errors would only be
// their consequences.
static bool analyse(Layout *lay) {
  if (!prog || error_count())
    return false;
  bool checked = extern_load(prog) && check(prog, NULL, 0);
  ScenarioOptions no_scenario = {0};
  laid_out = checked && extern_check(prog) && scenario_compile(prog, &no_scenario) &&
             layout(prog, lay);
  return true;
}

cJSON *analyse_document(const char *uri, const char *text, size_t len, bool utf8) {
  SrcFile *file = xcalloc(1, sizeof *file);
  *file = (SrcFile){.name = uri_to_path(uri), .text = xstrndup(text, len), .len = len};
  doc = file;
  doc_uri = uri;
  utf8_columns = utf8;
  defs = cJSON_CreateArray();
  Vec captured = {0};
  diag_capture(&captured);
  prog = parse_spec(file);
  Layout lay;
  bool checked = analyse(&lay);
  diag_capture(NULL);
  cJSON *out = cJSON_CreateObject();
  cJSON_AddItemToObject(out, "diagnostics", lsp_diagnostics(&captured));
  cJSON_AddItemToObject(out, "symbols", prog ? outline(prog) : cJSON_CreateArray());
  cJSON_AddItemToObject(out, "refs", checked ? index_program() : cJSON_CreateArray());
  cJSON_AddItemToObject(out, "defs", defs);
  return out;
}
