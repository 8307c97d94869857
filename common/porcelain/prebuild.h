#ifndef SC_PORCELAIN_PREBUILD_H
#define SC_PORCELAIN_PREBUILD_H
#include "contract/sample.h"
#include "porcelain/order.h"
#include "porcelain/state.h"

/* The side's prebuild, over its layers (porcelain/order.h): the counters
 * of every layer's `lake build` summed into the one sample
 * "<side>:@prebuild", recorded once the last layer is built; the first
 * failure, when one fails, is that sample instead. */
struct sc_prebuilt {
	double used;       /* wall seconds of the prebuild timeout spent */
	struct sc_sample sum;
	int have;          /* sum holds a sample */
	char failed[32];   /* the raw name of the layer that failed ("prebuild-2"), or "" */
};

/* One layer of the side's prebuild: 1 built, 0 failed, -1 ran out of
 * time.  `+Mod:deps` builds each selected module's import cone but not the
 * module (Build/Facets.lean); layer by layer, so that every selected
 * module in a cone has had its own sample first (Documentation/
 * measurement.txt "Import order").  The first layer's build is the side's
 * prebuild step; the others share its timeout.  PB, zeroed before the
 * first layer, carries the side's prebuild sample across layers; nothing
 * is recorded here, whatever the layer comes to (a full disk, no import
 * order read, a failure): sc_prebuild_record records PB once. */
int sc_prebuild_layer(struct sc_run *r, int side, const struct sc_order *o, int layer,
                      struct sc_prebuilt *pb);
/* The side's prebuild sample, once its last layer is done, recorded. */
void sc_prebuild_record(struct sc_run *r, struct sc_prebuilt *pb);

#endif
