/* libFuzzer: sc_sample_from_json on arbitrary bytes.  An accepted sample
 * must satisfy the model's promises (ok => no error, error => known reason)
 * and survive a round trip through sc_sample_to_json unchanged. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "contract/sample.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_sample s, again;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT, err2 = STRBUF_INIT;
	if (sc_sample_from_json((const char *)data, size, &s, &err) == 0) {
		if (s.ok ? s.error != SC_SAMPLE_OK
		         : (s.error == SC_SAMPLE_OK || !*sc_sample_error_name(s.error)))
			abort();
		if (s.ok && (s.cpu_s < 0 || s.wall_s < 0 || s.max_rss_kib < 0))
			abort();
		sc_sample_to_json(&s, &out);
		if (sc_sample_from_json(out.buf, out.len, &again, &err2) < 0)
			abort();
		if (strcmp(s.sample, again.sample) != 0 || strcmp(s.run_id, again.run_id) != 0 ||
		    s.ok != again.ok)
			abort();
		sc_sample_free(&again);
		sc_sample_free(&s);
	} else if (err.len == 0) {
		abort(); /* a rejection always says why */
	}
	sb_release(&err);
	sb_release(&err2);
	sb_release(&out);
	return 0;
}
