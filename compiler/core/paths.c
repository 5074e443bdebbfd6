// SPDX-License-Identifier: MIT
// paths.c: where mcgen finds the files it needs besides itself (the m4
// templates, the runtime library, the runtime's header). Nothing is compiled
// in: they are looked up relative to the running mcgen, in one of two
// layouts, so that an installed tree, a copy of it, or the build tree work
// wherever they are:
//
//   installed tree (make install)    build tree (make all)
//   PREFIX/bin/mcgen                 ROOT/build/mcgen
//   PREFIX/share/mcgen/templates/    ROOT/templates/
//   PREFIX/lib/mcgen/libmcrt.a       ROOT/build/libmcrt.a
//   PREFIX/include/mcgen/mcrt.h      ROOT/runtime/mcrt.h
//
// MCGEN_TEMPLATES, MCGEN_RUNTIME and MCGEN_RUNTIME_INCLUDE name another
// directory for one of them (the tests link the sanitizer runtime that way).
#include "mcgen.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

enum { P_TEMPLATES, P_RUNTIME, P_INCLUDE, NPATHS };

// What each directory must hold, and its environment override.
static const struct {
  const char *file, *what, *env;
} wanted[NPATHS] = {
    [P_TEMPLATES] = {"checker.c.m4", "templates", "MCGEN_TEMPLATES"},
    [P_RUNTIME] = {"libmcrt.a", "runtime library", "MCGEN_RUNTIME"},
    [P_INCLUDE] = {"mcrt.h", "runtime header", "MCGEN_RUNTIME_INCLUDE"},
};

enum { INSTALLED, BUILD_TREE, NLAYOUTS };
static const char *const layout_name[NLAYOUTS] = {"installed tree", "build tree"};

// The directories a layout puts the files in, for an mcgen in bin_dir.
static void layout_dirs(int layout, const char *bin_dir, const char *dirs[NPATHS]) {
  const char *slash = strrchr(bin_dir, '/');
  const char *up = slash ? xstrndup(bin_dir, slash - bin_dir) : ""; // "/bin" -> ""
  if (layout == INSTALLED) {
    dirs[P_TEMPLATES] = format("%s/share/mcgen/templates", up);
    dirs[P_RUNTIME] = format("%s/lib/mcgen", up);
    dirs[P_INCLUDE] = format("%s/include/mcgen", up);
  } else {
    dirs[P_TEMPLATES] = format("%s/templates", up);
    dirs[P_RUNTIME] = bin_dir;
    dirs[P_INCLUDE] = format("%s/runtime", up);
  }
}

static bool has_file(const char *dir, int which) {
  return access(format("%s/%s", dir, wanted[which].file), R_OK) == 0;
}

// The absolute path of the running executable, symbolic links resolved:
// /proc/self/exe, else argv[0] (looked up in PATH when it has no slash).
static char *self_path(const char *argv0) {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0) {
    buf[n] = 0;
    return xstrdup(buf);
  }
  if (!argv0 || !*argv0)
    return NULL;
  if (strchr(argv0, '/'))
    return realpath(argv0, NULL);
  const char *path = getenv("PATH");
  for (const char *p = path ? path : ""; *p;) {
    size_t len = strcspn(p, ":");
    char *cand = format("%.*s/%s", (int)len, len ? p : ".", argv0);
    if (access(cand, X_OK) == 0)
      return realpath(cand, NULL);
    p += len + (p[len] == ':');
  }
  return NULL;
}

bool find_paths(const char *argv0, bool need_runtime, Paths *out) {
  const char *dirs[NPATHS] = {0};
  bool needed[NPATHS] = {true, need_runtime, need_runtime};
  bool all_set = true;
  for (int i = 0; i < NPATHS; i++) {
    const char *v = getenv(wanted[i].env);
    if (!needed[i] || !v || !*v) {
      all_set &= !needed[i];
      continue;
    }
    if (!has_file(v, i)) {
      fprintf(stderr, "mcgen: %s=%s: no %s/%s (the %s)\n", wanted[i].env, v, v, wanted[i].file,
              wanted[i].what);
      return false;
    }
    dirs[i] = v;
  }
  if (!all_set) {
    char *self = self_path(argv0);
    if (!self) {
      fprintf(stderr, "mcgen: cannot tell where this mcgen is (no /proc/self/exe, and '%s' is "
                      "not found), so not where its templates and runtime are; set %s, %s and %s\n",
              argv0 ? argv0 : "", wanted[P_TEMPLATES].env, wanted[P_RUNTIME].env,
              wanted[P_INCLUDE].env);
      return false;
    }
    const char *bin_dir = xstrndup(self, strrchr(self, '/') - self);
    // The first layout that has every file still missing wins; the files
    // are not mixed from two layouts.
    Buf looked = {0};
    int layout;
    for (layout = 0; layout < NLAYOUTS; layout++) {
      const char *cand[NPATHS];
      layout_dirs(layout, bin_dir, cand);
      bool complete = true;
      for (int i = 0; i < NPATHS; i++) {
        if (!needed[i] || dirs[i] || has_file(cand[i], i))
          continue;
        if (complete)
          buf_printf(&looked, "\n  %s:", layout_name[layout]);
        buf_printf(&looked, "%s no %s/%s", complete ? "" : ",", cand[i], wanted[i].file);
        complete = false;
      }
      if (complete) {
        for (int i = 0; i < NPATHS; i++)
          if (needed[i] && !dirs[i])
            dirs[i] = cand[i];
        break;
      }
    }
    if (layout == NLAYOUTS) {
      fprintf(stderr, "mcgen: cannot find the files it needs beside %s:%s\n"
                      "Install mcgen with `make install PREFIX=DIR`, run the mcgen of a build "
                      "tree, or name the\ndirectories with %s, %s and %s.\n",
              self, looked.data, wanted[P_TEMPLATES].env, wanted[P_RUNTIME].env,
              wanted[P_INCLUDE].env);
      return false;
    }
  }
  *out = (Paths){.templates = dirs[P_TEMPLATES], .runtime = dirs[P_RUNTIME],
                 .include = dirs[P_INCLUDE]};
  return true;
}
