// SPDX-License-Identifier: MIT
// lsp.h: what the files of the language server share (lsp.c the server,
// rpc.c the JSON-RPC framing, index.c the analysis of one document version,
// uri.c file URIs). The JSON is cJSON's (Debian libcjson-dev).
#ifndef LSP_H
#define LSP_H

#include "mcgen.h"

#include <cjson/cJSON.h>

//
// rpc.c: messages on standard input and output, each a JSON text after a
// `Content-Length: N` header and an empty line (the base protocol of LSP).
//
typedef enum {
  RPC_MESSAGE,    // a body was read
  RPC_BAD_HEADER, // a header without a valid Content-Length (skipped)
  RPC_TOO_LARGE,  // a body over RPC_MAX_BODY (read and dropped)
  RPC_EOF,        // the input ended
} RpcRead;
#define RPC_MAX_BODY ((size_t)64 << 20)
// Reads the next message; on RPC_MESSAGE *body is its text (malloc'd,
// NUL-terminated), for the caller to free.
RpcRead rpc_read(char **body);
// Whether a message waits to be read (bytes buffered or readable at once).
bool rpc_pending(void);
// Sends a message and frees it.
void rpc_send(cJSON *msg);
void rpc_reply(const cJSON *id, cJSON *result);
void rpc_error(const cJSON *id, int code, const char *message);
void rpc_notify(const char *method, cJSON *params);

// The error codes of JSON-RPC and LSP.
enum {
  RPC_PARSE_ERROR = -32700,
  RPC_INVALID_REQUEST = -32600,
  RPC_METHOD_NOT_FOUND = -32601,
  RPC_INVALID_PARAMS = -32602,
  RPC_SERVER_NOT_INITIALIZED = -32002,
};

//
// uri.c: file URIs and paths.
//
// The path of a file: URI (percent-decoded); another URI is returned as is.
char *uri_to_path(const char *uri);
char *path_to_uri(const char *path);

//
// index.c: one version of a document, analysed by the compiler's stages;
// runs in a child process (lsp.c), whose memory is dropped with it.
//
// Everything the server answers from: {"diagnostics": [Diagnostic],
// "symbols": [DocumentSymbol], "defs": [{"uri", "range", "hover"}], "refs":
// [[line, start, end, def], ...] sorted by position}: a ref is a name in the
// document and defs[def] what it names. Columns count UTF-8 bytes (utf8) or
// UTF-16 units.
cJSON *analyse_document(const char *uri, const char *text, size_t len, bool utf8);

#endif
