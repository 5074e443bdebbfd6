# SPDX-License-Identifier: MIT
# Sourced by tests/diag/run.sh and tests/malformed/run.sh.
#
# build_mcgen_asan ROOT BUILD_DIR: builds BUILD_DIR/mcgen-asan, the compiler
# under -fsanitize=address,undefined (UB aborts: -fno-sanitize-recover), when
# it is missing or older than a compiler source, and prints its path. Beside
# BUILD_DIR/mcgen, it finds the templates and the runtime where that one does
# (compiler/core/paths.c: the build tree's layout).
build_mcgen_asan() {
  local root=$1 build_dir=$2
  local exe=$build_dir/mcgen-asan src stale=0 srcs=()
  [ -x "$exe" ] || stale=1
  # The compiler's files, in the folders of its layers.
  mapfile -t srcs < <(find "$root/compiler" -name '*.c' | sort)
  for src in "${srcs[@]}" $(find "$root/compiler" -name '*.h'); do
    [ "$src" -nt "$exe" ] && stale=1
  done
  if [ "$stale" -eq 1 ]; then
    local tmp=$exe.tmp.$$
    # libclang for `extern` (compiler/analysis/extern.c), as the Makefile finds
    # it; cJSON for the language server (compiler/lsp/).
    local clang_flags=() inc lib
    inc=$(llvm-config --includedir 2>/dev/null) lib=$(llvm-config --libdir 2>/dev/null)
    if [ -n "$inc" ] && [ -f "$inc/clang-c/Index.h" ]; then
      clang_flags=(-DMCGEN_HAVE_LIBCLANG -isystem "$inc" -L"$lib" -Wl,-rpath,"$lib" -lclang)
    fi
    if ! ${CC:-cc} -std=c11 -O1 -g -D_GNU_SOURCE -Wall -Wextra \
        -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined \
        $(pkg-config --cflags libxml-2.0 2>/dev/null || echo -I/usr/include/libxml2) \
        -I"$root/compiler" -o "$tmp" "${srcs[@]}" "${clang_flags[@]}" \
        $(pkg-config --libs libxml-2.0 2>/dev/null || echo -lxml2) \
        $(pkg-config --libs libcjson 2>/dev/null || echo -lcjson) >&2; then
      echo "cannot build $exe" >&2
      rm -f "$tmp"
      return 1
    fi
    mv -f "$tmp" "$exe"
  fi
  echo "$exe"
}
