-- Rumur twin of specs/semaphore_net.mc: the same state graph, state for state.
-- RUMUR-ARGS: --symmetry-reduction off --deadlock-detection stuck --threads 1
-- RUMUR-SYMMETRY-ARGS: --symmetry-reduction exhaustive --deadlock-detection stuck --threads 1
--
-- Encoding: the multiset<Msg, K> is kept canonically as a count per distinct
-- message: n_req[c] for {req, c}, n_grant[c] for {grant, c}, n_rel for
-- {rel, none} (no other message is ever sent). An action over `m in net`
-- becomes a rule per distinct message kind, enabled when that message's
-- count is positive, so it fires once per distinct element present, as
-- mcgen binds it. The total stays within K (checked by an invariant, since
-- an add to a full multiset is a run-time error in mcgen).
-- Client, a scalarset in the spec, is one here too: with symmetry reduction off
-- Rumur treats it as a range (the full graph, RUMUR-ARGS); with exhaustive
-- symmetry reduction (RUMUR-SYMMETRY-ARGS) Rumur keeps exactly one state per
-- symmetry class, as mcgen does with --symmetry on, so those counts are the
-- oracle for mcgen's reduced search.

const
  N: 4;
  SLOTS: 2;
  K: N + SLOTS;

type
  Client: scalarset(N);
  Phase: enum { idle, waiting, holding };

var
  phase: array [Client] of Phase;
  permits: 0..SLOTS;
  n_req: array [Client] of 0..K;
  n_grant: array [Client] of 0..K;
  n_rel: 0..K;

startstate "init"
begin
  for c: Client do phase[c] := idle; n_req[c] := 0; n_grant[c] := 0; end;
  n_rel := 0;
  permits := SLOTS;
end;

ruleset c: Client do
  rule "request" phase[c] = idle ==>
  begin
    n_req[c] := n_req[c] + 1;
    phase[c] := waiting;
  end;
end;

-- granted(m in net) for m = {grant, c}
ruleset c: Client do
  rule "granted" n_grant[c] > 0 ==>
  begin
    n_grant[c] := n_grant[c] - 1;
    phase[c] := holding;
  end;
end;

ruleset c: Client do
  rule "release" phase[c] = holding ==>
  begin
    phase[c] := idle;
    n_rel := n_rel + 1;
  end;
end;

-- serve(m in net) for m = {req, c}
ruleset c: Client do
  rule "serve" n_req[c] > 0 & permits > 0 ==>
  begin
    n_req[c] := n_req[c] - 1;
    permits := permits - 1;
    n_grant[c] := n_grant[c] + 1;
  end;
end;

-- returned(m in net) for m = {rel, none}
rule "returned" n_rel > 0 ==>
begin
  n_rel := n_rel - 1;
  permits := permits + 1;
end;

function holders(): 0..N;
var h: 0..N;
begin
  h := 0;
  for c: Client do if phase[c] = holding then h := h + 1; end; end;
  return h;
end;

function net_size(): 0..3*K;
var s: 0..3*K;
begin
  s := n_rel;
  for c: Client do s := s + n_req[c] + n_grant[c]; end;
  return s;
end;

function grants(): 0..N*K;
var s: 0..N*K;
begin
  s := 0;
  for c: Client do s := s + n_grant[c]; end;
  return s;
end;

invariant "net_within_capacity" net_size() <= K;
invariant "at_most_slots" holders() <= SLOTS;
invariant "conservation" permits + grants() + holders() + n_rel = SLOTS;
invariant "grant_to_waiter"
  forall c: Client do n_grant[c] > 0 -> phase[c] = waiting endforall;

cover "two_returns_in_flight" n_rel = 2;
cover "all_waiting" forall c: Client do phase[c] = waiting endforall;
