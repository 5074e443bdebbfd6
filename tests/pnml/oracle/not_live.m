-- Rumur twin of tests/pnml/nets/not_live.pnml: start: p0 -> p1,
-- b: p1 -> p2, c: p2 -> p1.
-- RUMUR-ARGS: --symmetry-reduction off --deadlock-detection off --threads 1

var
  p0, p1, p2: 0..255;

startstate "init"
begin
  p0 := 1; p1 := 0; p2 := 0;
end;

rule "start" p0 >= 1 ==> begin p0 := p0 - 1; p1 := p1 + 1; end;
rule "b" p1 >= 1 ==> begin p1 := p1 - 1; p2 := p2 + 1; end;
rule "c" p2 >= 1 ==> begin p2 := p2 - 1; p1 := p1 + 1; end;
