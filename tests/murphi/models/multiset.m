-- expect_states: 6
-- expect_transitions: 15
--
-- CMurphi's multisets (Rumur has none, so the counts are a hand count): m
-- holds at most two of {a, b}, order not mattering: {}, {a}, {b}, {a,a},
-- {a,b}, {b,b}, 6 states. "add" fires for each value from the 3 states of
-- fewer than two elements: 6. "take" fires once per distinct element (mcgen
-- binds choose's index to each distinct element, where CMurphi binds each
-- occupied slot): 1 + 1 + 1 + 2 + 1 = 6. "drop every a" fires in the 3
-- states holding an a. 15 transitions.
type
  E: enum { a, b };
var
  m: multiset [2] of E;

startstate begin
end;

ruleset v: E do
  rule "add" multisetcount(i: m; true) < 2 ==>
  begin
    multisetadd(v, m);
  end;
end;

choose i: m do
  rule "take" begin
    multisetremove(i, m);
  end;
end;

rule "drop every a" multisetcount(i: m; m[i] = a) > 0 ==>
begin
  multisetremovepred(i: m; m[i] = a);
end;

invariant "at most two" multisetcount(i: m; true) <= 2;
