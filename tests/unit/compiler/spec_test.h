// SPDX-License-Identifier: MIT
// spec_test.h: what the unit tests of the later compiler stages (check,
// layout, emit) share: specs built from strings, and diagnostics captured in
// memory so that a test can read them. Included once by each test file.
#ifndef SPEC_TEST_H
#define SPEC_TEST_H

#include <criterion/criterion.h>

#include "mcgen.h"

// The compiler never frees (docs/STYLE.md rule 6): leaks are by design.
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0"; }

static char *cap_buf;
static size_t cap_len;
// Errors reported before the current spec (error_count() is cumulative).
static int errors_before;

// Sends diagnostics to a fresh memory stream and starts counting errors anew.
static void capture_diagnostics(void) {
  if (diag_out && diag_out != stderr)
    fclose(diag_out);
  cap_buf = NULL;
  diag_out = open_memstream(&cap_buf, &cap_len);
  errors_before = error_count();
}

// What has been reported since capture_diagnostics().
static const char *captured(void) {
  fflush(diag_out);
  return cap_buf ? cap_buf : "";
}

// A source file named t.mc holding `text`.
static SrcFile *spec_file(const char *text) {
  SrcFile *f = xcalloc(1, sizeof(SrcFile));
  f->name = "t.mc";
  f->text = text;
  f->len = strlen(text);
  return f;
}

#endif
