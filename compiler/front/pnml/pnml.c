// SPDX-License-Identifier: MIT
// pnml.c: the PNML front end. Reads a place/transition net (PNML 2009,
// type ptnet) with libxml2's streaming reader into a Net (pnml.h), then
// lowers it to the same Program tree that parse() builds from a spec:
//
//   - place p is a state variable, a counter 0..CAP: CAP a proven bound of
//     the place (petri.c), or, where none is known, the default capacity
//     below; the variable prints as the place's id;
//   - transition t is action t (rule t: no parameters), printed as its id:
//     its guard is `p >= w` for each input arc, `p < w` for each inhibitor
//     arc, and `p <= CAP - gain` for each place it adds tokens to (the
//     counter must hold the result); its body moves the tokens;
//   - one init block puts the initial marking.
//
// A transition that the net enables but a counter's capacity blocks is not
// fired: the checker's net answers (runtime/store/net.c) then say "partial",
// never a wrong count. The McrtNet table (mcrt.h) tells the runtime the
// arcs and capacities it needs for that and for the net's answers.
//
// A label (a node's name, marking, inscription) is read once, from its one
// <text>, whose value is the text's whole content: the reader's pieces of
// text and CDATA joined, entities expanded by libxml2 (XML_PARSE_NOENT),
// comments and processing instructions left out. An external entity is
// refused where it is used: mcgen reads nothing but the file.
//
// What is refused, each with the file, the line and the element's id:
// read/test and reset arcs, markings and weights that are not non-negative
// integers (weights positive) below 2^31, a label given twice or without
// its one <text> (or with text outside it, or an element inside it), nets
// of other types (coloured nets said so), repeated ids, arcs to missing
// nodes, arcs between two places or two transitions, reference nodes,
// external entities, elements of another namespace than PNML's (XInclude
// among them) outside <toolspecific>, which is read past wherever it is,
// and pages or nodes elsewhere than in the net or a page. A file that is
// not well-formed XML (truncated, not UTF-8, nested too deeply, an entity
// that expands too far) is a reading error: parse_pnml returns NULL and
// mcgen exits 2. Several nets: the first is checked, with a warning;
// parallel arcs are summed (inhibitor arcs: the smallest weight counts),
// with a warning.
#include "mcgen.h"
#include "petri.h"
#include "pnml.h"

#include <libxml/xmlreader.h>

// The counter of a place without a proven bound holds at least this many
// tokens (16 bits: MCC nets whose bounds petri.c cannot prove reach a few
// hundred), and at least the net's whole initial marking.
#define PNML_DEFAULT_CAPACITY 65535
#define PNML_MAX_NUMBER INT32_MAX
#define PNML_NAMESPACE "http://www.pnml.org/version-2009/grammar/pnml"

static const SrcFile *src;
static bool xml_failed; // a well-formedness error was reported

// ---------------------------------------------------------------------------
// Positions and messages.

// The start of line `line` in the file (the end of the file past its last line).
static const char *line_start(int line) {
  const char *p = src->text, *end = src->text + src->len;
  for (int l = 1; l < line && p < end; p++)
    if (*p == '\n')
      l++;
  return p;
}

// Where element `name` starts on line `line`: its '<', or the line's start.
static const char *element_loc(int line, const char *name) {
  const char *p = line_start(line), *end = src->text + src->len;
  size_t n = name ? strlen(name) : 0;
  for (const char *q = p; q < end && *q != '\n'; q++) {
    if (*q != '<')
      continue;
    const char *r = q + 1;
    const char *colon = memchr(r, ':', (size_t)(end - r) < 64 ? (size_t)(end - r) : 64);
    if (colon && colon < end && (size_t)(end - colon) > n && !strncmp(colon + 1, name, n))
      return q;
    if ((size_t)(end - r) >= n && !strncmp(r, name, n))
      return q;
  }
  return p;
}

