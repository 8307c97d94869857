/- a --/ import B -/ import A
