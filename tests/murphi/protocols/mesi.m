-- MESI: a snooping cache-coherence protocol on an atomic bus.
--
-- NCACHES caches share one memory line. A cache's line is Modified,
-- Exclusive, Shared or Invalid. Every bus transaction is atomic: a read miss
-- (BusRd) fetches the line, from the cache that holds it Modified or
-- Exclusive (which drops to Shared) or else from memory, and the reader
-- takes it Exclusive when no other cache holds it, Shared otherwise; a write
-- miss or an upgrade (BusRdX) invalidates every other copy; a Modified
-- line is written back on eviction. A processor may write any of NDATA
-- values to a line it holds Modified or Exclusive (Exclusive becomes
-- Modified silently); `latest` remembers the last value written, so that
-- the invariants can say every valid copy, and memory when no copy is
-- dirty, holds it.
--
-- Written for mcgen's Murphi front end and checked against Rumur: its
-- states and rules fired are the tests' (tests/murphi/rumur-counts.txt).
-- NCACHES and NDATA grow it: 3 and 2 are the test's size, 4 and 3 the
-- benchmark's (bench/murphi.sh).

const
  NCACHES: 3;
  NDATA: 2;

type
  Cache: scalarset(NCACHES);
  Data: scalarset(NDATA);
  LineState: enum { M, E, S, I };
  Line: record
    state: LineState;
    data: Data;
  end;

var
  line: array [Cache] of Line;
  memory: Data;
  latest: Data;

-- The number of caches other than c that hold a valid copy.
function others_valid(c: Cache): 0 .. NCACHES;
var n: 0 .. NCACHES;
begin
  n := 0;
  for o: Cache do
    if o != c & line[o].state != I then
      n := n + 1;
    end;
  end;
  return n;
end;

-- Invalidates every copy but c's, writing a Modified one back first.
procedure invalidate_others(c: Cache);
begin
  for o: Cache do
    if o != c then
      if line[o].state = M then
        memory := line[o].data;
      end;
      line[o].state := I;
      undefine line[o].data;
    end;
  end;
end;

ruleset d: Data do
  startstate "init"
  begin
    for c: Cache do
      line[c].state := I;
      undefine line[c].data;
    end;
    memory := d;
    latest := d;
  end;
end;

ruleset c: Cache do

  rule "read miss" line[c].state = I ==>
  var supplier_found: boolean;
  begin
    supplier_found := false;
    for o: Cache do
      if o != c & (line[o].state = M | line[o].state = E) then
        if line[o].state = M then
          memory := line[o].data;  -- written back as it is supplied
        end;
        line[c].data := line[o].data;
        line[o].state := S;
        supplier_found := true;
      end;
    end;
    if !supplier_found then
      line[c].data := memory;
    end;
    if others_valid(c) = 0 then
      line[c].state := E;
    else
      line[c].state := S;
    end;
  end;

  rule "write miss" line[c].state = I ==>
  begin
    for o: Cache do
      if o != c & line[o].state = M then
        line[c].data := line[o].data;
      end;
    end;
    if isundefined(line[c].data) then
      line[c].data := memory;
    end;
    invalidate_others(c);
    line[c].state := M;
  end;

  rule "upgrade" line[c].state = S ==>
  begin
    invalidate_others(c);
    line[c].state := M;
  end;

  ruleset d: Data do
    rule "write" line[c].state = M | line[c].state = E ==>
    begin
      line[c].state := M;
      line[c].data := d;
      latest := d;
    end;
  end;

  rule "evict" line[c].state != I ==>
  begin
    if line[c].state = M then
      memory := line[c].data;
    end;
    line[c].state := I;
    undefine line[c].data;
  end;

end;

invariant "single writer"
  forall c: Cache do forall o: Cache do
    c != o & (line[c].state = M | line[c].state = E) -> line[o].state = I
  end end;

invariant "valid copies hold the latest value"
  forall c: Cache do
    line[c].state != I -> line[c].data = latest
  end;

invariant "memory is up to date unless a copy is dirty"
  (forall c: Cache do line[c].state != M end) -> memory = latest;

invariant "invalid lines hold no data"
  forall c: Cache do line[c].state = I -> isundefined(line[c].data) end;
