" SPDX-License-Identifier: MIT
" Vim syntax file
" Language:    mcgen specification (.mc), docs/LANGUAGE.md of mcgen
" The same reading as editors/vscode/syntaxes/mc.tmLanguage.json: the
" reserved words, the contextual ones where the language makes them words
" (count and sum before `NAME :` or `NAME in`, weak and strong after fair,
" extern, scenario, accepting and watch starting a declaration), comments,
" strings, decimal integers, and as errors the characters that are no token
" (a lone & outside a scenario, @, ', ^, ~, ...) and literals such as 0x1f.

if exists("b:current_syntax")
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

syn keyword mcDeclaration  model const type var fn init action invariant reachable
syn keyword mcDeclaration  terminal constraint property fair let
syn keyword mcStatement    when if else for assert return
syn keyword mcType         bool enum scalarset record set multiset queue
syn keyword mcConstant     true false none
syn keyword mcQuantifier   forall exists in

" Contextual words.
syn match mcQuantifier  "\%(\.\)\@<!\<\%(count\|sum\)\>\ze\s*\h\w*\s*\%(:\%(:\)\@!\|\<in\>\)"
syn match mcFairness    "\%(\<fair\s\+\)\@<=\<\%(weak\|strong\)\>"
syn match mcDeclaration "\%(\%(^\|[;}]\)\s*\)\@<=\<\%(scenario\|accepting\|watch\)\>\ze\s\+\h"
syn region mcExtern matchgroup=mcDeclaration
      \ start="\%(\%(^\|[;}]\)\s*\)\@<=\<extern\>\ze\s*\%(\"\|\<fn\>\|\<type\>\|\<const\>\)"
      \ end=";"me=e-1 contains=TOP keepend transparent
syn keyword mcExternWord   sources trusted contained containedin=mcExtern

" Anything that is no token, then the tokens that contain such characters.
" (In a collection, a backslash before a character it does not escape, as
" in \" or \[, is itself a member: the quote and the bracket are written
" bare, so that a backslash, no token outside a string, is an error.)
syn match mcError     #[^[:space:][:alnum:]_/*"(){}[\],;:.?=|<>+\-%!]#
syn match mcError     "\<\d\+\h\w*"
syn match mcNumber    "\<\d\+\>"
syn match mcOperator  "<->\|->\|\~>\|==\|!=\|<=\|>=\|&&\|||"

" In a scenario's behaviour a lone & is the intersection; as in the lexer,
" the scenario ends at any reserved word but true and false, or at
" `accepting NAME` or `watch NAME`.
syn region mcScenario matchgroup=mcDeclaration
      \ start="\%(\%(^\|[;}]\)\s*\)\@<=\<scenario\>\ze\s\+\h"
      \ end="\ze\<\%(model\|const\|type\|var\|fn\|init\|action\|invariant\|reachable\|terminal\|constraint\|property\|fair\|when\|if\|else\|for\|let\|assert\|return\|forall\|exists\|in\|none\|bool\|enum\|scalarset\|record\|set\|multiset\|queue\)\>"
      \ end="\%(\%(^\|[;}]\)\s*\)\@<=\ze\<\%(accepting\|watch\)\s\+\h"
      \ contains=TOP transparent
syn match mcBehaviourOp "&" contained containedin=mcScenario

syn region mcString   start=+"+ skip=+\\\\\|\\"+ end=+"\|$+ contains=mcEscape,mcBadEscape
syn match  mcBadEscape  +\\.+ contained
syn match  mcEscape   +\\["\\nt]+ contained
syn keyword mcTodo    TODO FIXME XXX contained
syn match  mcComment  "//.*$" contains=mcTodo,@Spell
syn region mcComment  start="/\*" end="\*/" contains=mcTodo,@Spell

hi def link mcDeclaration Keyword
hi def link mcStatement   Statement
hi def link mcType        Type
hi def link mcConstant    Constant
hi def link mcQuantifier  Operator
hi def link mcFairness    StorageClass
hi def link mcExternWord  Keyword
hi def link mcBehaviourOp Operator
hi def link mcOperator    Operator
hi def link mcNumber      Number
hi def link mcString      String
hi def link mcEscape      SpecialChar
hi def link mcBadEscape   Error
hi def link mcComment     Comment
hi def link mcTodo        Todo
hi def link mcError       Error

" Specs are short: read from the top, so that a long comment never confuses it.
syn sync fromstart

let b:current_syntax = "mc"

let &cpo = s:cpo_save
unlet s:cpo_save
