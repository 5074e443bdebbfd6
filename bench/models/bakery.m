-- Benchmark copy of tests/oracle/bakery.m (Rumur twin of specs/bakery.mc)
-- at N = 5, MAX = 2, without the invariant "no_deadlock": mcgen runs with
-- --no-deadlock. Same state graph as bench/models/bakery.mc. mcgen's
-- `constraint tickets_bounded` is the conjunct bounded() in every guard.
-- BENCH-RUMUR-ARGS: --deadlock-detection off

const
  N: 5;
  MAX: 2;

type
  Proc: 0..N-1;
  Ticket: 0..MAX+1;
  Pc: enum { idle, doorway, waiting, critical };

var
  pc: array [Proc] of Pc;
  choosing: array [Proc] of boolean;
  number: array [Proc] of Ticket;
  j: array [Proc] of Proc;
  seen_max: array [Proc] of Ticket;

function before(a: Proc; b: Proc): boolean;
begin
  return number[a] < number[b] | (number[a] = number[b] & a < b);
end;

function bounded(): boolean;
begin
  return forall p: Proc do number[p] <= MAX endforall;
end;

startstate "init"
begin
  for p: Proc do
    pc[p] := idle; choosing[p] := false; number[p] := 0; j[p] := 0; seen_max[p] := 0;
  end;
end;

ruleset p: Proc do
  rule "enter_doorway" bounded() & pc[p] = idle ==>
  begin
    choosing[p] := true;
    pc[p] := doorway;
  end;
end;

ruleset p: Proc do
  rule "read_ticket" bounded() & pc[p] = doorway ==>
  var k: Proc;
  begin
    k := j[p];
    if number[k] > seen_max[p] then
      seen_max[p] := number[k];
    end;
    if k < N - 1 then
      j[p] := k + 1;
    else
      number[p] := seen_max[p] + 1;
      choosing[p] := false;
      pc[p] := waiting;
      j[p] := 0;
      seen_max[p] := 0;
    end;
  end;
end;

function may_pass(p: Proc): boolean;
begin
  return pc[p] = waiting & !choosing[j[p]] &
         (j[p] = p | number[j[p]] = 0 | before(p, j[p]));
end;

ruleset p: Proc do
  rule "check" bounded() & may_pass(p) ==>
  begin
    if j[p] < N - 1 then
      j[p] := j[p] + 1;
    else
      pc[p] := critical;
      j[p] := 0;
    end;
  end;
end;

ruleset p: Proc do
  rule "leave" bounded() & pc[p] = critical ==>
  begin
    number[p] := 0;
    pc[p] := idle;
  end;
end;

function in_cs(): 0..N;
var c: 0..N;
begin
  c := 0;
  for p: Proc do if pc[p] = critical then c := c + 1; end; end;
  return c;
end;

invariant "mutex" in_cs() <= 1;
invariant "first_served"
  forall p: Proc do forall q: Proc do
    (pc[p] = critical & q != p & number[q] != 0 & !choosing[q]) -> before(p, q)
  endforall endforall;

cover "ticket_max" exists p: Proc do number[p] = MAX endexists;
cover "cut_off" exists p: Proc do number[p] = MAX + 1 endexists;
