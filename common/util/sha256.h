#ifndef SC_SHA256_H
#define SC_SHA256_H
#include <stddef.h>
#include <stdint.h>

struct sc_sha256 {
	uint32_t h[8];
	uint64_t total;
	unsigned char block[64];
	size_t fill;
};

void sc_sha256_init(struct sc_sha256 *c);
void sc_sha256_update(struct sc_sha256 *c, const void *data, size_t len);
void sc_sha256_final(struct sc_sha256 *c, unsigned char out[32]);
/* Hex digest (65 bytes with NUL) of a buffer. */
void sc_sha256_hex(const void *data, size_t len, char out[65]);
/* Hex digest of a file's bytes; returns 0 or -1 (errno). */
int sc_sha256_file_hex(const char *path, char out[65]);
void sc_hex(const unsigned char *raw, size_t n, char *out);

#endif
