-- Rumur twin of specs/german.mc: the same state graph, state for state.
-- RUMUR-ARGS: --symmetry-reduction off --deadlock-detection stuck --threads 1
-- RUMUR-BOUNDS: 3 6 10
-- RUMUR-SYMMETRY-ARGS: --symmetry-reduction exhaustive --deadlock-detection stuck --threads 1
-- RUMUR-VARIANT: n3-symmetry | s/^  N: 2;/  N: 3;/ | --symmetry-reduction exhaustive --deadlock-detection stuck --threads 1
--
-- Encoding: Client and Data stay scalarsets. The optionals (the Data? fields,
-- cur_ptr : Client?) hold an undefined value for none, as in the original
-- Murphi model ("undefine"): a scalarset has no spare value to stand for
-- none, and Rumur permutes defined scalarset values only. Undefined values
-- are never read (an error in Rumur): a test for none is isundefined(), and
-- every copy below copies a defined value (asserted; only the one into
-- mem_data is also a run-time check in mcgen, Data? into Data). With symmetry reduction off (RUMUR-ARGS) this is the full
-- graph; with exhaustive reduction (RUMUR-SYMMETRY-ARGS) one state per
-- symmetry class, as mcgen --symmetry on.

const
  N: 2;
  D: 2;

type
  Client: scalarset(N);
  Data: scalarset(D);
  CacheState: enum { invalid, shared, exclusive };
  Cmd: enum { empty, req_shared, req_excl, invalidate, inv_ack,
              grant_shared, grant_excl };
  Cache: record state: CacheState; data: Data; end;
  Msg: record cmd: Cmd; data: Data; end;

var
  cache: array [Client] of Cache;
  chan1: array [Client] of Msg;
  chan2: array [Client] of Msg;
  chan3: array [Client] of Msg;
  inv_set: array [Client] of boolean;
  shr_set: array [Client] of boolean;
  excl_granted: boolean;
  cur_cmd: Cmd;
  cur_ptr: Client;
  mem_data: Data;
  aux_data: Data;

ruleset d: Data do
  startstate "init"
  begin
    for i: Client do
      cache[i].state := invalid; undefine cache[i].data;
      chan1[i].cmd := empty; undefine chan1[i].data;
      chan2[i].cmd := empty; undefine chan2[i].data;
      chan3[i].cmd := empty; undefine chan3[i].data;
      inv_set[i] := false;
      shr_set[i] := false;
    end;
    excl_granted := false;
    cur_cmd := empty;
    undefine cur_ptr;
    mem_data := d;
    aux_data := d;
  end;
end;

-- clients

ruleset i: Client; d: Data do
  rule "store" cache[i].state = exclusive ==>
  begin
    cache[i].data := d;
    aux_data := d;
  end;
end;

ruleset i: Client do
  rule "send_req_shared" chan1[i].cmd = empty & cache[i].state = invalid ==>
  begin
    chan1[i].cmd := req_shared;
  end;
end;

ruleset i: Client do
  rule "send_req_excl"
    chan1[i].cmd = empty & (cache[i].state = invalid | cache[i].state = shared)
  ==>
  begin
    chan1[i].cmd := req_excl;
  end;
end;

ruleset i: Client do
  rule "send_inv_ack" chan2[i].cmd = invalidate & chan3[i].cmd = empty ==>
  begin
    chan2[i].cmd := empty;
    chan3[i].cmd := inv_ack;
    if cache[i].state = exclusive then
      assert !isundefined(cache[i].data) "exclusive copy without data";
      chan3[i].data := cache[i].data;
    end;
    cache[i].state := invalid;
    undefine cache[i].data;
  end;
end;

ruleset i: Client do
  rule "recv_grant_shared" chan2[i].cmd = grant_shared ==>
  begin
    cache[i].state := shared;
    assert !isundefined(chan2[i].data) "grant without data";
    cache[i].data := chan2[i].data;
    chan2[i].cmd := empty;
    undefine chan2[i].data;
  end;
end;

ruleset i: Client do
  rule "recv_grant_excl" chan2[i].cmd = grant_excl ==>
  begin
    cache[i].state := exclusive;
    assert !isundefined(chan2[i].data) "grant without data";
    cache[i].data := chan2[i].data;
    chan2[i].cmd := empty;
    undefine chan2[i].data;
  end;
end;

-- home

ruleset i: Client do
  rule "recv_req_shared" cur_cmd = empty & chan1[i].cmd = req_shared ==>
  begin
    cur_cmd := req_shared;
    cur_ptr := i;
    chan1[i].cmd := empty;
    for j: Client do inv_set[j] := shr_set[j]; end;
  end;
end;

ruleset i: Client do
  rule "recv_req_excl" cur_cmd = empty & chan1[i].cmd = req_excl ==>
  begin
    cur_cmd := req_excl;
    cur_ptr := i;
    chan1[i].cmd := empty;
    for j: Client do inv_set[j] := shr_set[j]; end;
  end;
end;

ruleset i: Client do
  rule "send_inv"
    chan2[i].cmd = empty & inv_set[i] &
    (cur_cmd = req_excl | (cur_cmd = req_shared & excl_granted))
  ==>
  begin
    chan2[i].cmd := invalidate;
    inv_set[i] := false;
  end;
end;

ruleset i: Client do
  rule "recv_inv_ack" chan3[i].cmd = inv_ack & cur_cmd != empty ==>
  begin
    chan3[i].cmd := empty;
    shr_set[i] := false;
    if excl_granted then
      excl_granted := false;
      assert !isundefined(chan3[i].data) "mem_data = none: run-time error in mcgen";
      mem_data := chan3[i].data;
      undefine chan3[i].data;
    end;
  end;
end;

ruleset i: Client do
  rule "send_grant_shared"
    cur_cmd = req_shared & !isundefined(cur_ptr) & cur_ptr = i & chan2[i].cmd = empty & !excl_granted
  ==>
  begin
    chan2[i].cmd := grant_shared;
    chan2[i].data := mem_data;
    shr_set[i] := true;
    cur_cmd := empty;
    undefine cur_ptr;
  end;
end;

ruleset i: Client do
  rule "send_grant_excl"
    cur_cmd = req_excl & !isundefined(cur_ptr) & cur_ptr = i & chan2[i].cmd = empty & !excl_granted &
    (forall j: Client do !shr_set[j] endforall)
  ==>
  begin
    chan2[i].cmd := grant_excl;
    chan2[i].data := mem_data;
    shr_set[i] := true;
    excl_granted := true;
    cur_cmd := empty;
    undefine cur_ptr;
  end;
end;

-- properties

invariant "ctrl_prop"
  forall i: Client do forall j: Client do
    i != j ->
      ((cache[i].state = exclusive -> cache[j].state = invalid) &
       (cache[i].state = shared -> (cache[j].state = invalid | cache[j].state = shared)))
  endforall endforall;

invariant "data_prop"
  (!excl_granted -> mem_data = aux_data) &
  (forall i: Client do cache[i].state != invalid -> (!isundefined(cache[i].data) & cache[i].data = aux_data) endforall);

cover "written_back"
  exists i: Client do chan3[i].cmd = inv_ack & !isundefined(chan3[i].data) endexists;
cover "all_shared" forall i: Client do cache[i].state = shared endforall;