static void error_line(int line, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void error_line(int line, const char *name, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = vformat(fmt, ap);
  va_end(ap);
  error_at_loc(src, element_loc(line, name), "%s", msg);
}

static void warning_line(int line, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warning_line(int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = vformat(fmt, ap);
  va_end(ap);
  fprintf(diag_out ? diag_out : stderr, "%s:%d: warning: %s\n", src->name, line, msg);
}

// Column `col` (from 1) of line `line`, or the line's end.
static const char *line_col(int line, int col) {
  const char *loc = line_start(line > 0 ? line : 1);
  const char *end = src->text + src->len;
  for (int c = 1; c < col && loc < end && *loc != '\n'; c++)
    loc++;
  return loc;
}

// libxml2's own errors (not well-formed, bad encoding, too deep): one
// message each, at the line and column it gives. An error inside an
// entity's text has no place in the file: it waits in entity_error, and
// the error that libxml2 reports next, at the reference, replaces it.
static const char *entity_error;
static void xml_error(void *arg, xmlErrorPtr e) {
  (void)arg;
  if (!e || e->level < XML_ERR_ERROR)
    return;
  xml_failed = true;
  char *msg = xstrdup(e->message ? e->message : "malformed XML");
  size_t n = strlen(msg);
  while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
    msg[--n] = 0;
  if (e->code == XML_ERR_ENTITY_LOOP) // also said of an entity that expands too far
    msg = xstrdup("an entity refers to itself or expands to too much text (an XML bomb?)");
  if (!e->file) {
    if (!entity_error)
      entity_error = msg;
    return;
  }
  entity_error = NULL;
  error_at_loc(src, line_col(e->line, e->int2), "not well-formed PNML: %s", msg);
}

// The reader of the file, for refuse_external().
static xmlTextReaderPtr reading;

// libxml2's loader of external entities (and DTDs, which it is not asked to
// load): mcgen reads the .pnml file alone, never another file nor the
// network, and says so where the entity is used. The reader stands just
// past the reference (&name; or %name;), which may be to an internal entity
// that refers to the external one.
static xmlParserInputPtr refuse_external(const char *url, const char *id,
                                         xmlParserCtxtPtr ctxt) {
  (void)ctxt;
  int line = xmlTextReaderGetParserLineNumber(reading);
  const char *start = line_start(line);
  const char *ref = line_col(line, xmlTextReaderGetParserColumnNumber(reading));
  while (ref > start && *ref != '&' && *ref != '%')
    ref--;
  size_t n = strcspn(ref, ";\n");
  error_at_loc(src, ref, "%s brings in the external entity \"%s\", which is not read: mcgen "
               "reads nothing but the .pnml file", c_escape(xstrndup(ref, n < 64 ? n + 1 : 64)),
               c_escape(url ? url : id ? id : "?"));
  hint("declare the entity's text in the file: <!ENTITY name \"text\">");
  return NULL;
}

// ---------------------------------------------------------------------------
// Reading.

typedef struct RawArc {
  const char *id, *source, *target;
  int64_t weight;
  bool inhibitor;
  int line;
  int type_line; // of its <type> (0: none)
} RawArc;

// The labels of a node that mcgen reads. Each is a child of its node, at
// most once, and holds one <text>, whose value is the text's whole content
// (XPath's string value: its text and CDATA pieces joined, entities
// expanded, comments and processing instructions left out).
typedef enum { LABEL_NAME, LABEL_MARKING, LABEL_INSCRIPTION, NLABELS } LabelKind;
static const char *const label_tag[NLABELS] = {"name", "initialMarking", "inscription"};

typedef struct Reader {
  xmlTextReaderPtr r;
  Net *net;
  Vec places, trans, arcs; // Place*, Transition*, RawArc*
  int nets;                // <net> elements met
  bool in_net;             // inside the first <net>
  // The element stack (local names), and where the place, transition or
  // arc being read sits in it (-1: none).
  Vec stack;
  int node_depth;
  Place *place;
  Transition *tr;
  RawArc *arc;
  // The node's label being read (-1: none), where each of its labels is
  // (0: not met), and where the label's <text> is (0: not met).
  int label;
  int label_line[NLABELS];
  int text_line;
  bool label_refused; // the label has had its error: no more about it
  bool in_text;       // inside the label's <text>: its content goes to `text`
  Buf text;
} Reader;

static const char *attr(Reader *rd, const char *name) {
  xmlChar *v = xmlTextReaderGetAttribute(rd->r, (const xmlChar *)name);
  if (!v)
    return NULL;
  char *s = xstrdup((const char *)v);
  xmlFree(v);
  return s;
}

// The line of the reader's node; a node of an entity's text has none: the
// line of the element around it, where the entity is used.
static int node_line(Reader *rd) {
  for (xmlNodePtr n = xmlTextReaderCurrentNode(rd->r); n; n = n->parent) {
    long l = xmlGetLineNo(n);
    if (l > 0)
      return (int)l;
  }
  return xmlTextReaderGetParserLineNumber(rd->r);
}

static bool xml_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// `text` without the blanks around it, cut to 40 bytes, for a message.
static const char *shown(const char *text) {
  while (xml_blank(*text))
    text++;
  size_t n = strlen(text);
  while (n > 0 && xml_blank(text[n - 1]))
    n--;
  return c_escape(xstrndup(text, n > 40 ? 40 : n));
}

// An integer from 0 below 2^31 (`what` names it in messages; a `positive`
// one is said so, and its caller refuses 0), written as XML Schema's
// nonNegativeInteger and positiveInteger, PNML's types: blanks around, an
// optional sign, decimal digits ("+05" is 5, "-0" is 0); -1 after an error.
static int64_t number(const char *text, int line, const char *elem, const char *id,
                      const char *what, bool positive) {
  const char *p = text;
  while (xml_blank(*p))
    p++;
  bool minus = *p == '-';
  if (*p == '+' || *p == '-')
    p++;
  const char *start = p;
  int64_t v = 0;
  bool big = false;
  while (*p >= '0' && *p <= '9') {
    v = v * 10 + (*p - '0');
    if (v > PNML_MAX_NUMBER)
      big = true, v = PNML_MAX_NUMBER;
    p++;
  }
  const char *digits_end = p;
  while (xml_blank(*p))
    p++;
  if (digits_end == start || *p || (minus && v)) {
    error_line(line, elem, "%s of '%s' is not a %s integer: '%s'", what, c_escape(id),
               positive ? "positive" : "non-negative", shown(text));
    return -1;
  }
  if (big) {
    error_line(line, elem, "%s of '%s' is too large: %s (at most %d)", what, c_escape(id),
               shown(text), PNML_MAX_NUMBER);
    return -1;
  }
  return v;
}

// "place 'p'", "transition 't'" or "arc 'a'": the node being read.
static const char *node_what(Reader *rd) {
  if (rd->place)
    return format("place '%s'", c_escape(rd->place->id));
  if (rd->tr)
    return format("transition '%s'", c_escape(rd->tr->id));
  return format("arc '%s'", c_escape(rd->arc->id));
}

// The label `name` of the node being read, or -1: a name for a place or a
// transition, a marking for a place, an inscription for an arc.
static int label_kind(Reader *rd, const char *name) {
  if (!strcmp(name, "name") && (rd->place || rd->tr))
    return LABEL_NAME;
  if (!strcmp(name, "initialMarking") && rd->place)
    return LABEL_MARKING;
  if (!strcmp(name, "inscription") && rd->arc)
    return LABEL_INSCRIPTION;
  return -1;
}

// The whole text of the label's <text>.
static void label_value(Reader *rd, const char *text) {
  int line = rd->text_line;
  if (rd->label == LABEL_NAME) {
    if (rd->place)
      rd->place->name = xstrdup(text);
    else
      rd->tr->name = xstrdup(text);
  } else if (rd->label == LABEL_MARKING) {
    int64_t v = number(text, line, "initialMarking", rd->place->id, "the initial marking",
                       false);
    rd->place->initial = v < 0 ? 0 : v;
  } else {
    int64_t v = number(text, line, "inscription", rd->arc->id, "the weight", true);
    if (v == 0)
      error_line(line, "inscription", "the weight of arc '%s' is 0: a weight is at least 1",
                 c_escape(rd->arc->id));
    rd->arc->weight = v < 1 ? 1 : v;
  }
}

static void hint_text(const char *tag) {
  hint("PNML writes a label's value as <%s><text>VALUE</text></%s>", tag, tag);
}

static void label_error(Reader *rd, int line, const char *elem, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void label_error(Reader *rd, int line, const char *elem, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = vformat(fmt, ap);
  va_end(ap);
  error_line(line, elem, "%s", msg);
  rd->label_refused = true;
}

static void label_end(Reader *rd) {
  const char *tag = label_tag[rd->label];
  if (!rd->text_line && !rd->label_refused) {
    error_line(rd->label_line[rd->label], tag, "<%s> of %s has no <text>", tag, node_what(rd));
    hint_text(tag);
  }
  rd->label = -1;
}

// A label of the node starts (an empty element also ends there); true
// when it is skipped.
static bool label_start(Reader *rd, LabelKind k, int line, bool empty) {
  const char *tag = label_tag[k];
  if (rd->label_line[k]) {
    error_line(line, tag, "a second <%s> in %s (the first is at line %d)", tag, node_what(rd),
               rd->label_line[k]);
    return true;
  }
  rd->label = (int)k;
  rd->label_line[k] = line;
  rd->text_line = 0;
  rd->label_refused = false;
  if (empty)
    label_end(rd);
  return false;
}

// The label's <text> starts; true when it is skipped.
static bool text_start(Reader *rd, int line, bool empty) {
  const char *tag = label_tag[rd->label];
  if (rd->text_line) {
    if (!rd->label_refused)
      label_error(rd, line, "text", "a second <text> in the <%s> of %s (the first is at line %d)",
                  tag, node_what(rd), rd->text_line);
    return true;
  }
  rd->text_line = line;
  rd->text.len = 0;
  buf_puts(&rd->text, "");
  rd->in_text = !empty;
  if (empty)
    label_value(rd, "");
  return false;
}

// A piece of text, CDATA or white space: part of the label's <text>, or
// text outside it, which the label may not hold.
static void on_text(Reader *rd, const char *text) {
  if (rd->in_text) {
    buf_puts(&rd->text, text);
    return;
  }
  if (rd->label < 0 || rd->label_refused || rd->stack.len != rd->node_depth + 2)
    return;
  if (!*shown(text))
    return;
  const char *tag = label_tag[rd->label];
  label_error(rd, node_line(rd), tag, "text outside the <text> of the <%s> of %s: '%s'", tag,
              node_what(rd), shown(text));
  hint_text(tag);
}

// An element of another vocabulary than PNML's, outside a <toolspecific>
// (skipped whole): refused, for a careful reader would not take <x:place>
// for a place, nor read past an XInclude of content mcgen does not fetch.
// An element of no namespace is taken as PNML's.
static bool foreign(Reader *rd, const char *name, int line) {
  const char *ns = (const char *)xmlTextReaderConstNamespaceUri(rd->r);
  if (!ns || !strcmp(ns, PNML_NAMESPACE))
    return false;
  const char *qname = c_escape((const char *)xmlTextReaderConstName(rd->r));
  if (strstr(ns, "/XInclude")) {
    error_line(line, name, "<%s> is an XInclude: mcgen reads nothing but the file", qname);
    hint("copy the included content into the file");
  } else {
    error_line(line, name, "<%s> belongs to namespace '%s', not to PNML's (%s)", qname,
               c_escape(ns), PNML_NAMESPACE);
    hint("only a <toolspecific> may hold the elements of another vocabulary");
  }
  return true;
}

// The first <net>; true when it is skipped (a later net).
static bool net_start(Reader *rd, int line) {
  rd->nets++;
  const char *id = attr(rd, "id");
  if (rd->nets > 1) {
    warning_line(line, "the file holds more than one net: only the first ('%s') is checked",
                 c_escape(rd->net->id));
    return true;
  }
  rd->net->id = id ? id : "net";
  rd->net->name = rd->net->id;
  const char *type = attr(rd, "type");
  if (!type) {
    error_line(line, "net", "net '%s' has no type: a P/T net is "
               "type=\"http://www.pnml.org/version-2009/grammar/ptnet\"", c_escape(rd->net->id));
  } else if (strstr(type, "symmetricnet") || strstr(type, "highlevelnet") ||
             strstr(type, "pt-hlpng") || strstr(type, "hlpn")) {
    error_line(line, "net", "net '%s' is a coloured net (%s): only place/transition nets "
               "(ptnet) are supported", c_escape(rd->net->id), c_escape(type));
  } else {
    size_t n = strlen(type);
    if (n < 5 || strcmp(type + n - 5, "ptnet"))
      error_line(line, "net", "net '%s' has type %s: only place/transition nets (ptnet) "
                 "are supported", c_escape(rd->net->id), c_escape(type));
  }
  rd->in_net = true;
  return false;
}

// A page, place, transition or arc sits in the net or in a page: one
// elsewhere (in a <name>, a node, an unknown element) is refused, not read
// as part of the net.
static bool misplaced(Reader *rd, const char *name, int line, int depth) {
  const char *parent = depth > 0 ? rd->stack.data[depth - 1] : "";
  if (!strcmp(parent, "net") || !strcmp(parent, "page"))
    return false;
  const char *id = attr(rd, "id");
  error_line(line, name, "<%s> '%s' inside <%s>: pages, places, transitions and arcs sit in "
             "the <net> or a <page>", name, c_escape(id ? id : "?"), parent);
  return true;
}

// A place, transition or arc: its labels follow.
static void node_start(Reader *rd, const char *name, int line, int depth, bool empty) {
  const char *id = attr(rd, "id");
  if (!id) {
    error_line(line, name, "a <%s> without an id", name);
    id = format("(line %d)", line);
  }
  if (name[0] == 'p') {
    Place *p = xcalloc(1, sizeof *p);
    p->id = p->name = id;
    p->line = line;
    vec_push(&rd->places, p);
    rd->place = p;
  } else if (name[0] == 't') {
    Transition *t = xcalloc(1, sizeof *t);
    t->id = t->name = id;
    t->line = line;
    vec_push(&rd->trans, t);
    rd->tr = t;
  } else {
    RawArc *a = xcalloc(1, sizeof *a);
    a->id = id;
    a->source = attr(rd, "source");
    a->target = attr(rd, "target");
    a->weight = 1;
    a->line = line;
    if (!a->source || !a->target)
      error_line(line, "arc", "arc '%s' has no %s", c_escape(id),
                 a->source ? "target" : "source");
    vec_push(&rd->arcs, a);
    rd->arc = a;
  }
  rd->node_depth = depth;
  memset(rd->label_line, 0, sizeof rd->label_line);
  if (empty)
    rd->place = NULL, rd->tr = NULL, rd->arc = NULL, rd->node_depth = -1;
}

// An arc's kind, TINA's way: <type value="normal|inhibitor"/>, once.
static void arc_type(Reader *rd, int line) {
  RawArc *a = rd->arc;
  const char *v = attr(rd, "value");
  if (a->type_line)
    error_line(line, "type", "a second <type> in arc '%s' (the first is at line %d)",
               c_escape(a->id), a->type_line);
  else if (!v)
    error_line(line, "type", "the <type> of arc '%s' has no value: write <type "
               "value=\"normal\"/> or <type value=\"inhibitor\"/>", c_escape(a->id));
  else if (!strcmp(v, "inhibitor"))
    a->inhibitor = true;
  else if (strcmp(v, "normal"))
    error_line(line, "type", "arc '%s' is a %s arc: only normal and inhibitor arcs are "
               "supported", c_escape(a->id), c_escape(v));
  a->type_line = line;
}

// True when the element is skipped: the caller moves past it (xmlTextReaderNext).
static bool on_start(Reader *rd, const char *name, bool empty) {
  int line = node_line(rd);
  int depth = rd->stack.len; // of this element
  bool node = !strcmp(name, "place") || !strcmp(name, "transition") || !strcmp(name, "arc");
  if (rd->in_text) {
    label_error(rd, line, name, "<%s> inside the <text> of the <%s> of %s: a <text> holds "
                "only text", name, label_tag[rd->label], node_what(rd));
    return true;
  }
  if (foreign(rd, name, line) || !strcmp(name, "toolspecific"))
    return true;
  if (!strcmp(name, "net")) {
    if (net_start(rd, line))
      return true;
  } else if (!rd->in_net) {
    // Before the first net: <pnml> itself.
  } else if ((node || !strcmp(name, "page")) && misplaced(rd, name, line, depth)) {
    return true;
  } else if (node) {
    node_start(rd, name, line, depth, empty);
  } else if (rd->node_depth >= 0 && depth == rd->node_depth + 1 && label_kind(rd, name) >= 0) {
    if (label_start(rd, label_kind(rd, name), line, empty))
      return true;
  } else if (rd->label >= 0 && depth == rd->node_depth + 2 && !strcmp(name, "text")) {
    if (text_start(rd, line, empty))
      return true;
  } else if (!strcmp(name, "referencePlace") || !strcmp(name, "referenceTransition")) {
    const char *id = attr(rd, "id");
    error_line(line, name, "<%s> '%s': reference nodes are not supported (merge the pages "
               "into one)", name, c_escape(id ? id : "?"));
  } else if (!strcmp(name, "type") && rd->arc && depth == rd->node_depth + 1) {
    arc_type(rd, line);
  }
  if (!empty)
    vec_push(&rd->stack, xstrdup(name));
  return false;
}

static void on_end(Reader *rd) {
  if (rd->stack.len == 0)
    return;
  int depth = --rd->stack.len; // of the element that ends
  if (rd->in_text && depth == rd->node_depth + 2) {
    rd->in_text = false;
    if (!rd->label_refused)
      label_value(rd, rd->text.data);
  } else if (rd->label >= 0 && depth == rd->node_depth + 1) {
    label_end(rd);
  }
  if (rd->stack.len == rd->node_depth)
    rd->place = NULL, rd->tr = NULL, rd->arc = NULL, rd->node_depth = -1;
  if (rd->stack.len > 0 && !strcmp(rd->stack.data[rd->stack.len], "net"))
    rd->in_net = false;
}

// ---------------------------------------------------------------------------
// From raw arcs to the Net.

typedef enum { ID_NONE, ID_PLACE, ID_TRANSITION, ID_ARC } IdKind;

typedef struct IdEntry {
  const char *id;
  IdKind kind;
  uint32_t index;
  int line;
} IdEntry;

static IdEntry *id_slot(IdEntry *tab, size_t cap, const char *id) {
  size_t j = str_hash(id) & (cap - 1);
  while (tab[j].id && strcmp(tab[j].id, id))
    j = (j + 1) & (cap - 1);
  return &tab[j];
}

// A place's, a transition's or an arc's id: PNML's ids are XML IDs, each
// given once in the file (an arc too, though nothing refers to it).
static void add_id(IdEntry *tab, size_t cap, IdEntry entry) {
  static const char *const elem[] = {"", "place", "transition", "arc"};
  IdEntry *e = id_slot(tab, cap, entry.id);
  if (e->id)
    error_line(entry.line, elem[entry.kind], "id '%s' is used twice (first at line %d)",
               c_escape(entry.id), e->line);
  else
    *e = entry;
}

static int arc_cmp(const void *a, const void *b) {
  const Arc *x = a, *y = b;
  if (x->trans != y->trans)
    return x->trans < y->trans ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  if (x->place != y->place)
    return x->place < y->place ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

static void build_net(Reader *rd) {
  Net *net = rd->net;
  size_t n = (size_t)rd->places.len + (size_t)rd->trans.len + (size_t)rd->arcs.len, cap = 16;
  while (cap < 2 * n + 2)
    cap *= 2;
  IdEntry *tab = xcalloc(cap, sizeof *tab);
  net->nplaces = (uint32_t)rd->places.len;
  net->places = xcalloc(net->nplaces + 1, sizeof *net->places);
  for (uint32_t i = 0; i < net->nplaces; i++) {
    net->places[i] = *(Place *)rd->places.data[i];
    add_id(tab, cap, (IdEntry){net->places[i].id, ID_PLACE, i, net->places[i].line});
  }
  net->ntrans = (uint32_t)rd->trans.len;
  net->trans = xcalloc(net->ntrans + 1, sizeof *net->trans);
  for (uint32_t i = 0; i < net->ntrans; i++) {
    net->trans[i] = *(Transition *)rd->trans.data[i];
    add_id(tab, cap, (IdEntry){net->trans[i].id, ID_TRANSITION, i, net->trans[i].line});
  }
  for (int i = 0; i < rd->arcs.len; i++) {
    RawArc *a = rd->arcs.data[i];
    add_id(tab, cap, (IdEntry){a->id, ID_ARC, (uint32_t)i, a->line});
  }
  Arc *arcs = xcalloc((size_t)rd->arcs.len + 1, sizeof *arcs);
  uint32_t na = 0;
  for (int i = 0; i < rd->arcs.len; i++) {
    RawArc *a = rd->arcs.data[i];
    if (!a->source || !a->target)
      continue;
    IdEntry *s = id_slot(tab, cap, a->source), *t = id_slot(tab, cap, a->target);
    bool s_node = s->kind == ID_PLACE || s->kind == ID_TRANSITION;
    bool t_node = t->kind == ID_PLACE || t->kind == ID_TRANSITION;
    if (!s_node || !t_node) {
      error_line(a->line, "arc", "arc '%s' goes %s '%s', which is no place or transition of "
                 "the net", c_escape(a->id), s_node ? "to" : "from",
                 c_escape(s_node ? a->target : a->source));
      continue;
    }
    if (s->kind == t->kind) {
      error_line(a->line, "arc", "arc '%s' goes from %s '%s' to %s '%s': an arc joins a place "
                 "and a transition", c_escape(a->id), s->kind == ID_PLACE ? "place" : "transition",
                 c_escape(a->source), t->kind == ID_PLACE ? "place" : "transition",
                 c_escape(a->target));
      continue;
    }
    if (a->inhibitor && s->kind != ID_PLACE) {
      error_line(a->line, "arc", "inhibitor arc '%s' goes from transition '%s' to place '%s': "
                 "an inhibitor arc goes from a place to a transition", c_escape(a->id),
                 c_escape(a->source), c_escape(a->target));
      continue;
    }
    Arc *arc = &arcs[na++];
    arc->place = s->kind == ID_PLACE ? s->index : t->index;
    arc->trans = s->kind == ID_TRANSITION ? s->index : t->index;
    arc->kind = a->inhibitor ? ARC_INHIBITOR : s->kind == ID_PLACE ? ARC_IN : ARC_OUT;
    arc->weight = a->weight;
    arc->line = a->line;
  }
  qsort(arcs, na, sizeof *arcs, arc_cmp);
  // Parallel arcs: one per (place, trans, kind).
  uint32_t out = 0;
  for (uint32_t i = 0; i < na; i++) {
    Arc *prev = out ? &arcs[out - 1] : NULL;
    if (prev && prev->trans == arcs[i].trans && prev->kind == arcs[i].kind &&
        prev->place == arcs[i].place) {
      const char *pid = net->places[prev->place].id, *tid = net->trans[prev->trans].id;
      if (prev->kind == ARC_INHIBITOR) {
        warning_line(arcs[i].line, "a second inhibitor arc from '%s' to '%s' (line %d): the "
                     "smaller weight counts", c_escape(pid), c_escape(tid), prev->line);
        if (arcs[i].weight < prev->weight)
          prev->weight = arcs[i].weight;
      } else {
        warning_line(arcs[i].line, "parallel arcs between '%s' and '%s' (lines %d and %d): "
                     "their weights are summed", c_escape(pid), c_escape(tid), prev->line,
                     arcs[i].line);
        prev->weight += arcs[i].weight;
        if (prev->weight > PNML_MAX_NUMBER) {
          error_line(arcs[i].line, "arc", "the summed weight of the arcs between '%s' and '%s' "
                     "is too large (at most %d)", c_escape(pid), c_escape(tid),
                     PNML_MAX_NUMBER);
          prev->weight = PNML_MAX_NUMBER;
        }
      }
      continue;
    }
    arcs[out++] = arcs[i];
  }
  net->arcs = arcs;
  net->narcs = out;
}

// A file in UTF-16 (a byte order mark, or "<?" in two bytes each) as UTF-8,
// decoded by libxml2's own converter: libxml2 reads either, but a message
// quotes the file's line and points into it, which it can in UTF-8 only.
// The file itself when it is not UTF-16; NULL when it is no valid UTF-16
// (said so).
static const SrcFile *as_utf8(const SrcFile *file) {
  const unsigned char *t = (const unsigned char *)file->text;
  size_t skip = 2; // the byte order mark
  xmlCharEncoding enc;
  if (file->len >= 2 && t[0] == 0xFF && t[1] == 0xFE)
    enc = XML_CHAR_ENCODING_UTF16LE;
  else if (file->len >= 2 && t[0] == 0xFE && t[1] == 0xFF)
    enc = XML_CHAR_ENCODING_UTF16BE;
  else if (file->len >= 4 && !memcmp(t, "<\0?\0", 4))
    enc = XML_CHAR_ENCODING_UTF16LE, skip = 0;
  else if (file->len >= 4 && !memcmp(t, "\0<\0?", 4))
    enc = XML_CHAR_ENCODING_UTF16BE, skip = 0;
  else
    return file;
  if (file->len > INT32_MAX / 2)
    return file; // too large for the converter: libxml2 reads it, messages show it raw
  int in_len = (int)(file->len - skip), out_len = 2 * in_len;
  char *out = xcalloc((size_t)out_len + 1, 1);
  xmlCharEncodingHandlerPtr h = xmlGetCharEncodingHandler(enc);
  int ret = h->input((unsigned char *)out, &out_len, t + skip, &in_len);
  SrcFile *utf8 = xcalloc(1, sizeof *utf8);
  utf8->name = file->name;
  utf8->text = out;
  utf8->len = out_len > 0 ? (size_t)out_len : 0;
  if (ret < 0 || (size_t)in_len != file->len - skip) {
    error_at_loc(utf8, out + utf8->len, "not well-formed PNML: the file is UTF-16 up to here, "
                 "and no longer from here on");
    return NULL;
  }
  return utf8;
}

// The reader of `file` (in UTF-8 from as_utf8), or NULL after an error.
static xmlTextReaderPtr open_reader(const SrcFile *file, bool from_utf16) {
  // libxml2 would say "Extra content at the end of the document", after a
  // byte order mark too.
  size_t k = file->len >= 3 && !memcmp(file->text, "\xEF\xBB\xBF", 3) ? 3 : 0;
  while (k < file->len && xml_blank(file->text[k]))
    k++;
  if (k == file->len) {
    error_at_loc(file, file->text, "the file is empty: no PNML document in it");
    return NULL;
  }
  xmlTextReaderPtr r = xmlReaderForMemory(file->text, (int)(file->len > INT32_MAX ? INT32_MAX
                                                                                 : file->len),
                                          file->name, from_utf16 ? "UTF-8" : NULL,
                                          XML_PARSE_NOENT | XML_PARSE_NONET |
                                              XML_PARSE_BIG_LINES);
  if (!r)
    error_at_loc(file, file->text, "cannot read the PNML");
  return r;
}

static Net *read_pnml(const SrcFile *file) {
  xml_failed = false;
  entity_error = NULL;
  src = as_utf8(file);
  if (!src)
    return NULL;
  Net *net = xcalloc(1, sizeof *net);
  net->path = file->name;
  net->id = net->name = "net";
  int before = error_count();
  xmlTextReaderPtr r = open_reader(src, src != file);
  if (!r)
    return NULL;
  xmlTextReaderSetStructuredErrorHandler(r, xml_error, NULL);
  // Entities are expanded (XML_PARSE_NOENT) into the text the reader gives;
  // libxml2 refuses those that expand too far (billion laughs). External
  // ones would be loaded, hence the loader that refuses them.
  xmlExternalEntityLoader loader = xmlGetExternalEntityLoader();
  xmlSetExternalEntityLoader(refuse_external);
  reading = r;
  Reader rd = {.r = r, .net = net, .node_depth = -1, .label = -1};
  bool root_seen = false;
  int ret = xmlTextReaderRead(r);
  while (ret == 1) {
    int type = xmlTextReaderNodeType(r);
    if (type == XML_READER_TYPE_ELEMENT) {
      const char *name = (const char *)xmlTextReaderConstLocalName(r);
      if (!root_seen) {
        root_seen = true;
        if (strcmp(name, "pnml")) {
          error_line(node_line(&rd), name, "this is not PNML: the document is <%s>, not <pnml>",
                     c_escape(name));
          break;
        }
      }
      if (on_start(&rd, name, xmlTextReaderIsEmptyElement(r))) {
        ret = xmlTextReaderNext(r);
        continue;
      }
    } else if (type == XML_READER_TYPE_END_ELEMENT) {
      on_end(&rd);
    } else if (type == XML_READER_TYPE_TEXT || type == XML_READER_TYPE_CDATA ||
               type == XML_READER_TYPE_WHITESPACE ||
               type == XML_READER_TYPE_SIGNIFICANT_WHITESPACE) {
      const char *v = (const char *)xmlTextReaderConstValue(r);
      if (v)
        on_text(&rd, v);
    }
    ret = xmlTextReaderRead(r);
  }
  if ((ret < 0 && !xml_failed) || entity_error) {
    xml_failed = true;
    error_at_loc(src, line_start(xmlTextReaderGetParserLineNumber(r)),
                 "not well-formed PNML%s%s", entity_error ? ": " : "",
                 entity_error ? entity_error : "");
  }
  xmlFreeTextReader(r);
  xmlSetExternalEntityLoader(loader);
  if (xml_failed)
    return NULL;
  if (!root_seen || rd.nets == 0) {
    if (error_count() == before)
      error_at_loc(src, src->text, "no <net> in the file: nothing to check");
    return net;
  }
  build_net(&rd);
  return net;
}

// ---------------------------------------------------------------------------
// Lowering.

static Program *prog;
static StrSet names; // every spec name given out

// A spec name for a PNML id: letters, digits and '_' (others become '_'),
// not starting with a digit, not a keyword of the language, unique.
static const char *c_name(const char *prefix, const char *id) {
  Buf b = {0};
  buf_puts(&b, prefix);
  for (const char *p = id; *p && b.len < 200; p++)
    buf_printf(&b, "%c", (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                                 (*p >= '0' && *p <= '9') || *p == '_'
                             ? *p
                             : '_');
  return strset_fresh(&names, b.data);
}

// A token for a generated name (its text is the name, as in dve_lower.c),
// placed at `line` of the file: the C's #line directives name the element.
static Token *tok_at(int line, const char *text) {
  return name_token(src, line > 0 ? line : 1, 1, text);
}

static Node *ident(Token *at, const char *name) { return new_ident(at, tok_at(at->line, name)); }

static Decl *add_decl(DeclKind kind, Token *at, const char *kw, const char *name) {
  return new_decl(prog, kind, tok_at(at->line, kw), name ? tok_at(at->line, name) : NULL);
}

static int64_t bits_for(int64_t cap) {
  int64_t w = 0;
  while (w < 62 && (INT64_C(1) << w) <= cap)
    w++;
  return w;
}

// bound: per place a proven bound or -1 (NULL: none known); unbounded: why
// the net is unbounded (for the checker's answer), or NULL.
static Program *lower_net(const Net *net, const int64_t *bound, const char *unbounded) {
  prog = xcalloc(1, sizeof *prog);
  prog->file = src;
  names = (StrSet){0};
  static const char *const reserved[] = {
      "model", "const", "type", "var", "fn", "init", "action", "when", "invariant", "reachable",
      "terminal", "constraint", "property", "fair", "weak", "strong", "forall", "exists",
      "count", "sum", "if", "else", "for", "in", "let", "assert", "return", "none", "true",
      "false", "bool", "scalarset", "enum", "record", "set", "multiset", "queue"};
  for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++)
    strset_add(&names, reserved[i]);

  // Capacities: a proven bound, else the default (at least the initial tokens).
  int64_t total = 0;
  for (uint32_t p = 0; p < net->nplaces; p++)
    total = total + net->places[p].initial > PNML_MAX_NUMBER ? PNML_MAX_NUMBER
                                                             : total + net->places[p].initial;
  int64_t deflt = (INT64_C(1) << bits_for(total > PNML_DEFAULT_CAPACITY ? total
                                                                         : PNML_DEFAULT_CAPACITY)) -
                  1;
  int64_t *cap = xcalloc(net->nplaces + 1, sizeof *cap);
  bool *proven = xcalloc(net->nplaces + 1, sizeof *proven);
  const char **pname = xcalloc(net->nplaces + 1, sizeof *pname);
  for (uint32_t p = 0; p < net->nplaces; p++) {
    proven[p] = bound && bound[p] >= 0;
    cap[p] = proven[p] ? bound[p] : deflt;
    if (cap[p] < net->places[p].initial)
      cap[p] = net->places[p].initial;
    if (cap[p] < 1)
      cap[p] = proven[p] ? cap[p] : 1;
    Token *at = tok_at(net->places[p].line, "place");
    pname[p] = c_name("", net->places[p].id);
    Decl *d = add_decl(DK_VAR, at, "var", pname[p]);
    d->label = net->places[p].id;
    d->type = new_range_type(at, 0, cap[p]);
  }
  // The initial marking.
  Token *net_at = tok_at(1, "net");
  Decl *init = add_decl(DK_INIT, net_at, "init", NULL);
  init->body = new_node(ND_BLOCK, net_at);
  for (uint32_t p = 0; p < net->nplaces; p++) {
    if (!net->places[p].initial)
      continue;
    Token *at = tok_at(net->places[p].line, "=");
    Node *a = new_node(ND_ASSIGN, at);
    a->lhs = ident(at, pname[p]);
    a->rhs = new_num(at, net->places[p].initial);
    vec_push(&init->body->args, a);
  }
  // One action per transition.
  int64_t *delta = xcalloc(net->nplaces + 1, sizeof *delta);
  uint32_t a = 0;
  Buf tables = {0};
  buf_puts(&tables, "static const McrtNetArc mc_net_arcs[] = {\n");
  Buf starts = {0};
  buf_puts(&starts, "static const uint64_t mc_net_arc_start[] = {0");
  for (uint32_t t = 0; t < net->ntrans; t++) {
    Token *at = tok_at(net->trans[t].line, "transition");
    Decl *d = add_decl(DK_ACTION, at, "action", c_name("t_", net->trans[t].id));
    d->label = net->trans[t].id;
    d->body = new_node(ND_BLOCK, at);
    Node *guard = NULL;
    uint32_t first = a;
    for (; a < net->narcs && net->arcs[a].trans == t; a++) {
      const Arc *arc = &net->arcs[a];
      Token *aat = tok_at(arc->line, "arc");
      buf_printf(&tables, "  {%u, %s, %lld},\n", arc->place,
                 arc->kind == ARC_IN ? "MCRT_ARC_IN" : arc->kind == ARC_OUT ? "MCRT_ARC_OUT"
                                                                           : "MCRT_ARC_INHIBITOR",
                 (long long)arc->weight);
      Node *c = NULL;
      if (arc->kind == ARC_IN) {
        delta[arc->place] -= arc->weight;
        c = new_binary(OP_GE, ident(aat, pname[arc->place]), new_num(aat, arc->weight), aat);
      } else if (arc->kind == ARC_OUT) {
        delta[arc->place] += arc->weight;
      } else {
        c = new_binary(OP_LT, ident(aat, pname[arc->place]), new_num(aat, arc->weight), aat);
      }
      if (c)
        guard = guard ? new_binary(OP_AND, guard, c, aat) : c;
    }
    buf_printf(&starts, ", %u", a);
    for (uint32_t k = first; k < a; k++) {
      uint32_t p = net->arcs[k].place;
      int64_t dl = delta[p];
      if (!dl)
        continue;
      delta[p] = 0;
      Token *aat = tok_at(net->arcs[k].line, "arc");
      if (dl > 0) {
        // The counter must hold the result: the net may enable more.
        Node *c = new_binary(OP_LE, ident(aat, pname[p]), new_num(aat, cap[p] - dl), aat);
        if (cap[p] - dl < 0)
          c = new_binary(OP_LT, ident(aat, pname[p]), new_num(aat, 0), aat);
        guard = guard ? new_binary(OP_AND, guard, c, aat) : c;
      }
      Node *asg = new_node(ND_ASSIGN, aat);
      asg->lhs = ident(aat, pname[p]);
      asg->rhs = new_binary(dl > 0 ? OP_ADD : OP_SUB, ident(aat, pname[p]),
                            new_num(aat, dl > 0 ? dl : -dl), aat);
      vec_push(&d->body->args, asg);
    }
    d->expr = guard;
  }
  buf_puts(&tables, "  {0, 0, 0},\n};\n");
  buf_puts(&starts, "};\n");
  uint32_t ninhib = 0;
  for (uint32_t k = 0; k < net->narcs; k++)
    ninhib += net->arcs[k].kind == ARC_INHIBITOR;

  // The table the runtime reads (mcrt.h, McrtNet).
  Buf c = {0};
  buf_puts(&c, tables.data);
  buf_puts(&c, starts.data);
  buf_puts(&c, "static const int64_t mc_net_capacity[] = {");
  for (uint32_t p = 0; p < net->nplaces; p++)
    buf_printf(&c, "%s%lld", p ? ", " : "", (long long)cap[p]);
  buf_puts(&c, net->nplaces ? "};\n" : "0};\n");
  buf_puts(&c, "static const bool mc_net_proven[] = {");
  for (uint32_t p = 0; p < net->nplaces; p++)
    buf_printf(&c, "%s%s", p ? ", " : "", proven[p] ? "true" : "false");
  buf_puts(&c, net->nplaces ? "};\n" : "false};\n");
  buf_printf(&c, "static const McrtNet mc_net = {%u, %u, %u, %u, mc_net_capacity, mc_net_proven, "
                 "mc_net_arc_start, mc_net_arcs, %s, %s};\n",
             net->nplaces, net->ntrans, net->narcs, ninhib, format("\"%s\"", c_escape(net->id)),
             unbounded ? format("\"%s\"", c_escape(unbounded)) : "NULL");
  prog->net_c = c.data;
  return prog;
}

Program *parse_pnml(const SrcFile *file) {
  Net *net = read_pnml(file);
  if (!net)
    return NULL;
  int errors = error_count();
  if (errors) {
    Program *p = xcalloc(1, sizeof *p);
    p->file = file;
    return p;
  }
  // Counter widths from proven bounds (petri.c: semiflows, then
  // coverability); an unbounded net is said so, with the witness, and
  // checked up to its counters' capacity (its answers then partial).
  int64_t *bound = xcalloc(net->nplaces + 1, sizeof *bound);
  PetriUnbounded u;
  const char *unbounded = NULL;
  if (!petri_bounds(net, bound, &u)) {
    Buf w = {0};
    buf_printf(&w, "place %s grows without bound: fire", net->places[u.place].id);
    for (uint32_t i = 0; i < u.prefix.len; i++)
      buf_printf(&w, " %s", net->trans[u.prefix.trans[i]].id);
    if (u.prefix.len)
      buf_puts(&w, ", then repeat");
    for (uint32_t i = 0; i < u.pump.len; i++)
      buf_printf(&w, " %s", net->trans[u.pump.trans[i]].id);
    if (!u.prefix.len)
      buf_puts(&w, " repeatedly");
    unbounded = w.data;
    warning_line(net->places[u.place].line, "the net is unbounded: %s; the checker explores it "
                 "as far as its counters go (partial answers)", c_escape(unbounded));
  }
  return lower_net(net, bound, unbounded);
}

int pnml_net_info(const SrcFile *file, FILE *out) {
  Net *net = read_pnml(file);
  if (!net)
    return 2;
  if (error_count())
    return 1;
  petri_print_info(net, out);
  return 0;
}
