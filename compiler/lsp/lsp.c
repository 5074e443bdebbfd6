// SPDX-License-Identifier: MIT
// lsp.c: mcgen --lsp, a language server (the Language Server Protocol
// 3.17, JSON-RPC over standard input and output) for .mc, .dve and .pnml
// documents: diagnostics on open and change, go to definition, hover and
// the outline (document symbols).
//
// The server holds each open document's text and its last analysis. An
// analysis runs in a child process (index.c): the compiler's stages never
// free and keep their state in statics, so a fresh process per version is
// the arena that is dropped whole, whatever a stage allocates; a stage
// that dies or loops costs that analysis (reported on the document), never
// the server. The server's own memory is explicit: a document's text and
// its analysis (a cJSON tree) are freed when the next version replaces
// them or the document closes.
//
// Changes are analysed when the input falls quiet: a burst of edits costs
// one analysis, of the last version. A request about a changed document
// analyses it first.
#include "lsp.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ANALYSIS_SECONDS 20 // an analysis that takes longer is stopped

typedef struct Doc {
  struct Doc *next;
  char *uri;
  char *text;
  size_t len;
  int version;
  bool dirty;      // changed since its analysis
  cJSON *analysis; // index.c's result, or NULL before the first
} Doc;

static Doc *docs;
static bool initialized, shut_down;
static bool utf8_columns; // the client takes UTF-8 columns (else UTF-16)

//
// Documents
//

static Doc *find_doc(const char *uri) {
  for (Doc *d = docs; d; d = d->next)
    if (!strcmp(d->uri, uri))
      return d;
  return NULL;
}

static void drop_analysis(Doc *d) {
  cJSON_Delete(d->analysis);
  d->analysis = NULL;
}

static void close_doc(Doc *d) {
  for (Doc **p = &docs; *p; p = &(*p)->next)
    if (*p == d) {
      *p = d->next;
      break;
    }
  drop_analysis(d);
  free(d->uri);
  free(d->text);
  free(d);
}

static void set_text(Doc *d, char *text, size_t len) {
  free(d->text);
  d->text = text;
  d->len = len;
  d->dirty = true;
}

// The byte offset of an LSP position in a text (clamped to its line and
// to the text).
static size_t offset_of(const char *text, size_t len, const cJSON *pos) {
  const cJSON *line = cJSON_GetObjectItem(pos, "line"),
              *character = cJSON_GetObjectItem(pos, "character");
  double want_line = cJSON_IsNumber(line) ? line->valuedouble : 0;
  double units = cJSON_IsNumber(character) ? character->valuedouble : 0;
  size_t i = 0;
  for (double l = 0; l < want_line && i < len; i++)
    if (text[i] == '\n')
      l++;
  for (double u = 0; i < len && text[i] != '\n' && u < units; i++) {
    unsigned char c = (unsigned char)text[i];
    if (utf8_columns || (c & 0xc0) != 0x80)
      u += 1 + (!utf8_columns && c >= 0xf0);
  }
  while (i < len && !utf8_columns && ((unsigned char)text[i] & 0xc0) == 0x80)
    i++; // not inside a character
  return i;
}

// One entry of didChange's contentChanges: the whole text, or a range of
// it replaced.
static void apply_change(Doc *d, const cJSON *change) {
  const cJSON *text = cJSON_GetObjectItem(change, "text"),
              *range = cJSON_GetObjectItem(change, "range");
  if (!cJSON_IsString(text))
    return;
  size_t n = strlen(text->valuestring);
  if (!cJSON_IsObject(range)) {
    set_text(d, xstrndup(text->valuestring, n), n);
    return;
  }
  size_t from = offset_of(d->text, d->len, cJSON_GetObjectItem(range, "start"));
  size_t to = offset_of(d->text, d->len, cJSON_GetObjectItem(range, "end"));
  if (to < from)
    to = from;
  size_t len = d->len - (to - from) + n;
  char *out = xcalloc(len + 1, 1);
  memcpy(out, d->text, from);
  memcpy(out + from, text->valuestring, n);
  memcpy(out + from + n, d->text + to, d->len - to);
  set_text(d, out, len);
}

