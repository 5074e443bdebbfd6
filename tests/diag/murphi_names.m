-- Name and type errors: a typo gets the nearest name as a hint; each
-- declaration's first error is reported.
-- EXPECT-ERROR: 14:3: unknown name 'countr'
-- EXPECT-HINT: did you mean 'counter'?
-- EXPECT-ERROR: 17:6: expected a boolean, found an integer
-- EXPECT-ERROR: 20:17: unknown type 'Nodes'
-- EXPECT-HINT: did you mean 'Node'?
type
  Node: scalarset(2);
var
  counter: 0 .. 3;

rule "typo" begin
  countr := 1;
end;
rule "not a condition" begin
  if counter then counter := 0; end;
end;
var
  owner: array [Nodes] of boolean;

-- A declaration with an error leaves its name declared: no error follows
-- from its uses.
rule "uses the broken variable" begin
  owner[counter] := true;
end;
