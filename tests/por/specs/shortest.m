-- Rumur twin of tests/por/specs/shortest.mc (recorded in
-- shortest.rumur.txt with Rumur v2022.08.20: rumur ARGS shortest.m,
-- cc -O2, as tests/oracle/record.sh does).
-- RUMUR-ARGS: --symmetry-reduction off --deadlock-detection off --threads 1
--
-- Rumur's breadth-first search prints a shortest trace to the state where
-- the invariant fails: three inc_b.

var
  a: 0..3;
  c: 0..3;
  b: 0..3;

startstate "init"
begin
  a := 0; c := 0; b := 0;
end;

rule "inc_a" a < 3 ==> begin a := a + 1; end;

rule "inc_c" c < 3 ==> begin c := c + 1; end;

rule "inc_b" b < 3 ==> begin b := b + 1; end;

invariant "b_low" b < 3;
