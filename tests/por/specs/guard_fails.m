-- Rumur twin of tests/por/specs/guard_fails.mc (recorded in
-- guard_fails.rumur.txt with Rumur v2022.08.20: rumur ARGS guard_fails.m,
-- cc -O2, as tests/oracle/record.sh does).
-- RUMUR-ARGS: --symmetry-reduction off --deadlock-detection off --threads 1
--
-- Murphi's `&` does not evaluate its right side when the left is false, as
-- mcgen's `&&`; an index out of range in a guard is an error in both.

var
  m: boolean;
  i: 0..3;
  a: array [0..1] of 0..1;
  flag: 0..1;
  z: boolean;

startstate "init"
begin
  m := true; i := 0; for k: 0..1 do a[k] := 0; end; flag := 0; z := false;
end;

rule "hide" m ==> begin m := false; end;

rule "move" i = 0 ==> begin i := 3; end;

rule "check" m & a[i] > 0 & flag = 1 ==> begin z := true; end;
