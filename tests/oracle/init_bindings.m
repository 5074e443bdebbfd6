-- Rumur twin of tests/e2e/specs/init_bindings.mc.
-- RUMUR-ARGS: --symmetry-reduction off --deadlock-detection stuck --threads 1
--
-- Each mcgen init binding whose `when` holds is one startstate here, written
-- out (a Murphi startstate has no guard): first(0), first(2), second(a),
-- second(b). first(0) and second(a) give the same state; Rumur, like mcgen,
-- keeps one. Every variable starts from mcgen's default: R (3..5) at 3, S
-- (-2..2) at 0, E at a, o (R?, encoded 0..5 with 0 for none) none, flag
-- false.

type
  R: 3..5;
  S: -2..2;
  E: enum { a, b, c };

const
  NONE: 0;

var
  r: R;
  s: S;
  e: E;
  o: 0..5;
  flag: boolean;

procedure defaults();
begin
  r := 3; s := 0; e := a; o := NONE; flag := false;
end;

startstate "first(x=0)" begin defaults(); s := 0 / 2; end;
startstate "first(x=2)" begin defaults(); s := 2 / 2; end;
startstate "second(y=a)" begin defaults(); e := a; end;
startstate "second(y=b)" begin defaults(); e := b; end;

rule "bump" r < 5 ==> begin r := r + 1; end;

rule "wrap" r = 5 ==> begin r := 3; o := r; end;

ruleset v: boolean do
  rule "flip" !flag ==> begin flag := v; end;
end;

rule "down" s > -2 & o != NONE ==> begin s := s - 1; end;

invariant "s_in_range" s >= -2 & s <= 2;
cover "o_set_low" o = 3 & s = -2;
