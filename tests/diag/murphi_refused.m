-- Constructs mcgen does not support are refused by name, never mis-checked.
-- EXPECT-ERROR: 11:8: a multiset of arrays or records: not supported by mcgen's Murphi front end
-- EXPECT-ERROR: 12:11: union types: not supported by mcgen's Murphi front end
-- EXPECT-ERROR: 18:1: liveness properties: not supported by mcgen's Murphi front end
-- EXPECT-HINT: Rumur's liveness is AG EF p
type
  Id: scalarset(2);
  Mode: enum { on, off };
  Pair: record id: Id; mode: Mode; end;
var
  bag: multiset [2] of Pair;
  either: union { Id, Mode };
  x: boolean;

startstate begin x := true; end;
rule begin x := !x; end;

liveness "toggles" x;
