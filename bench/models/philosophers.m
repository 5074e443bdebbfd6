-- Benchmark copy of tests/oracle/philosophers.m (Rumur twin of
-- specs/philosophers.mc) at N = 16; only the constant differs. Same state
-- graph as bench/models/philosophers.mc with mcgen --no-deadlock.
-- BENCH-RUMUR-ARGS: --deadlock-detection off

const
  N: 16;
  NONE: N;

type
  Phil: 0..N-1;
  State: enum { thinking, hungry, eating };

var
  state: array [Phil] of State;
  fork: array [Phil] of 0..N;

function right(p: Phil): Phil;
begin
  return (p + 1) % N;
end;

startstate "init"
begin
  for p: Phil do state[p] := thinking; fork[p] := NONE; end;
end;

ruleset p: Phil do
  rule "take_left" state[p] = thinking & fork[p] = NONE ==>
  begin
    fork[p] := p;
    state[p] := hungry;
  end;
end;

ruleset p: Phil do
  rule "take_right" state[p] = hungry & fork[right(p)] = NONE ==>
  begin
    fork[right(p)] := p;
    state[p] := eating;
  end;
end;

ruleset p: Phil do
  rule "put_down" state[p] = eating ==>
  begin
    fork[p] := NONE;
    fork[right(p)] := NONE;
    state[p] := thinking;
  end;
end;

invariant "eating_holds_forks"
  forall p: Phil do state[p] = eating -> (fork[p] = p & fork[right(p)] = p) endforall;
invariant "forks_next_door"
  forall f: Phil do fork[f] = NONE | fork[f] = f | (fork[f] != NONE & right(fork[f]) = f) endforall;

function count_eating(): 0..N;
var c: 0..N;
begin
  c := 0;
  for p: Phil do if state[p] = eating then c := c + 1; end; end;
  return c;
end;

cover "two_eat" count_eating() = 2;
