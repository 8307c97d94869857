module
prelude
import A.«B c»
