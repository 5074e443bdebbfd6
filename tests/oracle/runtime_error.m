-- Rumur twin of tests/e2e/specs/runtime_error.mc.
-- RUMUR-ARGS: --symmetry-reduction off --deadlock-detection stuck --threads 1
-- RUMUR-VIOLATION-ARGS: --symmetry-reduction off --deadlock-detection stuck --threads 1
-- RUMUR-VIOLATION-SED: s/^  BUG: false;/  BUG: true;/
--
-- This file has BUG false (mcgen -D BUG=false), for the full graph; the
-- violation run flips it to true. slot : Small? is 0..4 with 4 for none;
-- mcgen's run-time check of `sink = slot` is the assert.

const
  BUG: false;
  NONE: 4;

type
  Small: 0..3;

var
  level: Small;
  slot: 0..4;
  sink: Small;

startstate "init"
begin
  level := 0; slot := NONE; sink := 0;
end;

rule "fill" level < 2 ==> begin level := level + 1; end;

rule "set_slot" level = 3 & slot = NONE ==> begin slot := level; end;

rule "climb" level = 2 ==> begin level := 3; end;

rule "use" level >= 2 & (BUG | slot != NONE) ==>
begin
  assert slot != NONE "none used as a Small";
  sink := slot;
  level := 0;
  slot := NONE;
end;
