" SPDX-License-Identifier: MIT
" *.mc is an mcgen spec, unless it looks like the files Vim's own detection
" means by the extension (a Sendmail m4 file: lines starting with # or dnl;
" an MS message file: ';'), which it has already set.
autocmd BufNewFile,BufRead *.mc
      \ if getline(1, 20)->match('^\s*\%(#\|dnl\|;\)') < 0 | set filetype=mc | endif
