// SPDX-License-Identifier: MIT
// rpc.c: the base protocol of LSP on standard input and output. A message
// is a header (lines `Name: value`, each ending in CRLF; Content-Length is
// the one read) and an empty line, then Content-Length bytes of JSON.
//
// Hostile input gets an answer, never a crash: a header without a valid
// Content-Length is reported and the next header looked for; a body over
// RPC_MAX_BODY is read and dropped without being held; a header line over
// MAX_HEADER_LINE bytes is cut. Input is read with read(2) into one
// buffer, so that rpc_pending() knows what is already there.
#include "lsp.h"

#include <errno.h>
#include <poll.h>
#include <unistd.h>

#define MAX_HEADER_LINE 1024

static char *in;         // bytes read and not yet taken
static size_t in_len, in_cap;
static bool in_eof;

// Reads more input into `in`; false at the end of the input.
static bool fill(void) {
  if (in_eof)
    return false;
  if (in_cap - in_len < 65536) {
    in_cap = in_cap ? in_cap * 2 : 1 << 17;
    in = xrealloc(in, in_cap);
  }
  ssize_t n;
  while ((n = read(0, in + in_len, in_cap - in_len)) < 0 && errno == EINTR)
    ;
  if (n <= 0) {
    in_eof = true;
    return false;
  }
  in_len += (size_t)n;
  return true;
}

static void take(size_t n) {
  if (!n)
    return;
  memmove(in, in + n, in_len - n);
  in_len -= n;
}

// Reads one header line (without its line break) into line; false at the
// end of the input.
static bool header_line(char line[MAX_HEADER_LINE + 1]) {
  for (;;) {
    char *nl = in_len ? memchr(in, '\n', in_len) : NULL;
    if (nl || in_len > MAX_HEADER_LINE) {
      size_t n = nl ? (size_t)(nl - in) : MAX_HEADER_LINE;
      size_t kept = n > MAX_HEADER_LINE ? MAX_HEADER_LINE : n;
      memcpy(line, in, kept);
      line[kept] = '\0';
      if (kept && line[kept - 1] == '\r')
        line[kept - 1] = '\0';
      take(nl ? n + 1 : n);
      return true;
    }
    if (!fill())
      return false;
  }
}

// The Content-Length of a header line, or -1 if it is not one, -2 if its
// value is not a number. The name is looked for anywhere in the line, so
// that a header glued to the garbage before it is still found.
static long long content_length(const char *line) {
  static const char name[] = "content-length:";
  const char *at = strcasestr(line, name);
  if (!at)
    return -1;
  const char *p = at + sizeof name - 1;
  while (*p == ' ' || *p == '\t')
    p++;
  char *end;
  errno = 0;
  long long n = strtoll(p, &end, 10);
  while (*end == ' ' || *end == '\t')
    end++;
  return end == p || *end || errno || n < 0 ? -2 : n;
}

// Drops n bytes of input as they come.
static void skip_body(unsigned long long n) {
  while (n) {
    if (!in_len && !fill())
      return;
    size_t k = in_len < n ? in_len : (size_t)n;
    take(k);
    n -= k;
  }
}

RpcRead rpc_read(char **body) {
  char line[MAX_HEADER_LINE + 1];
  long long length = -1;
  bool any = false;
  for (;;) {
    if (!header_line(line))
      return RPC_EOF;
    if (!*line && !any)
      continue; // blank lines between messages
    if (!*line)
      break;
    any = true;
    long long n = content_length(line);
    if (n != -1)
      length = n;
  }
  if (length < 0)
    return RPC_BAD_HEADER;
  if ((unsigned long long)length > RPC_MAX_BODY) {
    skip_body((unsigned long long)length);
    return RPC_TOO_LARGE;
  }
  while (in_len < (size_t)length)
    if (!fill())
      return RPC_EOF;
  *body = xcalloc((size_t)length + 1, 1);
  memcpy(*body, in, (size_t)length);
  take((size_t)length);
  return RPC_MESSAGE;
}

bool rpc_pending(void) {
  if (in_len)
    return true;
  struct pollfd p = {.fd = 0, .events = POLLIN};
  return !in_eof && poll(&p, 1, 0) > 0;
}

// Writes all of buf to standard output; the server cannot go on without it.
static void write_all(const char *buf, size_t n) {
  while (n) {
    ssize_t k = write(1, buf, n);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      exit(1); // the client is gone
    buf += k;
    n -= (size_t)k;
  }
}

void rpc_send(cJSON *msg) {
  cJSON_AddStringToObject(msg, "jsonrpc", "2.0");
  char *text = cJSON_PrintUnformatted(msg);
  if (!text)
    die("cannot print a JSON message");
  char header[64];
  int n = snprintf(header, sizeof header, "Content-Length: %zu\r\n\r\n", strlen(text));
  write_all(header, (size_t)n);
  write_all(text, strlen(text));
  free(text);
  cJSON_Delete(msg);
}

// A copy of the request's id (null when it had none).
static cJSON *id_copy(const cJSON *id) {
  return id ? cJSON_Duplicate(id, true) : cJSON_CreateNull();
}

void rpc_reply(const cJSON *id, cJSON *result) {
  cJSON *msg = cJSON_CreateObject();
  cJSON_AddItemToObject(msg, "id", id_copy(id));
  cJSON_AddItemToObject(msg, "result", result ? result : cJSON_CreateNull());
  rpc_send(msg);
}

void rpc_error(const cJSON *id, int code, const char *message) {
  cJSON *msg = cJSON_CreateObject();
  cJSON_AddItemToObject(msg, "id", id_copy(id));
  cJSON *err = cJSON_AddObjectToObject(msg, "error");
  cJSON_AddNumberToObject(err, "code", code);
  cJSON_AddStringToObject(err, "message", message);
  rpc_send(msg);
}

void rpc_notify(const char *method, cJSON *params) {
  cJSON *msg = cJSON_CreateObject();
  cJSON_AddStringToObject(msg, "method", method);
  cJSON_AddItemToObject(msg, "params", params);
  rpc_send(msg);
}
