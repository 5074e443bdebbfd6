// SPDX-License-Identifier: MIT
// extension.js: the VS Code side of mcgen. The grammar needs no code (the
// manifest, package.json, declares it); this starts mcgen's language server,
// `mcgen --lsp` (the command and arguments of the settings mcgen.server.*),
// through vscode-languageclient over standard input and output. An mcgen
// whose --help names no --lsp has no server: the extension then says so
// once in its output channel and leaves the highlighting alone.
"use strict";
const {spawnSync} = require("child_process");
const vscode = require("vscode");
const {LanguageClient} = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("mcgen.server");
  const command = config.get("command"), args = config.get("args");
  const help = spawnSync(command, ["--help"], {encoding: "utf8"});
  if (help.error || !/--lsp\b/.test(`${help.stdout}${help.stderr}`)) {
    const out = vscode.window.createOutputChannel("mcgen");
    out.appendLine(`${command} has no language server (--lsp): syntax highlighting only`);
    context.subscriptions.push(out);
    return;
  }
  client = new LanguageClient("mcgen", "mcgen", {command, args},
    {documentSelector: [{scheme: "file", language: "mc"}]});
  context.subscriptions.push({dispose: () => client && client.stop()});
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = {activate, deactivate};
