-- A DASH-like directory protocol: MSI caches, a blocking home directory
-- that NAKs requests while it is busy, three-hop forwarding to the owner.
--
-- NPROCS caches and a home node share one memory line. Each cache talks to
-- home over four one-slot channels: req (cache to home: GetS, GetM, PutM),
-- resp (home to cache: Data, DataX, PutAck, Nak), fwd (home to cache:
-- FwdGetS, FwdGetM, Inv) and ack (cache to home: WB with the owner's data,
-- InvAck). A request home cannot serve at once makes it busy: it forwards
-- the request to the owner, or invalidates the sharers and counts their
-- acknowledgements, and NAKs every other request until the transaction
-- ends (the requester then retries). A cache in S may drop its copy
-- silently; one in M writes it back with PutM, and if the line was
-- forwarded meanwhile, home acknowledges the stale PutM without taking its
-- data. A cache holding the line in M may write any of NDATA values;
-- `latest` is the last value written, for the data invariants.
--
-- Written for mcgen's Murphi front end and checked against Rumur: its
-- states and rules fired are the tests' (tests/murphi/rumur-counts.txt).
-- NPROCS = 2 is the test's size, 3 the benchmark's (bench/murphi.sh).

const
  NPROCS: 2;
  NDATA: 2;

type
  Proc: scalarset(NPROCS);
  Data: scalarset(NDATA);
  CacheState: enum { I, S, M, IS, IM, SM, MI };
  DirState: enum { DI, DS, DM, BUSY };
  ReqKind: enum { NoReq, GetS, GetM, PutM };
  RespKind: enum { NoResp, DataS, DataX, PutAck, Nak };
  FwdKind: enum { NoFwd, FwdGetS, FwdGetM, Inv };
  AckKind: enum { NoAck, WB, InvAck };

  Cache: record
    state: CacheState;
    data: Data;
  end;

  Msg: record
    req: ReqKind;
    resp: RespKind;
    fwd: FwdKind;
    ack: AckKind;
    req_data: Data;     -- PutM's data
    resp_data: Data;    -- DataS's and DataX's
    ack_data: Data;     -- WB's
  end;

var
  cache: array [Proc] of Cache;
  chan: array [Proc] of Msg;
  dir: DirState;
  sharer: array [Proc] of boolean;
  owner: Proc;
  requester: Proc;      -- the transaction home is busy with
  pending: ReqKind;     -- its request
  acks: 0 .. NPROCS;    -- invalidation acknowledgements still to come
  memory: Data;
  latest: Data;

ruleset d: Data do
  startstate "init"
  begin
    for p: Proc do
      cache[p].state := I;
      chan[p].req := NoReq;
      chan[p].resp := NoResp;
      chan[p].fwd := NoFwd;
      chan[p].ack := NoAck;
      sharer[p] := false;
    end;
    dir := DI;
    pending := NoReq;
    acks := 0;
    memory := d;
    latest := d;
  end;
end;

-- Caches.

ruleset p: Proc do

  rule "load miss" cache[p].state = I & chan[p].req = NoReq ==>
  begin
    chan[p].req := GetS;
    cache[p].state := IS;
  end;

  rule "store miss" cache[p].state = I & chan[p].req = NoReq ==>
  begin
    chan[p].req := GetM;
    cache[p].state := IM;
  end;

  rule "upgrade" cache[p].state = S & chan[p].req = NoReq ==>
  begin
    chan[p].req := GetM;
    cache[p].state := SM;
  end;

  ruleset d: Data do
    rule "store" cache[p].state = M ==>
    begin
      cache[p].data := d;
      latest := d;
    end;
  end;

  rule "drop shared copy" cache[p].state = S ==>
  begin
    cache[p].state := I;
    undefine cache[p].data;
  end;

  rule "write back" cache[p].state = M & chan[p].req = NoReq ==>
  begin
    chan[p].req := PutM;
    chan[p].req_data := cache[p].data;
    cache[p].state := MI;
  end;

  rule "receive response" chan[p].resp != NoResp ==>
  begin
    switch chan[p].resp
    case DataS:
      assert cache[p].state = IS "data for a load that was not asked for";
      cache[p].state := S;
      cache[p].data := chan[p].resp_data;
    case DataX:
      assert cache[p].state = IM | cache[p].state = SM "exclusive data not asked for";
      cache[p].state := M;
      cache[p].data := chan[p].resp_data;
    case PutAck:
      assert cache[p].state = MI "a write-back acknowledged twice";
      cache[p].state := I;
      undefine cache[p].data;
    case Nak:
      switch cache[p].state
      case IS, IM: cache[p].state := I;
      case SM: cache[p].state := S;
      else error "a NAK for no request";
      end;
    end;
    chan[p].resp := NoResp;
    undefine chan[p].resp_data;
  end;

  -- A forward waits for the data of the cache's own request: an
  -- invalidation for the shared data in flight, a FwdGet for the exclusive.
  rule "receive forward"
    chan[p].fwd != NoFwd & chan[p].ack = NoAck &
    (chan[p].fwd = Inv ? cache[p].state != IS : cache[p].state = M | cache[p].state = MI)
  ==>
  begin
    if chan[p].fwd = Inv then
      switch cache[p].state
      case S: cache[p].state := I; undefine cache[p].data;
      case SM: cache[p].state := IM; undefine cache[p].data;
      case M: error "an invalidation for an owned line";
      -- MI: a stale sharer entry (the line was forwarded while it was being
      -- written back): nothing to invalidate
      end;
      chan[p].ack := InvAck;
    else
      assert cache[p].state = M | cache[p].state = MI "a forward to a cache that does not own the line";
      chan[p].ack := WB;
      chan[p].ack_data := cache[p].data;
      if cache[p].state = M then
        if chan[p].fwd = FwdGetS then
          cache[p].state := S;
        else
          cache[p].state := I;
          undefine cache[p].data;
        end;
      end;
    end;
    chan[p].fwd := NoFwd;
  end;

