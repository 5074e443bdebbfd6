// SPDX-License-Identifier: MIT
// grammar.js: the TextMate grammar of editors/vscode against every spec.
//
// Usage: node tests/editors/grammar.js [SPEC.mc...]   (default: every .mc
// under specs/ and tests/)
//
// Each spec is tokenized twice: by vscode-textmate with vscode-oniguruma
// (the engine of VS Code) and the grammar, and by the reference lexer below,
// written from docs/LANGUAGE.md's "Lexical structure" (and, for the lone
// '&' of a scenario, the rule of compiler/lex.c). Then, per token of the
// reference lexer:
//   - a comment or a string has the comment. or string. scope on every
//     character;
//   - a number has constant.numeric on its first character;
//   - a reserved word has the scope its role asks (ROLE below, from the
//     documented list), and so has a contextual word where the language
//     makes it one (count and sum before `NAME :` or `NAME in`, weak and
//     strong after fair, extern, scenario, accepting and watch starting a
//     declaration, sources and trusted in an extern declaration);
//   - any other name has none of these scopes;
// and the characters scoped invalid. are exactly those of the reference
// lexer's bad tokens. The bad tokens themselves are checked against the
// specs' own expectations: a spec of tests/diag has one where its header
// expects an "unexpected character", "invalid integer literal" or
// "unknown escape sequence" error, at that line and column, and no other;
// every other spec has none. (An unterminated comment or string is no bad
// token: a grammar reads a line at a time and cannot see that the end never
// comes. The comment then runs to the end of the file, which is checked.)
//
// One line per spec (`PASS file` or `FAIL file: why`); the last line is
// exactly `N passed, N failed`; the exit status is non-zero on a failure.
"use strict";
const fs = require("fs");
const path = require("path");
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const root = path.resolve(__dirname, "../..");
const grammarPath = path.join(root, "editors/vscode/syntaxes/mc.tmLanguage.json");

const {ROLE, lex, contextual, expectedBad, specFiles} = require("./speclex");
// The scopes no plain name may have.
const NOT_A_NAME = ["keyword.", "storage.", "constant.", "invalid.", "comment.", "string."];

// The scopes of every character: scopes[line][col] is an array of names.
function scopesOf(grammar, text) {
  const lines = text.split("\n");
  let stack = vsctm.INITIAL;
  return lines.map((l) => {
    const r = grammar.tokenizeLine(l, stack);
    stack = r.ruleStack;
    const at = new Array(l.length);
    for (const tok of r.tokens)
      for (let c = tok.startIndex; c < Math.min(tok.endIndex, l.length); c++) at[c] = tok.scopes;
    return at;
  });
}

