-- Rumur twin of tests/por/specs/index_rewritten.mc (recorded in
-- index_rewritten.rumur.txt with Rumur v2022.08.20: rumur ARGS
-- index_rewritten.m, cc -O2, as tests/oracle/record.sh does).
-- RUMUR-ARGS: --symmetry-reduction off --deadlock-detection off --threads 1

var
  a: array [0..3] of 0..3;
  b: array [0..3] of 0..3;
  k: 0..3;
  wdone: boolean;
  udone: boolean;
  bad: boolean;

startstate "init"
begin
  for i: 0..3 do a[i] := 0; b[i] := 0; end;
  b[0] := 1; k := 0; wdone := false; udone := false; bad := false;
end;

rule "w" !wdone ==> begin wdone := true; b[k] := 2; a[b[0]] := 3; end;

rule "u" !udone ==> begin udone := true; a[2] := 1; end;

rule "z" a[2] = 3 & udone & !bad ==> begin bad := true; end;

invariant "never_bad" !bad;
