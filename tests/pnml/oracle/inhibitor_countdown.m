-- Rumur twin of tests/pnml/nets/inhibitor_countdown.pnml: the same
-- reachability graph. dec: q -> ; t: p -> r, inhibited while q >= 2.
-- RUMUR-ARGS: --symmetry-reduction off --deadlock-detection off --threads 1

var
  q, p, r: 0..255;

startstate "init"
begin
  q := 2; p := 1; r := 0;
end;

rule "dec" q >= 1 ==> begin q := q - 1; end;
rule "t" p >= 1 & q < 2 ==> begin p := p - 1; r := r + 1; end;
