-- Rumur twin of tests/por/specs/in_param.mc (recorded in
-- in_param.rumur.txt with Rumur v2022.08.20: rumur ARGS in_param.m,
-- cc -O2, as tests/oracle/record.sh does).
-- RUMUR-ARGS: --symmetry-reduction off --deadlock-detection off --threads 1
--
-- pending: set<0..2> is an array of booleans; take(s in pending) a
-- ruleset over 0..2 whose guard asks pending[s] first.

var
  pending: array [0..2] of boolean;
  w: 0..1;
  z: boolean;

startstate "init"
begin
  for k: 0..2 do pending[k] := false; end; w := 0; z := false;
end;

rule "other" w = 0 ==> begin w := 1; end;

rule "put" !z ==> begin pending[2] := true; z := true; end;

ruleset s: 0..2 do
  rule "take" pending[s] & w = 0 ==> begin assert false "take"; end;
end;
