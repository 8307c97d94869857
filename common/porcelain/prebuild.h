#ifndef SC_PORCELAIN_PREBUILD_H
#define SC_PORCELAIN_PREBUILD_H
#include "contract/sample.h"
#include "porcelain/measure.h"
#include "porcelain/order.h"

/* The side's prebuild, over its layers (porcelain/order.h): the counters
 * of every layer's `lake build` summed into the one sample
 * "<side>:@prebuild", recorded once the last layer is built; the first
 * failure, when one fails, is that sample instead. */
struct sc_prebuilt {
	int side;
	const struct sc_order *order;
	double used;       /* wall seconds of the prebuild timeout spent */
	struct sc_sample sum;
	int have;          /* sum holds a sample */
	char failed[32];   /* the raw name of the layer that failed ("prebuild-2"), or "" */
};

/* What one layer of the prebuild came to. */
enum sc_prebuild_outcome {
	SC_PREBUILD_FAILED = 0, /* or not run: a full disk, no import order read */
	SC_PREBUILD_BUILT,
	SC_PREBUILD_TIMED_OUT,
};

/* One layer of PB's side.  `+Mod:deps` builds each selected module's
 * import cone but not the module (Build/Facets.lean); layer by layer, so
 * that every selected module in a cone has had its own sample first
 * (Documentation/measurement.txt "Import order").  The first layer's build
 * is the side's prebuild step (numbered by the caller); each later one is
 * a step of its own, and they share the prebuild's timeout.  PB, with its
 * side and order set and zeroed otherwise before the first layer, carries
 * the side's prebuild sample across layers; nothing is recorded here,
 * whatever the layer comes to: sc_prebuild_record records PB once. */
enum sc_prebuild_outcome sc_prebuild_layer(const struct sc_measure *m, struct sc_prebuilt *pb,
                                           int layer);
/* The side's prebuild sample, once its last layer is done, recorded. */
void sc_prebuild_record(const struct sc_recorder *rec, struct sc_prebuilt *pb);

#endif
