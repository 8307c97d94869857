#include "porcelain/state.h"
#include "porcelain/stage.h"

void sc_run_stop_if_interrupted(const struct sc_run *r)
{
	sc_stage_stop_if_interrupted(r->ws ? r->ws : r->o.workspace);
}