end;

-- Home.

ruleset p: Proc do

  rule "home: request while busy" dir = BUSY & chan[p].req != NoReq & chan[p].req != PutM &
                                  chan[p].resp = NoResp ==>
  begin
    chan[p].req := NoReq;
    chan[p].resp := Nak;
  end;

  rule "home: GetS" dir != BUSY & chan[p].req = GetS & chan[p].resp = NoResp ==>
  begin
    chan[p].req := NoReq;
    if dir = DM then
      chan[owner].fwd := FwdGetS;
      requester := p;
      pending := GetS;
      dir := BUSY;
    else
      chan[p].resp := DataS;
      chan[p].resp_data := memory;
      sharer[p] := true;
      dir := DS;
    end;
  end;

  rule "home: GetM" dir != BUSY & chan[p].req = GetM & chan[p].resp = NoResp ==>
  begin
    chan[p].req := NoReq;
    switch dir
    case DI:
      chan[p].resp := DataX;
      chan[p].resp_data := memory;
      owner := p;
      dir := DM;
    case DS:
      for q: Proc do
        if q != p & sharer[q] then
          chan[q].fwd := Inv;
          acks := acks + 1;
        end;
        sharer[q] := false;
      end;
      requester := p;
      pending := GetM;
      dir := BUSY;
    case DM:
      chan[owner].fwd := FwdGetM;
      requester := p;
      pending := GetM;
      dir := BUSY;
    end;
  end;

  rule "home: PutM" chan[p].req = PutM & chan[p].resp = NoResp ==>
  begin
    chan[p].req := NoReq;
    if dir = DM & owner = p then
      memory := chan[p].req_data;
      undefine owner;
      dir := DI;
    end;
    undefine chan[p].req_data;
    chan[p].resp := PutAck;
  end;

  rule "home: acknowledgement" chan[p].ack != NoAck & dir = BUSY ==>
  begin
    if chan[p].ack = InvAck then
      acks := acks - 1;
    else
      memory := chan[p].ack_data;
      if pending = GetS then
        sharer[owner] := true;
      end;
      undefine owner;
    end;
    chan[p].ack := NoAck;
    undefine chan[p].ack_data;
  end;

end;

rule "home: transaction ends" dir = BUSY & acks = 0 & isundefined(owner) &
                              chan[requester].resp = NoResp ==>
begin
  if pending = GetS then
    chan[requester].resp := DataS;
    sharer[requester] := true;
    dir := DS;
  else
    chan[requester].resp := DataX;
    owner := requester;
    dir := DM;
  end;
  chan[requester].resp_data := memory;
  pending := NoReq;
  undefine requester;
end;

-- Properties.

invariant "single writer"
  forall p: Proc do forall q: Proc do
    p != q & cache[p].state = M -> cache[q].state != M & cache[q].state != S
  end end;

invariant "valid copies hold the latest value"
  forall p: Proc do
    (cache[p].state = S | cache[p].state = M | cache[p].state = SM) -> cache[p].data = latest
  end;

invariant "memory is up to date when no one owns the line"
  dir = DI -> memory = latest;

invariant "an owner is recorded"
  dir = DM -> !isundefined(owner) & (cache[owner].state = M | cache[owner].state = MI |
                                     chan[owner].resp = DataX);

cover "every cache shared"
  forall p: Proc do cache[p].state = S end;
