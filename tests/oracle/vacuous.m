-- Rumur twin of tests/e2e/specs/vacuous.mc: `reachable` is `cover`; one
-- never hit is an error at the end of a complete search.
-- RUMUR-ARGS: --symmetry-reduction off --deadlock-detection stuck --threads 1

var x: 0..3;

startstate "init" begin x := 0; end;

rule "inc" x < 3 ==> begin x := x + 1; end;
rule "reset" x = 3 ==> begin x := 0; end;

cover "never" x = 2 & x = 3;
cover "two" x = 2;
