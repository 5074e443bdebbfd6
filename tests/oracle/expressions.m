-- Rumur twin of tests/e2e/specs/expressions.mc.
-- RUMUR-ARGS: --symmetry-reduction off --deadlock-detection stuck --threads 1
--
-- set<Color> is an array [Color] of boolean; `for c in bag` is a loop over
-- Color skipping absent members; Murphi's / and % truncate toward zero, as
-- mcgen's (C's) do.

type
  Color: enum { red, green, blue };
  Slot: 0..1;
  Val: -3..3;
  Pair: record c: Color; n: Val; end;

var
  grid: array [Slot] of array [boolean] of 0..2;
  paint: array [Color] of boolean;
  bag: array [Color] of boolean;
  last: Pair;
  prev: Pair;

function weight(c: Color): 1..3;
var w: 0..3;
begin
  w := 0;
  for d: Color do
    w := w + 1;
    if d = c then
      return w;
    end;
  end;
  return 3;
end;

function bag_len(): 0..3;
var k: 0..3;
begin
  k := 0;
  for c: Color do if bag[c] then k := k + 1; end; end;
  return k;
end;

startstate "init"
begin
  for s: Slot do for b: boolean do grid[s][b] := 0; end; end;
  for c: Color do paint[c] := false; bag[c] := false; end;
  last.c := red; last.n := 0;
  prev.c := red; prev.n := 0;
end;

ruleset c: Color do
  rule "paint_it" !paint[c] ==>
  begin
    paint[c] := true;
    bag[c] := true;
  end;
end;

ruleset c: Color do
  rule "unpaint" bag[c] & (c != blue | grid[1][true] = 2) ==>
  begin
    paint[c] := false;
    bag[c] := false;
  end;
end;

ruleset s: Slot; b: boolean do
  rule "bump" grid[s][b] < 2 & (b -> grid[s][false] > 0) ==>
  begin
    grid[s][b] := grid[s][b] + 1;
  end;
end;

ruleset s: Slot do
  rule "copy_row" grid[s][false] = 2 & grid[s][true] = 2 & grid[0] != grid[1] ==>
  begin
    grid[s] := grid[1 - s];
  end;
end;

rule "mix" bag_len() >= 2 ==>
var total: 0..9;
var k: 0..3;
var n: Val;
begin
  total := 0;
  for c: Color do if bag[c] then total := total + weight(c); end; end;
  k := 0;
  for c: Color do if bag[c] then k := k + 1; end; end;
  assert k = bag_len() "for-in visits each element once";
  n := (0 - total) / 2;
  if (0 - total) % 2 != 0 then
    n := n + 1;
  end;
  prev := last;
  if total % 3 = 0 then last.c := red;
  elsif total % 3 = 1 then last.c := green;
  else last.c := blue;
  end;
  last.n := n;
end;

rule "wipe" bag_len() = 3 & prev = last ==>
begin
  for c: Color do bag[c] := false; end;
  for c: Color do paint[c] := false; end;
end;

invariant "bag_is_paint" forall c: Color do paint[c] = bag[c] endforall;
invariant "right_assoc" bag_len() = 0 -> (paint[red] -> false);
invariant "rows_ordered" forall s: Slot do grid[s][true] > 0 -> grid[s][false] > 0 endforall;

function full0(): 0..2;
var k: 0..2;
begin
  k := 0;
  for b: boolean do if grid[0][b] = 2 then k := k + 1; end; end;
  return k;
end;

cover "truncation" last.n = 0 & last.c = red & prev.n = -2;
cover "both_full" full0() = 2 & grid[0] = grid[1];
