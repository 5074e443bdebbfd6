// SPDX-License-Identifier: MIT
// speclex.js: the reference lexer of the editor tests (grammar.js, vim.js),
// written from docs/LANGUAGE.md's "Lexical structure" and, for the lone '&'
// of a scenario, the rule of compiler/lex.c; and where a contextual word is
// a word of the language. Independent of both editors' syntax files.
"use strict";
const fs = require("fs");
const path = require("path");

const root = path.resolve(__dirname, "../..");
// The errors of compiler/lex.c that a grammar sees: a character or literal
// that is no token.
const LEXICAL_ERRORS = /unexpected character|invalid integer literal|unknown escape sequence/;

// The reserved words (docs/LANGUAGE.md) and the scope each must have.
const ROLE = {};
const roles = [
  ["keyword.", "model const type var fn init action invariant reachable terminal " +
    "constraint property fair let when if else for assert return forall exists in"],
  ["storage.type.", "bool enum scalarset record set multiset queue"],
  ["constant.language.", "true false none"],
];
for (const [scope, words] of roles) for (const w of words.split(" ")) ROLE[w] = scope;
const PUNCTS = ["<->", "::", "..", "==", "!=", "<=", ">=", "&&", "||", "->", "~>",
  "(", ")", "[", "]", "{", "}", ",", ";", ":", ".", "?", "=", "<", ">", "+", "-", "*", "/",
  "%", "!", "|"];

// The reference lexer: tokens {kind, line, col, len, text} (0-based line and
// column in UTF-16 units, as the grammar reports them); kind is comment,
// string, number, word, punct or bad.
function lex(text) {
  const toks = [];
  let i = 0, line = 0, lineStart = 0;
  const push = (kind, start, end, startLine = line, startCol = start - lineStart) =>
    toks.push({kind, line: startLine, col: startCol, start, end, text: text.slice(start, end)});
  const isIdStart = (c) => /[A-Za-z_]/.test(c);
  const isId = (c) => /[A-Za-z0-9_]/.test(c);
  let inScenario = false;
  while (i < text.length) {
    const c = text[i];
    if (c === "\n") { line++; lineStart = ++i; continue; }
    if (/[ \t\r\f\v]/.test(c)) { i++; continue; }
    if (text.startsWith("//", i)) {
      let j = i;
      while (j < text.length && text[j] !== "\n") j++;
      push("comment", i, j);
      i = j;
      continue;
    }
    if (text.startsWith("/*", i)) {
      const l0 = line, c0 = i - lineStart;
      let j = text.indexOf("*/", i + 2);
      j = j < 0 ? text.length : j + 2;
      for (let k = i; k < j; k++) if (text[k] === "\n") { line++; lineStart = k + 1; }
      push("comment", i, j, l0, c0);
      i = j;
      continue;
    }
    if (c === '"') {
      let j = i + 1, bad = null;
      while (j < text.length && text[j] !== "\n" && text[j] !== '"') {
        if (text[j] === "\\") {
          if (!/["\\nt\n]/.test(text[j + 1] || "\n")) bad = bad === null ? j : bad;
          j += text[j + 1] === "\n" ? 1 : 2;
        } else j++;
      }
      if (text[j] === '"') j++;
      push("string", i, j);
      if (bad !== null) push("bad", bad, bad + 2);
      i = j;
      continue;
    }
    if (isIdStart(c)) {
      let j = i + 1;
      while (j < text.length && isId(text[j])) j++;
      push("word", i, j);
      const w = text.slice(i, j), prev = significant(toks, toks.length - 2);
      const declStart = !prev || prev.text === ";" || prev.text === "}";
      if (ROLE[w] && w !== "true" && w !== "false") inScenario = false;
      else if (declStart && (w === "scenario" || w === "accepting" || w === "watch") && /^\s+[A-Za-z_]/.test(text.slice(j)))
        inScenario = w === "scenario";
      i = j;
      continue;
    }
    if (/[0-9]/.test(c)) {
      let j = i;
      while (j < text.length && /[0-9]/.test(text[j])) j++;
      let k = j;
      while (k < text.length && isId(text[k])) k++;
      push(k > j ? "bad" : "number", i, k);
      i = k;
      continue;
    }
    const p = PUNCTS.filter((s) => text.startsWith(s, i)).sort((a, b) => b.length - a.length)[0];
    if (p) { push("punct", i, i + p.length); i += p.length; continue; }
    if (c === "&" && inScenario) { push("punct", i, i + 1); i++; continue; }
    const n = c >= "\ud800" && c <= "\udbff" ? 2 : 1; // a code point outside the BMP
    push("bad", i, i + n);
    i += n;
  }
  return toks;
}

// The last token at or before index k that is no comment.
function significant(toks, k) {
  while (k >= 0 && toks[k].kind === "comment") k--;
  return k >= 0 ? toks[k] : null;
}

// Is the word at toks[k] a contextual keyword where it stands?
function contextual(toks, k) {
  const t = toks[k], next = (d) => nextSignificant(toks, k, d), prev = significant(toks, k - 1);
  const declStart = !prev || prev.text === ";" || prev.text === "}";
  switch (t.text) {
    case "count": case "sum":
      return (!prev || prev.text !== ".") && next(1) && next(1).kind === "word" && next(2) &&
        (next(2).text === ":" || next(2).text === "in");
    case "weak": case "strong":
      return prev && prev.text === "fair" && prev.line === t.line;
    case "extern":
      return declStart && next(1) && (next(1).kind === "string" || ["fn", "type", "const"].includes(next(1).text));
    case "scenario": case "accepting": case "watch":
      return declStart && next(1) && next(1).kind === "word" && next(1).line === t.line;
    case "sources": case "trusted":
      return inExtern(toks, k);
  }
  return false;
}

function nextSignificant(toks, k, d) {
  for (let j = k + 1; j < toks.length; j++)
    if (toks[j].kind !== "comment" && --d === 0) return toks[j];
  return null;
}

// Is toks[k] inside an extern declaration (between a contextual extern and
// its ';')?
function inExtern(toks, k) {
  for (let j = k - 1; j >= 0 && toks[j].text !== ";"; j--)
    if (toks[j].text === "extern" && contextual(toks, j)) return true;
  return false;
}

// The positions (LINE:COL, 1-based) the header of a diag spec expects a
// lexical error at. A TLA+ operator (`'/\' is TLA+'s`) is reported at its
// start, but the character that is no token is its backslash.
function expectedBad(file, text) {
  if (!file.includes(`${path.sep}diag${path.sep}`)) return [];
  const want = [];
  for (const m of text.matchAll(/EXPECT-ERROR: (\d+):(\d+): (.*)/g)) {
    const tla = m[3].match(/^'([^']*)' is TLA\+'s/);
    if (tla) want.push(`${m[1]}:${Number(m[2]) + tla[1].indexOf("\\")}`);
    else if (LEXICAL_ERRORS.test(m[3])) want.push(`${m[1]}:${m[2]}`);
  }
  return want;
}

function specsUnder(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, {withFileTypes: true})) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== "node_modules") out.push(...specsUnder(p));
    else if (e.isFile() && e.name.endsWith(".mc")) out.push(p);
  }
  return out;
}

// The specs named on the command line, else every .mc under specs/ and tests/.
function specFiles(args) {
  if (args.length) return args.map((f) => path.resolve(f));
  return [...specsUnder(path.join(root, "specs")), ...specsUnder(path.join(root, "tests"))].sort();
}

module.exports = {ROLE, lex, contextual, expectedBad, specFiles};
