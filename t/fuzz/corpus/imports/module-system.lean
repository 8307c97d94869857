module

public import A
public meta import all B.C
import all D

public section