//
// Analysis, in a child process
//

// What the server says of a document whose analysis failed: one diagnostic
// at its start (the message is freed).
static cJSON *failed_analysis(int severity, char *message) {
  cJSON *out = cJSON_CreateObject();
  cJSON *diags = cJSON_AddArrayToObject(out, "diagnostics");
  cJSON *d = cJSON_CreateObject();
  cJSON *range = cJSON_AddObjectToObject(d, "range");
  cJSON *start = cJSON_AddObjectToObject(range, "start");
  cJSON_AddNumberToObject(start, "line", 0);
  cJSON_AddNumberToObject(start, "character", 0);
  cJSON_AddItemToObject(range, "end", cJSON_Duplicate(start, true));
  cJSON_AddNumberToObject(d, "severity", severity);
  cJSON_AddStringToObject(d, "source", "mcgen");
  cJSON_AddStringToObject(d, "message", message);
  free(message);
  cJSON_AddItemToArray(diags, d);
  cJSON_AddArrayToObject(out, "symbols");
  cJSON_AddArrayToObject(out, "refs");
  cJSON_AddArrayToObject(out, "defs");
  return out;
}

static _Noreturn void child_analysis(Doc *d, int out_fd) {
  dup2(2, 1); // a stage that prints must not write into the protocol
  cJSON *result = analyse_document(d->uri, d->text, d->len, utf8_columns);
  char *text = cJSON_PrintUnformatted(result);
  for (size_t n = strlen(text), done = 0; done < n;) {
    ssize_t k = write(out_fd, text + done, n - done);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      _exit(1);
    done += (size_t)k;
  }
  _exit(0);
}

// Reads the child's output until it closes its end or the deadline passes
// (then false).
static bool read_child(int fd, Buf *out, time_t deadline) {
  char chunk[65536];
  for (;;) {
    int left = (int)(deadline - time(NULL));
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int ready = left > 0 ? poll(&p, 1, left * 1000) : 0;
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready <= 0)
      return false;
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return true;
    if (!out->data)
      buf_puts(out, "");
    buf_printf(out, "%.*s", (int)n, chunk);
  }
}

static cJSON *analyse_in_child(Doc *d) {
  int fds[2];
  if (pipe(fds) != 0)
    return failed_analysis(1, format("mcgen cannot analyse this file: pipe: %s", strerror(errno)));
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]), close(fds[1]);
    return failed_analysis(1, format("mcgen cannot analyse this file: fork: %s", strerror(errno)));
  }
  if (pid == 0) {
    close(fds[0]);
    child_analysis(d, fds[1]);
  }
  close(fds[1]);
  Buf out = {0};
  bool in_time = read_child(fds[0], &out, time(NULL) + ANALYSIS_SECONDS);
  close(fds[0]);
  if (!in_time)
    kill(pid, SIGKILL);
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  cJSON *result = in_time && WIFEXITED(status) && WEXITSTATUS(status) == 0 && out.data
                      ? cJSON_ParseWithLength(out.data, out.len)
                      : NULL;
  free(out.data);
  if (result)
    return result;
  if (!in_time)
    return failed_analysis(2, format("mcgen stopped analysing this file after %d s",
                                     ANALYSIS_SECONDS));
  return failed_analysis(1, format("mcgen's analysis of this file failed (%s %d): this is a bug "
                                   "in mcgen, please report it with the file",
                                   WIFSIGNALED(status) ? "signal" : "exit status",
                                   WIFSIGNALED(status) ? WTERMSIG(status)
                                                       : WEXITSTATUS(status)));
}

