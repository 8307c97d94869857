#ifndef SC_SHA1_H
#define SC_SHA1_H
/* SHA-1, only to compute Git object IDs of SHA-1 repositories (the
 * profiler's embedded source tree ID); never used for anything that needs
 * collision resistance. */
#include <stddef.h>
#include <stdint.h>

struct sc_sha1 {
	uint32_t h[5];
	uint64_t total;
	unsigned char block[64];
	size_t fill;
};

void sc_sha1_init(struct sc_sha1 *c);
void sc_sha1_update(struct sc_sha1 *c, const void *data, size_t len);
void sc_sha1_final(struct sc_sha1 *c, unsigned char out[20]);

#endif
