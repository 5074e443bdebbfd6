// SPDX-License-Identifier: MIT
// layout.c: the offset of every state variable. Requires check().
//
// Each value is encoded in the fewest bits its type needs (types.c). State
// variables are packed one after another in declaration order, with no
// alignment, so a state costs exactly the sum of its variables' widths.
#include "mcgen.h"

bool layout(Program *prog, Layout *out) {
  memset(out, 0, sizeof *out);
  bool ok = true;
  for (int i = 0; i < prog->decls.len; i++) {
    Decl *d = prog->decls.data[i];
    if (d->kind == DK_VAR)
      vec_push(&out->vars, d->obj);
  }
  out->offsets = xcalloc(out->vars.len + 1, sizeof *out->offsets);
  int64_t off = 0;
  for (int i = 0; i < out->vars.len; i++) {
    Obj *var = out->vars.data[i];
    if (!layout_of(var->type, var->tok)) {
      ok = false;
      continue;
    }
    out->offsets[i] = off;
    off += resolve(var->type)->width;
    if (off > MAX_STATE_BITS) {
      ok = too_many_bits(var->tok, "the state", off, MAX_STATE_BITS);
      break;
    }
  }
  // Types that appear outside state variables (parameters, locals, fn
  // signatures) are laid out on demand by the emitter through layout_of().
  out->state_bits = off;
  out->state_bytes = (off + 7) / 8;
  if (out->state_bytes == 0)
    out->state_bytes = 1;
  return ok;
}

