-- Rumur twin of specs/lcr.mc: the same state graph, state for state.
-- RUMUR-ARGS: --symmetry-reduction off --deadlock-detection off --threads 1
-- RUMUR-BOUNDS: 4 8
--
-- Encoding: queue<Uid, K> is a record of an array of K slots and a length;
-- pop shifts the slots down and resets the freed slot to 0, so that equal
-- queues are equal records (mcgen compares queues by contents only).
-- mcgen's `terminal done` is checked as the invariant "stuck_is_done" with
-- deadlock detection off (a state with no enabled rule must satisfy it).

const
  N: 4;
  K: 2;

type
  Node: 0..N-1;
  Uid: 0..N-1;
  Queue: record
    len: 0..K;
    slot: array [0..K-1] of Uid;
  end;

var
  started: array [Node] of boolean;
  leader: array [Node] of boolean;
  inbox: array [Node] of Queue;

function uid(i: Node): Uid;
begin
  return (3 * i + 1) % N;
end;

function next(i: Node): Node;
begin
  return (i + 1) % N;
end;

procedure push(var q: Queue; v: Uid);
begin
  assert q.len < K "push on a full queue: run-time error in mcgen";
  q.slot[q.len] := v;
  q.len := q.len + 1;
end;

function pop(var q: Queue): Uid;
var v: Uid;
begin
  assert q.len > 0 "pop of an empty queue: run-time error in mcgen";
  v := q.slot[0];
  for k: 0..K-2 do q.slot[k] := q.slot[k+1]; end;
  q.slot[K-1] := 0;
  q.len := q.len - 1;
  return v;
end;

startstate "init"
begin
  for i: Node do
    started[i] := false;
    leader[i] := false;
    inbox[i].len := 0;
    for k: 0..K-1 do inbox[i].slot[k] := 0; end;
  end;
end;

ruleset i: Node do
  rule "start" !started[i] & inbox[next(i)].len < K ==>
  begin
    started[i] := true;
    push(inbox[next(i)], uid(i));
  end;
end;

ruleset i: Node do
  rule "receive"
    inbox[i].len > 0 & (inbox[i].slot[0] <= uid(i) | inbox[next(i)].len < K)
  ==>
  var v: Uid;
  begin
    v := pop(inbox[i]);
    if v > uid(i) then
      push(inbox[next(i)], v);
    elsif v = uid(i) then
      assert v = N - 1 "only the largest id can come back round";
      leader[i] := true;
    end;
  end;
end;

function leaders(): 0..N;
var c: 0..N;
begin
  c := 0;
  for i: Node do if leader[i] then c := c + 1; end; end;
  return c;
end;

function in_flight(): 0..N*K;
var c: 0..N*K;
begin
  c := 0;
  for i: Node do c := c + inbox[i].len; end;
  return c;
end;

invariant "one_leader" leaders() <= 1;
invariant "leader_is_max" forall i: Node do leader[i] -> uid(i) = N - 1 endforall;
invariant "ids_in_flight_bounded" in_flight() <= N;

function done(): boolean;
begin
  return (forall i: Node do started[i] & inbox[i].len = 0 endforall) &
         (exists i: Node do leader[i] endexists);
end;

function enabled(): boolean;
begin
  return exists i: Node do
    (!started[i] & inbox[next(i)].len < K) |
    (inbox[i].len > 0 & (inbox[i].slot[0] <= uid(i) | inbox[next(i)].len < K))
  endexists;
end;

invariant "stuck_is_done" enabled() | done();

cover "elected" exists i: Node do leader[i] endexists;
