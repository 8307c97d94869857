/* Fuzz the sandbox status line parser: never crash; an accepted line is in
 * range and survives a round trip unchanged. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "contract/status.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_status st, again;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	if (sc_status_from_json((const char *)data, size, &st, &err) == 0) {
		if (st.exit_code < -1 || st.exit_code > 255 || st.signal < 0 || st.signal > 64 || st.wall_s < 0)
			abort();
		if (isfinite(st.wall_s) && st.wall_s < 1e12) {
			sc_status_to_json(&st, &out);
			sb_reset(&err);
			if (sc_status_from_json(out.buf, out.len, &again, &err) != 0 ||
			    again.exit_code != st.exit_code || again.signal != st.signal ||
			    again.timed_out != st.timed_out || fabs(again.wall_s - st.wall_s) > 0.0006)
				abort();
		}
	}
	sb_release(&err);
	sb_release(&out);
	return 0;
}
