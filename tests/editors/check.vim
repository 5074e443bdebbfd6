" SPDX-License-Identifier: MIT
" check.vim: run by vim.js in `vim -es`. Reads the checks of $MC_CHECKS (a
" list of {path, checks: [[line, col, groups]], bad: {"line:col": 1}}) and
" writes to $MC_RESULTS, per spec, [path, [problem...]]. groups is a comma
" list of the highlight groups allowed, or "!LIST" of those forbidden.
let s:results = []
" The standard group a syntax item links to (Number for mcNumber), where
" synIDtrans() would go on to the colour scheme's (Constant).
let s:links = {}
function! s:Group(line, col) abort
  let l:name = synIDattr(synID(a:line, a:col, 1), 'name')
  if l:name ==# ''
    return ''
  endif
  if !has_key(s:links, l:name)
    let l:to = matchstr(execute('highlight ' . l:name), 'links to \zs\w\+')
    let s:links[l:name] = l:to ==# '' ? l:name : l:to
  endif
  return s:links[l:name]
endfunction
for s:spec in json_decode(join(readfile($MC_CHECKS), "\n"))
  execute 'silent edit! ' . fnameescape(s:spec.path)
  let s:problems = []
  if &filetype !=# 'mc'
    call add(s:problems, "filetype is '" . &filetype . "'")
  endif
  for [s:line, s:col, s:groups] in s:spec.checks
    let s:group = s:Group(s:line, s:col)
    let s:forbid = s:groups[0] ==# '!'
    if (index(split(s:forbid ? s:groups[1:] : s:groups, ','), s:group) >= 0) == s:forbid
      call add(s:problems, printf("%d:%d: '%s' is %s, wanted %s", s:line, s:col,
            \ getline(s:line)[s:col - 1 : s:col + 10], s:group == '' ? 'plain' : s:group, s:groups))
    endif
  endfor
  " Error nowhere but on the bad tokens.
  for s:line in range(1, line('$'))
    for s:col in range(1, col([s:line, '$']) - 1)
      if s:Group(s:line, s:col) ==# 'Error'
            \ && !has_key(s:spec.bad, s:line . ':' . s:col)
        call add(s:problems, printf("%d:%d: '%s' is Error", s:line, s:col, getline(s:line)[s:col - 1]))
      endif
    endfor
  endfor
  call add(s:results, [s:spec.path, s:problems])
endfor
call writefile([json_encode(s:results)], $MC_RESULTS)
qall!
