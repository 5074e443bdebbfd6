-- Syntax errors in a Murphi model: each top-level item is read on its own,
-- so every item's first error is reported in one run.
-- EXPECT-ERROR: 14:1: expected 'end' or 'endrule', found 'rule'
-- EXPECT-NOTE: 11:1: to close this 'rule'
-- EXPECT-ERROR: 18:13: expected ':=', found '='
-- EXPECT-ERROR: 21:11: expected an expression, found ';'
var
  x: boolean;
  n: 0 .. 3;

rule "unclosed" begin
  x := !x;

rule "equals" begin
  x := !x;
end;
rule "assign" begin
  n := 1; n = 2;
end;
invariant "missing"
  n < 3 & ;