static void publish(const char *uri, int version, const cJSON *diagnostics) {
  cJSON *params = cJSON_CreateObject();
  cJSON_AddStringToObject(params, "uri", uri);
  if (version >= 0)
    cJSON_AddNumberToObject(params, "version", version);
  cJSON_AddItemToObject(params, "diagnostics", diagnostics ? cJSON_Duplicate(diagnostics, true)
                                                          : cJSON_CreateArray());
  rpc_notify("textDocument/publishDiagnostics", params);
}

static void analyse_doc(Doc *d) {
  drop_analysis(d);
  d->analysis = analyse_in_child(d);
  d->dirty = false;
  publish(d->uri, d->version, cJSON_GetObjectItem(d->analysis, "diagnostics"));
}

static void analyse_dirty(void) {
  for (Doc *d = docs; d; d = d->next)
    if (d->dirty)
      analyse_doc(d);
}

//
// Methods
//

typedef struct Request {
  const cJSON *id;     // NULL: a notification
  const cJSON *params;
} Request;

static const char *param_string(const cJSON *obj, const char *key) {
  const cJSON *v = cJSON_GetObjectItem(obj, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const char *doc_uri_of(const Request *r) {
  return param_string(cJSON_GetObjectItem(r->params, "textDocument"), "uri");
}

static bool offers_utf8(const cJSON *params) {
  const cJSON *general = cJSON_GetObjectItem(cJSON_GetObjectItem(params, "capabilities"), "general");
  const cJSON *enc;
  cJSON_ArrayForEach(enc, cJSON_GetObjectItem(general, "positionEncodings"))
    if (cJSON_IsString(enc) && !strcmp(enc->valuestring, "utf-8"))
      return true;
  return false;
}

static void on_initialize(const Request *r) {
  initialized = true;
  utf8_columns = offers_utf8(r->params);
  cJSON *result = cJSON_CreateObject();
  cJSON *caps = cJSON_AddObjectToObject(result, "capabilities");
  cJSON_AddStringToObject(caps, "positionEncoding", utf8_columns ? "utf-8" : "utf-16");
  cJSON *sync = cJSON_AddObjectToObject(caps, "textDocumentSync");
  cJSON_AddBoolToObject(sync, "openClose", true);
  cJSON_AddNumberToObject(sync, "change", 2); // incremental
  cJSON_AddBoolToObject(caps, "definitionProvider", true);
  cJSON_AddBoolToObject(caps, "hoverProvider", true);
  cJSON_AddBoolToObject(caps, "documentSymbolProvider", true);
  cJSON *info = cJSON_AddObjectToObject(result, "serverInfo");
  cJSON_AddStringToObject(info, "name", "mcgen");
  cJSON_AddStringToObject(info, "version", MCGEN_VERSION);
  rpc_reply(r->id, result);
}

static void on_did_open(const Request *r) {
  const cJSON *td = cJSON_GetObjectItem(r->params, "textDocument");
  const char *uri = param_string(td, "uri"), *text = param_string(td, "text");
  if (!uri || !text)
    return;
  Doc *d = find_doc(uri);
  if (!d) {
    d = xcalloc(1, sizeof *d);
    d->uri = xstrdup(uri);
    d->next = docs;
    docs = d;
  }
  const cJSON *version = cJSON_GetObjectItem(td, "version");
  d->version = cJSON_IsNumber(version) ? version->valueint : 0;
  set_text(d, xstrdup(text), strlen(text));
}

static void on_did_change(const Request *r) {
  Doc *d = doc_uri_of(r) ? find_doc(doc_uri_of(r)) : NULL;
  if (!d)
    return;
  const cJSON *change, *version = cJSON_GetObjectItem(cJSON_GetObjectItem(r->params,
                                                                          "textDocument"),
                                                      "version");
  cJSON_ArrayForEach(change, cJSON_GetObjectItem(r->params, "contentChanges"))
    apply_change(d, change);
  if (cJSON_IsNumber(version))
    d->version = version->valueint;
}

static void on_did_close(const Request *r) {
  Doc *d = doc_uri_of(r) ? find_doc(doc_uri_of(r)) : NULL;
  if (!d)
    return;
  publish(d->uri, -1, NULL); // its diagnostics go with it
  close_doc(d);
}

// The analysed document a request is about, or NULL (an error sent).
static Doc *request_doc(const Request *r) {
  const char *uri = doc_uri_of(r);
  if (!uri || !cJSON_IsObject(cJSON_GetObjectItem(r->params, "position"))) {
    rpc_error(r->id, RPC_INVALID_PARAMS, "expected textDocument.uri and position");
    return NULL;
  }
  Doc *d = find_doc(uri);
  if (!d) {
    rpc_reply(r->id, NULL); // not open: nothing known of it
    return NULL;
  }
  if (d->dirty || !d->analysis)
    analyse_doc(d);
  return d;
}

// The def (an object of the analysis's defs) named at the request's
// position, with the ref's range in *range; NULL when no name is there.
static const cJSON *def_at(Doc *d, const Request *r, cJSON **range) {
  const cJSON *pos = cJSON_GetObjectItem(r->params, "position");
  const cJSON *line = cJSON_GetObjectItem(pos, "line"), *ch = cJSON_GetObjectItem(pos, "character");
  if (!cJSON_IsNumber(line) || !cJSON_IsNumber(ch))
    return NULL;
  const cJSON *ref;
  cJSON_ArrayForEach(ref, cJSON_GetObjectItem(d->analysis, "refs")) {
    int v[4];
    for (int i = 0; i < 4; i++)
      v[i] = cJSON_GetArrayItem(ref, i) ? cJSON_GetArrayItem(ref, i)->valueint : -1;
    if (v[0] != line->valueint || ch->valueint < v[1] || ch->valueint > v[2])
      continue;
    *range = cJSON_CreateObject();
    for (int end = 0; end < 2; end++) {
      cJSON *p = cJSON_AddObjectToObject(*range, end ? "end" : "start");
      cJSON_AddNumberToObject(p, "line", v[0]);
      cJSON_AddNumberToObject(p, "character", v[1 + end]);
    }
    return cJSON_GetArrayItem(cJSON_GetObjectItem(d->analysis, "defs"), v[3]);
  }
  return NULL;
}

static void on_definition(const Request *r) {
  Doc *d = request_doc(r);
  if (!d)
    return;
  cJSON *range = NULL;
  const cJSON *def = def_at(d, r, &range);
  cJSON_Delete(range);
  if (!def) {
    rpc_reply(r->id, NULL);
    return;
  }
  cJSON *loc = cJSON_CreateObject();
  cJSON_AddItemToObject(loc, "uri", cJSON_Duplicate(cJSON_GetObjectItem(def, "uri"), true));
  cJSON_AddItemToObject(loc, "range", cJSON_Duplicate(cJSON_GetObjectItem(def, "range"), true));
  rpc_reply(r->id, loc);
}

static void on_hover(const Request *r) {
  Doc *d = request_doc(r);
  if (!d)
    return;
  cJSON *range = NULL;
  const cJSON *def = def_at(d, r, &range);
  if (!def) {
    rpc_reply(r->id, NULL);
    return;
  }
  cJSON *hover = cJSON_CreateObject();
  cJSON *contents = cJSON_AddObjectToObject(hover, "contents");
  cJSON_AddStringToObject(contents, "kind", "markdown");
  cJSON_AddItemToObject(contents, "value",
                        cJSON_Duplicate(cJSON_GetObjectItem(def, "hover"), true));
  cJSON_AddItemToObject(hover, "range", range);
  rpc_reply(r->id, hover);
}

static void on_document_symbol(const Request *r) {
  Doc *d = doc_uri_of(r) ? find_doc(doc_uri_of(r)) : NULL;
  if (!doc_uri_of(r)) {
    rpc_error(r->id, RPC_INVALID_PARAMS, "expected textDocument.uri");
    return;
  }
  if (d && (d->dirty || !d->analysis))
    analyse_doc(d);
  const cJSON *symbols = d ? cJSON_GetObjectItem(d->analysis, "symbols") : NULL;
  rpc_reply(r->id, symbols ? cJSON_Duplicate(symbols, true) : cJSON_CreateArray());
}

static void on_shutdown(const Request *r) {
  shut_down = true;
  rpc_reply(r->id, NULL);
}

static void ignore(const Request *r) {
  (void)r;
}

static const struct {
  const char *name;
  void (*handle)(const Request *r);
} methods[] = {
    {"initialize", on_initialize},
    {"initialized", ignore},
    {"shutdown", on_shutdown},
    {"textDocument/didOpen", on_did_open},
    {"textDocument/didChange", on_did_change},
    {"textDocument/didClose", on_did_close},
    {"textDocument/didSave", ignore},
    {"textDocument/definition", on_definition},
    {"textDocument/hover", on_hover},
    {"textDocument/documentSymbol", on_document_symbol},
};

// Handles one message; returns the exit status after `exit`, else -1.
static int handle(const cJSON *msg) {
  const cJSON *id = cJSON_GetObjectItem(msg, "id");
  const char *method = param_string(msg, "method");
  bool valid_id = !id || cJSON_IsNumber(id) || cJSON_IsString(id);
  if (!cJSON_IsObject(msg) || !valid_id) {
    rpc_error(NULL, RPC_INVALID_REQUEST, "expected a JSON-RPC request or notification");
    return -1;
  }
  if (!method) {
    if (!id || !(cJSON_GetObjectItem(msg, "result") || cJSON_GetObjectItem(msg, "error")))
      rpc_error(id, RPC_INVALID_REQUEST, "expected a method");
    return -1; // a response: the server sends no requests
  }
  if (!strcmp(method, "exit"))
    return shut_down ? 0 : 1;
  Request r = {.id = id, .params = cJSON_GetObjectItem(msg, "params")};
  if (!initialized && strcmp(method, "initialize")) {
    if (id)
      rpc_error(id, RPC_SERVER_NOT_INITIALIZED, "the server is not initialized");
    return -1;
  }
  if (shut_down) {
    if (id)
      rpc_error(id, RPC_INVALID_REQUEST, "the server is shut down: only exit is accepted");
    return -1;
  }
  for (size_t i = 0; i < sizeof methods / sizeof *methods; i++)
    if (!strcmp(methods[i].name, method)) {
      methods[i].handle(&r);
      return -1;
    }
  if (id) {
    char *why = format("unknown method '%s'", method);
    rpc_error(id, RPC_METHOD_NOT_FOUND, why);
    free(why);
  }
  return -1;
}

int lsp_main(void) {
  signal(SIGPIPE, SIG_IGN);
  diag_color(false);
  for (;;) {
    if (!rpc_pending())
      analyse_dirty();
    char *body = NULL;
    switch (rpc_read(&body)) {
    case RPC_EOF: return shut_down ? 0 : 1;
    case RPC_BAD_HEADER:
      rpc_error(NULL, RPC_PARSE_ERROR, "a message header without a valid Content-Length");
      continue;
    case RPC_TOO_LARGE:
      rpc_error(NULL, RPC_INVALID_REQUEST, "a message over 64 MiB (dropped)");
      continue;
    case RPC_MESSAGE: break;
    }
    cJSON *msg = cJSON_ParseWithOpts(body, NULL, true);
    free(body);
    if (!msg) {
      rpc_error(NULL, RPC_PARSE_ERROR, "the message is not valid JSON");
      continue;
    }
    int status = handle(msg);
    cJSON_Delete(msg);
    if (status >= 0)
      return status;
  }
}
