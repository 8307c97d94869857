/* Fuzz the GNU time file parser: never crash, and never hand out a number
 * outside the documented bounds. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/strbuf.h"
#include "contract/timefile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_timefile tf;
	struct strbuf err = STRBUF_INIT;
	if (sc_timefile_parse((const char *)data, size, &tf, &err) == 0) {
		if (!(isfinite(tf.user_s) && tf.user_s >= 0 && tf.user_s <= SC_TIME_MAX_SECONDS &&
		      isfinite(tf.sys_s) && tf.sys_s >= 0 && tf.sys_s <= SC_TIME_MAX_SECONDS &&
		      isfinite(tf.elapsed_s) && tf.elapsed_s >= 0 && tf.elapsed_s <= SC_TIME_MAX_SECONDS &&
		      tf.max_rss_kib >= 0 && tf.max_rss_kib <= SC_TIME_MAX_RSS_KIB && tf.exit_code >= 0 &&
		      tf.exit_code <= 255 && tf.signal >= 0 && tf.signal <= 64 && err.len == 0))
			abort();
	} else if (err.len == 0) {
		abort(); /* a rejection always says why */
	}
	sb_release(&err);
	return 0;
}
