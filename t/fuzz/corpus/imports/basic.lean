/- c -/
import A.B
public meta import all C
