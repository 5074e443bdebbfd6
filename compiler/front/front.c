// SPDX-License-Identifier: MIT
// front.c: which front end reads a spec. The file's extension chooses the
// language (.mc, .dve, .pnml, Murphi's .m), for mcgen's command line and its
// language server alike.
#include "mcgen.h"

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n > m && !strcmp(s + n - m, suffix);
}

bool is_pnml(const char *path) {
  return ends_with(path, ".pnml");
}

Program *parse_spec(const SrcFile *file) {
  if (is_pnml(file->name))
    return parse_pnml(file);
  if (ends_with(file->name, ".m"))
    return parse_murphi(file);
  return ends_with(file->name, ".dve") ? parse_dve(file) : parse(tokenize(file));
}
