#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/lsp/run.py BUILD: mcgen --lsp driven by a scripted client.

A client written here speaks JSON-RPC to `BUILD/mcgen --lsp` over pipes
(Content-Length framing, as an editor does) and checks, on lock.mc (its
header says how each expectation is read from its text):

  - initialize: the capabilities (sync, definition, hover, symbols) and the
    position encoding (UTF-16 by default, UTF-8 when the client offers it);
  - didOpen: no diagnostics; an edit that misspells a variable: one error
    at the misspelled name (range, severity 1, the message and the hint
    "did you mean"); an edit that writes `and`: the hint "write '&&'"; the
    fix: diagnostics cleared;
  - definition and hover on a variable, a type, an action (in a `fair`
    line) and a constant: the location of its declaration, found in the
    text, and the hover holding the declaration (and the constant's value);
  - documentSymbol: every declared name, in order, with its kind;
  - incremental edits (a range replaced) and columns after a character
    outside the BMP (two UTF-16 units, four UTF-8 bytes);
  - a DVE document: its outline and an error in it;
  - hostile input: a header without Content-Length, a Content-Length over
    the limit (64 MiB) with its body, one that is not a number, invalid
    JSON, a JSON array, unknown methods (a request gets -32601, a
    notification nothing), a request before initialize (-32002): each
    answered per the protocol, and the server still answers after it;
  - shutdown then exit: exit status 0; the input closed without shutdown:
    status 1;
  - memory: 1,000 edits, each analysed (a documentSymbol request after
    it), grow the server's resident memory by less than 4 MiB after the
    first 200;
  - editors/vscode/extension.js starts the server when `mcgen --help`
    matches its test (/--lsp\\b/).

Prints PASS/FAIL per check and a tally; exits 1 when a check failed.
"""
import json
import os
import re
import select
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
MCGEN = os.path.join(BUILD, "mcgen")
LOCK = os.path.join(HERE, "lock.mc")
URI = "file://" + LOCK
TEXT = open(LOCK, encoding="utf-8").read()

passed = failed = 0


def check(name, ok, why=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"PASS {name}")
    else:
        failed += 1
        print(f"FAIL {name}: {why}")


class Server:
    """mcgen --lsp on pipes; every read has a deadline."""

    def __init__(self):
        self.p = subprocess.Popen([MCGEN, "--lsp"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.buf = b""
        self.next_id = 0

    def write(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def request(self, method, params=None):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method,
                   "params": params or {}})
        return self.next_id

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def _fill(self, deadline):
        left = deadline - time.time()
        if left <= 0 or not select.select([self.p.stdout], [], [], left)[0]:
            raise TimeoutError("no message from the server in time")
        chunk = os.read(self.p.stdout.fileno(), 1 << 16)
        if not chunk:
            raise EOFError("the server closed its output")
        self.buf += chunk

    def read(self, timeout=30):
        deadline = time.time() + timeout
        while b"\r\n\r\n" not in self.buf:
            self._fill(deadline)
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        n = int(re.search(rb"Content-Length: *(\d+)", head).group(1))
        while len(self.buf) < n:
            self._fill(deadline)
        body, self.buf = self.buf[:n], self.buf[n:]
        return json.loads(body)

    def reply(self, id_, timeout=30):
        """The response to request id_, skipping notifications."""
        while True:
            m = self.read(timeout)
            if m.get("id") == id_ and "method" not in m:
                return m

    def diagnostics(self, uri=URI):
        while True:
            m = self.read()
            if m.get("method") == "textDocument/publishDiagnostics" and \
                    m["params"]["uri"] == uri:
                return m["params"]["diagnostics"]

    def initialize(self, encodings=None):
        caps = {"general": {"positionEncodings": encodings}} if encodings else {}
        r = self.reply(self.request("initialize", {"capabilities": caps}))
        self.notify("initialized", {})
        return r

    def open(self, text, uri=URI, language="mc"):
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": language, "version": 1, "text": text}})

    def change(self, version, changes, uri=URI):
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": changes})

    def at(self, method, line, character, uri=URI):
        return self.reply(self.request(method, {
            "textDocument": {"uri": uri}, "position": {"line": line, "character": character}}))

    def finish(self, timeout=10):
        try:
            self.p.stdin.close()
        except BrokenPipeError:
            pass
        try:
            return self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            return "killed: no exit in time"


def where(text, needle, nth=0, offset=0):
    """(line, UTF-16 column) of the nth match of needle in text, plus offset."""
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    i += offset
    line = text.count("\n", 0, i)
    start = text.rfind("\n", 0, i) + 1
    return line, len(text[start:i].encode("utf-16-le")) // 2


def decl_range(text, needle, name):
    """The range of `name` inside the first match of needle (a declaration)."""
    line, col = where(text, needle, offset=needle.index(name))
    return {"start": {"line": line, "character": col},
            "end": {"line": line, "character": col + len(name)}}


def run_check(name, f):
    try:
        f()
    except Exception as e:  # a check that raised failed; the others still run
        check(name, False, f"{type(e).__name__}: {e}")


# ---------------------------------------------------------------------------

def t_session():
    s = Server()
    r = s.initialize()
    caps = r["result"]["capabilities"]
    check("initialize: capabilities",
          caps.get("definitionProvider") and caps.get("hoverProvider") and
          caps.get("documentSymbolProvider") and caps["textDocumentSync"]["openClose"],
          json.dumps(caps))
    check("initialize: UTF-16 columns unless offered UTF-8",
          caps.get("positionEncoding") == "utf-16", caps.get("positionEncoding"))

    s.open(TEXT)
    d = s.diagnostics()
    check("didOpen: a correct spec has no diagnostics", d == [], json.dumps(d))

    # An edit that misspells a variable in the guard of `take`.
    bad = TEXT.replace("action take(p: Proc) when pc[p]", "action take(p: Proc) when pcc[p]")
    s.change(2, [{"text": bad}])
    d = s.diagnostics()
    line, col = where(bad, "pcc[p]")
    want = {"start": {"line": line, "character": col}, "end": {"line": line, "character": col + 3}}
    check("edit: one error", len(d) == 1, json.dumps(d))
    if d:
        check("edit: the error's range is the misspelled name", d[0]["range"] == want,
              f"{d[0]['range']}, expected {want}")
        check("edit: severity error", d[0].get("severity") == 1, d[0].get("severity"))
        check("edit: message and hint",
              "unknown name 'pcc'" in d[0]["message"] and
              "hint: did you mean 'pc'?" in d[0]["message"], d[0]["message"])

    # Another language's `and`: its hint, at the word.
    bad = TEXT.replace("pc[p] == waiting && holder", "pc[p] == waiting and holder")
    s.change(3, [{"text": bad}])
    d = s.diagnostics()
    line, col = where(bad, "and holder")
    check("edit: 'and' gets the hint '&&'",
          len(d) == 1 and d[0]["range"]["start"] == {"line": line, "character": col} and
          "write '&&'" in d[0]["message"], json.dumps(d))

    s.change(4, [{"text": TEXT}])
    d = s.diagnostics()
    check("fix: diagnostics cleared", d == [], json.dumps(d))

    # Definition and hover: a use, and the declaration it must lead to.
    cases = [
        ("a variable", "pc[p] = owning", "pc", "var pc: [Proc] Pc;", "var pc"),
        ("a type", "var pc: [Proc] Pc;", "Pc", "type Pc = enum", "type Pc"),
        ("an action", "fair weak take;", "take", "action take(p: Proc)", "action take"),
        ("a constant", "var count: 0..K;", "K", "const K = N + 1;", "const K"),
    ]
    for what, use, name, decl, hover_text in cases:
        line, col = where(TEXT, use, offset=use.rindex(name))
        r = s.at("textDocument/definition", line, col + 1)["result"]
        want = decl_range(TEXT, decl, name)
        check(f"definition of {what} ({name})",
              r and r["uri"] == URI and r["range"] == want, f"{r}, expected {want}")
        h = s.at("textDocument/hover", line, col)["result"]
        value = h["contents"]["value"] if h else ""
        check(f"hover on {what} ({name})", hover_text in value, repr(value))
    h = s.at("textDocument/hover", *where(TEXT, "0..K", offset=3))["result"]
    check("hover on a constant: its value (K = N + 1 = 3)",
          h and "value: `3`" in h["contents"]["value"], json.dumps(h))
    r = s.at("textDocument/definition", *where(TEXT, "// lock.mc"))["result"]
    check("definition in a comment: none", r is None, json.dumps(r))

    r = s.reply(s.request("textDocument/documentSymbol", {"textDocument": {"uri": URI}}))
    names = [(x["name"], x["kind"]) for x in r["result"]]
    declared = re.findall(r"^(model|const|type|var|action|invariant|property) (\w+)", TEXT, re.M)
    kinds = {"model": 2, "const": 14, "var": 13, "action": 24, "invariant": 7, "property": 7}
    want = [(n, kinds.get(k, 26 if n == "Proc" else 10)) for k, n in declared]
    check("documentSymbol: every declaration, in order, with its kind", names == want,
          f"{names}, expected {want}")
    pc_type = next((x for x in r["result"] if x["name"] == "Pc"), {})
    members = [c["name"] for c in pc_type.get("children", [])]
    check("documentSymbol: an enum's members", members == ["idle", "waiting", "owning"],
          members)

    # A range replaced (incremental sync) after a character outside the BMP
    # on its line: the error's column counts it as two UTF-16 units.
    line, col = where(TEXT, "pc[p] = waiting;")
    s.change(5, [{"range": {"start": {"line": line, "character": col},
                            "end": {"line": line, "character": col + 2}},
                  "text": 'assert true, "\U0001d11e"; pcq'}])
    edited = TEXT.replace("pc[p] = waiting;", 'assert true, "\U0001d11e"; pcq[p] = waiting;')
    d = s.diagnostics()
    eline, ecol = where(edited, "pcq")
    check("incremental edit after a non-BMP character: the UTF-16 column",
          len(d) == 1 and d[0]["range"]["start"] == {"line": eline, "character": ecol},
          f"{json.dumps(d)}, expected {eline}:{ecol}")

    rid = s.request("shutdown")
    check("shutdown: null result", s.reply(rid).get("result", "missing") is None)
    s.notify("exit", {})
    rc = s.finish()
    check("exit after shutdown: status 0", rc == 0, rc)


def t_utf8():
    s = Server()
    caps = s.initialize(["utf-8", "utf-16"])["result"]["capabilities"]
    check("initialize: UTF-8 columns when offered", caps.get("positionEncoding") == "utf-8",
          caps.get("positionEncoding"))
    text = TEXT.replace("pc[p] = waiting;", 'assert true, "\U0001d11e"; pcq[p] = waiting;')
    s.open(text)
    d = s.diagnostics()
    line = where(text, "pcq")[0]
    start = text.rfind("\n", 0, text.index("pcq")) + 1
    col = len(text[start:text.index("pcq")].encode("utf-8"))
    check("UTF-8 columns: bytes", len(d) == 1 and
          d[0]["range"]["start"] == {"line": line, "character": col}, json.dumps(d))
    s.finish()


def t_dve():
    path = os.path.join(ROOT, "tests", "dve", "buffered.dve")
    text = open(path, encoding="utf-8").read()
    uri = "file://" + path
    s = Server()
    s.initialize()
    s.open(text, uri, "dve")
    d = s.diagnostics(uri)
    check("a DVE document: no diagnostics", d == [], json.dumps(d))
    r = s.reply(s.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}}))
    check("a DVE document: an outline", len(r["result"]) > 0, json.dumps(r)[:300])
    s.change(2, [{"text": text + "\nnonsense here\n"}], uri)
    d = s.diagnostics(uri)
    check("a DVE document: an error", len(d) >= 1 and d[0]["severity"] == 1, json.dumps(d))
    s.finish()


def t_hostile():
    s = Server()
    s.write(b"Content-Type: text/plain\r\n\r\n")
    m = s.read()
    check("a header without Content-Length: parse error, id null",
          m.get("error", {}).get("code") == -32700 and m.get("id") is None, m)
    s.write(b"Content-Length: many\r\n\r\n")
    m = s.read()
    check("a Content-Length that is no number: parse error",
          m.get("error", {}).get("code") == -32700, m)
    big = 65 << 20
    s.write(b"Content-Length: %d\r\n\r\n" % big)
    chunk = b" " * (1 << 20)
    for _ in range(big >> 20):
        s.write(chunk)
    m = s.read(60)
    check("a body over 64 MiB: dropped, invalid request",
          m.get("error", {}).get("code") == -32600, m)
    s.write(b"Content-Length: 9\r\n\r\n{not json")
    m = s.read()
    check("invalid JSON: parse error", m.get("error", {}).get("code") == -32700, m)
    s.write(b"Content-Length: 5\r\n\r\n[1,2]")
    m = s.read()
    check("a JSON array: invalid request", m.get("error", {}).get("code") == -32600, m)
    r = s.reply(s.request("textDocument/hover", {}))
    check("a request before initialize: -32002", r.get("error", {}).get("code") == -32002, r)
    s.initialize()
    r = s.reply(s.request("workspace/frobnicate", {}))
    check("an unknown request: method not found",
          r.get("error", {}).get("code") == -32601, r)
    s.notify("$/frobnicate", {})
    s.notify("textDocument/didChange", {"textDocument": {"uri": "file:///nowhere.mc"},
                                        "contentChanges": [{"text": "x"}]})
    r = s.reply(s.request("textDocument/hover", {"textDocument": {"uri": URI}}))
    check("bad params: invalid params", r.get("error", {}).get("code") == -32602, r)
    rid = s.request("textDocument/documentSymbol", {"textDocument": {"uri": "file:///x.mc"}})
    m = s.read()
    check("unknown notifications get no answer; the server still answers",
          m.get("id") == rid and m.get("result") == [], m)
    rc = s.finish()
    check("the input closed without shutdown: status 1", rc == 1, rc)


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))


def t_memory():
    s = Server()
    s.initialize()
    s.open(TEXT)
    s.diagnostics()
    bad = TEXT.replace("pc[p] = waiting;", "pc[p] = wating;")
    before = None
    for i in range(1000):
        s.change(i + 2, [{"text": bad if i % 2 else TEXT}])
        s.reply(s.request("textDocument/documentSymbol", {"textDocument": {"uri": URI}}))
        if i == 199:
            before = rss_kib(s.p.pid)
    after = rss_kib(s.p.pid)
    check("1,000 analysed edits: resident memory grows by less than 4 MiB after 200",
          after - before < 4096, f"{before} KiB after 200 edits, {after} KiB after 1,000")
    s.finish()


def t_vscode():
    help_text = subprocess.run([MCGEN, "--help"], capture_output=True, text=True).stdout
    ext = open(os.path.join(ROOT, "editors", "vscode", "extension.js")).read()
    test = re.search(r"!/(.*?)/\.test", ext)
    check("editors/vscode starts the server: its test matches mcgen --help",
          test and re.search(test.group(1).replace("\\b", r"\b"), help_text),
          test.group(1) if test else "no test in extension.js")


if not os.access(MCGEN, os.X_OK):
    check("setup", False, f"{MCGEN} is not built (make all)")
else:
    for name, f in [("session", t_session), ("utf-8", t_utf8), ("dve", t_dve),
                    ("hostile input", t_hostile), ("memory", t_memory), ("vscode", t_vscode)]:
        run_check(name, f)
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
