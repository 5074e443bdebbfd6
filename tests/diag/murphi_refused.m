-- Constructs mcgen does not support are refused by name, never mis-checked.
-- EXPECT-ERROR: 10:8: multisets: not supported by mcgen's Murphi front end
-- EXPECT-ERROR: 11:11: union types: not supported by mcgen's Murphi front end
-- EXPECT-ERROR: 17:1: liveness properties: not supported by mcgen's Murphi front end
-- EXPECT-HINT: Rumur's liveness is AG EF p
type
  Id: scalarset(2);
  Mode: enum { on, off };
var
  bag: multiset [2] of Id;
  either: union { Id, Mode };
  x: boolean;

startstate begin x := true; end;
rule begin x := !x; end;

liveness "toggles" x;
