import A
important := 1
