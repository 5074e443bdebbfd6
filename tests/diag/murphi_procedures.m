-- A procedure's body is checked where it is declared, called or not, and
-- each of its errors is reported once; a call of a procedure with errors
-- adds none.
-- EXPECT-ERROR: 8:32: unknown name 'nosuch'
-- EXPECT-ERROR: 9:28: recursive procedures: not supported by mcgen's Murphi front end
var x: 0 .. 3;

procedure unused(); begin x := nosuch; end;
procedure forever(); begin forever(); end;

startstate begin x := 0; end;
rule "one" begin forever(); end;
rule "two" begin forever(); x := 1; end;