function checkSpec(grammar, file) {
  const text = fs.readFileSync(file, "utf8");
  const toks = lex(text);
  const scopes = scopesOf(grammar, text);
  const problems = [];
  const where = (line, col) => `${line + 1}:${col + 1}`;
  // The scopes at the k-th character of a token (which may span lines).
  function scopeAt(t, k) {
    let line = t.line, col = t.col;
    for (let i = t.start; i < t.start + k; i++) {
      if (text[i] === "\n") { line++; col = 0; } else col++;
    }
    return {line, col, scopes: text[t.start + k] === "\n" ? null : scopes[line][col] || []};
  }
  const has = (s, prefix) => s.some((n) => n.startsWith(prefix));
  function every(t, prefix) {
    for (let k = 0; k < t.end - t.start; k++) {
      const a = scopeAt(t, k);
      if (a.scopes && !/\s/.test(text[t.start + k]) && !has(a.scopes, prefix))
        return problems.push(`${where(a.line, a.col)}: '${t.text.slice(0, 20)}' not ${prefix}* (${a.scopes.join(" ")})`);
    }
  }
  const first = (t) => scopes[t.line][t.col] || [];

  const badAt = new Set();
  toks.forEach((t, k) => {
    if (t.kind === "comment") every(t, "comment.");
    else if (t.kind === "string") every(t, "string.");
    else if (t.kind === "number" && !has(first(t), "constant.numeric."))
      problems.push(`${where(t.line, t.col)}: number '${t.text}' has ${first(t).join(" ")}`);
    else if (t.kind === "word") {
      const want = ROLE[t.text] || (contextual(toks, k) ? "keyword." : null);
      const s = first(t);
      if (want === "keyword." && !ROLE[t.text] && !has(s, "keyword.") && !has(s, "storage.modifier."))
        problems.push(`${where(t.line, t.col)}: contextual '${t.text}' has ${s.join(" ")}`);
      else if (want && ROLE[t.text] && !has(s, want))
        problems.push(`${where(t.line, t.col)}: '${t.text}' not ${want}* (${s.join(" ")})`);
      else if (!want && NOT_A_NAME.some((p) => has(s, p)))
        problems.push(`${where(t.line, t.col)}: name '${t.text}' has ${s.join(" ")}`);
    } else if (t.kind === "bad") {
      badAt.add(where(t.line, t.col));
      for (let k = 0; k < t.end - t.start; k++) {
        const a = scopeAt(t, k);
        if (!has(a.scopes, "invalid.")) problems.push(`${where(a.line, a.col)}: '${t.text}' not invalid.*`);
      }
    }
  });
  // Invalid scopes only on bad tokens.
  const badChars = new Set();
  for (const t of toks.filter((t) => t.kind === "bad"))
    for (let k = 0; k < t.end - t.start; k++) { const a = scopeAt(t, k); badChars.add(where(a.line, a.col)); }
  scopes.forEach((line, l) => line.forEach((s, c) => {
    if (has(s, "invalid.") && !badChars.has(where(l, c)))
      problems.push(`${where(l, c)}: '${text.split("\n")[l][c]}' scoped ${s.filter((n) => n.startsWith("invalid.")).join(" ")}`);
  }));
  // The reference lexer's bad tokens are where the spec's header says.
  const want = expectedBad(file, text).sort().join(" "), got = [...badAt].sort().join(" ");
  if (want !== got) problems.push(`lexical errors at '${got}', the header expects '${want}'`);
  return problems;
}

// The extension's manifest declares this grammar for .mc files, and its
// comment settings are the language's.
function checkManifest() {
  const dir = path.join(root, "editors/vscode"), problems = [];
  const m = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  const lang = (m.contributes.languages || []).find((l) => l.id === "mc") || {};
  const gram = (m.contributes.grammars || []).find((g) => g.language === "mc") || {};
  const scope = JSON.parse(fs.readFileSync(grammarPath, "utf8")).scopeName;
  if (!(lang.extensions || []).includes(".mc")) problems.push("no language mc for .mc files");
  if (path.resolve(dir, gram.path || "") !== grammarPath) problems.push(`grammar path ${gram.path}`);
  if (gram.scopeName !== scope) problems.push(`scopeName ${gram.scopeName}, the grammar's is ${scope}`);
  const conf = JSON.parse(fs.readFileSync(path.resolve(dir, lang.configuration || "none"), "utf8"));
  if (conf.comments.lineComment !== "//" || conf.comments.blockComment.join(" ") !== "/* */")
    problems.push("comments of language-configuration.json");
  if (!fs.existsSync(path.resolve(dir, m.main))) problems.push(`no ${m.main}`);
  return problems;
}

async function main() {
  const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
  await oniguruma.loadWASM(wasm);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async () => vsctm.parseRawGrammar(fs.readFileSync(grammarPath, "utf8"), grammarPath),
  });
  const grammar = await registry.loadGrammar("source.mc");
  const files = specFiles(process.argv.slice(2));
  let passed = 0, failed = 0;
  const manifest = checkManifest();
  if (manifest.length === 0) { console.log("PASS editors/vscode/package.json"); passed++; }
  else { console.log(`FAIL editors/vscode/package.json: ${manifest.join("; ")}`); failed++; }
  for (const file of files) {
    const rel = path.relative(root, file);
    const problems = checkSpec(grammar, file);
    if (problems.length === 0) { console.log(`PASS ${rel}`); passed++; }
    else { console.log(`FAIL ${rel}: ${problems.slice(0, 5).join("; ")}`); failed++; }
  }
  if (files.length === 0) { console.log("FAIL no spec found"); failed++; }
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((e) => { console.log(`FAIL ${e.stack}`); console.log("0 passed, 1 failed"); process.exitCode = 1; });
