// SPDX-License-Identifier: MIT
// uri.c: file URIs (RFC 8089) to paths and back, for the documents an
// editor names and the files their errors point into (the C of `extern`).
#include "lsp.h"

#include <unistd.h>

static int hex_digit(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
       : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

char *uri_to_path(const char *uri) {
  if (strncmp(uri, "file://", 7))
    return xstrdup(uri);
  const char *p = uri + 7;
  if (*p != '/') // file://host/path: the host is dropped
    p = strchr(p, '/') ? strchr(p, '/') : "";
  Buf b = {0};
  buf_puts(&b, "");
  for (; *p; p++) {
    int hi, lo;
    if (*p == '%' && (hi = hex_digit(p[1])) >= 0 && (lo = hex_digit(p[2])) >= 0 &&
        (hi || lo)) {
      buf_printf(&b, "%c", hi * 16 + lo);
      p += 2;
    } else {
      buf_printf(&b, "%c", *p);
    }
  }
  return b.data;
}

// A relative path is taken from the current directory.
char *path_to_uri(const char *path) {
  char cwd[4096];
  if (path[0] != '/' && getcwd(cwd, sizeof cwd))
    path = format("%s/%s", cwd, path);
  Buf b = {0};
  buf_puts(&b, "file://");
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
        strchr("/-._~", *p))
      buf_printf(&b, "%c", *p);
    else
      buf_printf(&b, "%%%02X", *p);
  }
  return b.data;
}
