// SPDX-License-Identifier: MIT
// vim.js: editors/vim (the syntax file and the file type detection)
// against every spec, with the expectations of grammar.js in Vim's terms.
//
// Usage: node tests/editors/vim.js [SPEC.mc...]   (default: every .mc under
// specs/ and tests/)
//
// For each spec the reference lexer (speclex.js) says what each token is;
// one Vim, with editors/vim first in its 'runtimepath' and no vimrc, opens
// every spec (check.vim) and reads the highlight group at each token:
// Vim's file type must be mc; a comment is Comment (or Todo) on every
// character, a string String (or SpecialChar, an escape); a number Number;
// a reserved word Keyword, Statement or Operator (a quantifier, `in`), Type
// (bool, enum, ...) or Constant (true, false, none), as its role; a
// contextual word where it is one Keyword, Operator or StorageClass, any
// other name none of those groups; and Error exactly on the characters of
// the reference lexer's bad tokens (checked against the diag specs'
// headers by grammar.js).
//
// One line per spec (`PASS file` or `FAIL file: why`); the last line is
// exactly `N passed, N failed`; the exit status is non-zero on a failure.
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const {execFileSync} = require("child_process");
const {ROLE, lex, contextual, specFiles} = require("./speclex");

const root = path.resolve(__dirname, "../..");
// The groups each kind of token may have (after Vim's links).
const GROUPS = {
  "keyword.": "Keyword,Statement,Operator",
  "storage.type.": "Type",
  "constant.language.": "Constant",
  contextual: "Keyword,Operator,StorageClass",
  comment: "Comment,Todo",
  string: "String,SpecialChar",
  number: "Number",
  bad: "Error",
};
const NOT_A_NAME = "!Keyword,Statement,Operator,Type,Constant,StorageClass,Number,Error,Comment,String";

// The checks of one spec for check.vim: [line, byte column (1-based),
// groups] per character to check, and the positions of the bad characters.
function checksOf(file) {
  const text = fs.readFileSync(file, "utf8");
  const lines = text.split("\n");
  const checks = [], bad = {};
  // The position of the k-th character of token t, in Vim's terms.
  const at = (t, k) => {
    let line = t.line, col = t.col;
    for (let i = t.start; i < t.start + k; i++)
      if (text[i] === "\n") { line++; col = 0; } else col++;
    return [line + 1, Buffer.byteLength(lines[line].slice(0, col)) + 1];
  };
  const everyChar = (t, groups) => {
    for (let k = 0; k < t.end - t.start; k++)
      if (!/\s/.test(text[t.start + k])) checks.push([...at(t, k), groups]);
  };
  lex(text).forEach((t, k, toks) => {
    if (t.kind === "comment" || t.kind === "string") everyChar(t, GROUPS[t.kind]);
    else if (t.kind === "number") checks.push([...at(t, 0), GROUPS.number]);
    else if (t.kind === "bad") {
      everyChar(t, GROUPS.bad);
      for (let c = 0; c < t.end - t.start; c++) bad[at(t, c).join(":")] = 1;
    } else if (t.kind === "word")
      checks.push([...at(t, 0), ROLE[t.text] ? GROUPS[ROLE[t.text]]
        : contextual(toks, k) ? GROUPS.contextual : NOT_A_NAME]);
  });
  return {path: file, checks, bad};
}

function main() {
  const files = specFiles(process.argv.slice(2));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "mcgen-vim."));
  const input = path.join(work, "checks.json"), output = path.join(work, "results.json");
  fs.writeFileSync(input, JSON.stringify(files.map(checksOf)));
  let passed = 0, failed = 0;
  try {
    execFileSync("vim", ["-u", "NONE", "-i", "NONE", "-N", "-n", "-es",
      "--cmd", `set rtp^=${path.join(root, "editors/vim")}`,
      "-c", "filetype on", "-c", "syntax on", "-S", path.join(__dirname, "check.vim")],
    {env: {...process.env, MC_CHECKS: input, MC_RESULTS: output}, stdio: "inherit", timeout: 300000});
    const results = JSON.parse(fs.readFileSync(output, "utf8"));
    for (const [file, problems] of results) {
      const rel = path.relative(root, file);
      if (problems.length === 0) { console.log(`PASS vim ${rel}`); passed++; }
      else { console.log(`FAIL vim ${rel}: ${problems.slice(0, 5).join("; ")}`); failed++; }
    }
    if (results.length !== files.length) { console.log(`FAIL vim: ${results.length} results for ${files.length} specs`); failed++; }
  } catch (e) {
    console.log(`FAIL vim: ${e.message}`);
    failed++;
  } finally {
    fs.rmSync(work, {recursive: true, force: true});
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

main();
