import«Demo».Ring
def x := 1
