#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Validates the JSON documents a checker writes against docs/schema/.

Usage: validate.py [--sweep] [--quiet] PATH...

Each PATH is a file (a directory under --sweep: every *.json below it).
A document names its schema: "schema": "mcgen-report/1" (the report),
"mcgen-trail/1" (a trail), "mcgen-graph" or "mcgen-tests" with "version": 1
(--graph, --tests). A file given as violation:FILE holds what
--trace-format json prints: one violation object of the report, or null.

Each document must be exactly one JSON value and valid against its schema
(python3-jsonschema, Draft 2020-12). Named files that claim no mcgen schema
fail; under --sweep such files (another tool's JSON) are counted and
skipped. Prints one line per invalid document and a tally; exits 1 when any
document is invalid, 2 on a usage error.
"""
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    sys.exit("validate.py: python3-jsonschema is not installed (make test-deps)")

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMAS = os.path.join(HERE, "..", "..", "docs", "schema")
# The schema of each document name (and version, for the exports).
NAMES = {
    ("mcgen-report/1", None): "report.schema.json",
    ("mcgen-trail/1", None): "trail.schema.json",
    ("mcgen-graph", 1): "graph.schema.json",
    ("mcgen-tests", 1): "tests.schema.json",
}
_loaded = {}


def validator(name):
    if name not in _loaded:
        with open(os.path.join(SCHEMAS, name), encoding="utf-8") as f:
            schema = json.load(f)
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        _loaded[name] = cls(schema)
    return _loaded[name]


def schema_of(doc):
    """The schema file for a document, None when it claims no mcgen schema,
    or a string starting with '!' for a claim no schema answers."""
    if not isinstance(doc, dict) or not isinstance(doc.get("schema"), str):
        return None
    name = doc["schema"]
    if not name.startswith("mcgen-"):
        return None
    version = doc.get("version") if "/" not in name else None
    return NAMES.get((name, version), "!no schema for %r version %r" % (name, version))


def errors(path, kind):
    """The problems of one file (an empty list when valid), or None when
    it claims no mcgen schema."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)  # one value: trailing text is an error
    except (OSError, ValueError) as e:
        return ["not one JSON document: %s" % e]
    if kind == "violation":
        if doc is None:
            return []
        v = validator("report.schema.json")
        sub = dict(v.schema, **{"$ref": "#/$defs/violation"})
        for key in ("required", "properties", "additionalProperties", "allOf", "type"):
            sub.pop(key, None)
        checker = type(v)(sub)
        return [describe(e) for e in checker.iter_errors(doc)]
    name = schema_of(doc)
    if name is None:
        return None
    if name.startswith("!"):
        return [name[1:]]
    return [describe(e) for e in validator(name).iter_errors(doc)]


def describe(e):
    where = "/".join(str(p) for p in e.absolute_path) or "(top)"
    return "%s: %s" % (where, e.message[:300])


def main(argv):
    sweep = "--sweep" in argv
    quiet = "--quiet" in argv
    paths = [a for a in argv if a not in ("--sweep", "--quiet")]
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    files = []
    for p in paths:
        kind, _, name = p.partition(":") if p.startswith("violation:") else ("", "", p)
        if sweep and os.path.isdir(name):
            for d, _, fs in sorted(os.walk(name)):
                files += [("", os.path.join(d, f)) for f in sorted(fs) if f.endswith(".json")]
        else:
            files.append((kind, name))
    valid = invalid = skipped = 0
    for kind, f in files:
        problems = errors(f, kind)
        if problems is None and sweep:
            skipped += 1
            continue
        if problems is None:
            problems = ["claims no mcgen schema (no \"schema\": \"mcgen-...\" member)"]
        if problems:
            invalid += 1
            for p in problems[:5]:
                print("INVALID %s: %s" % (f, p))
        else:
            valid += 1
            if not quiet:
                print("valid %s" % f)
    print("%d valid, %d invalid, %d without an mcgen schema" % (valid, invalid, skipped))
    return 1 if invalid else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
