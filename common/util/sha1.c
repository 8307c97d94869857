/* FIPS 180-4 SHA-1; small and dependency-free (see sha1.h for its scope). */
#include "util/sha1.h"

#include <string.h>

#define ROL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))

static void compress(uint32_t h[5], const unsigned char *p)
{
	uint32_t w[80];
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
	for (int i = 16; i < 80; i++)
		w[i] = ROL(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
	for (int i = 0; i < 80; i++) {
		uint32_t f, k;
		if (i < 20) {
			f = (b & c) | (~b & d);
			k = 0x5a827999;
		} else if (i < 40) {
			f = b ^ c ^ d;
			k = 0x6ed9eba1;
		} else if (i < 60) {
			f = (b & c) | (b & d) | (c & d);
			k = 0x8f1bbcdc;
		} else {
			f = b ^ c ^ d;
			k = 0xca62c1d6;
		}
		uint32_t t = ROL(a, 5) + f + e + k + w[i];
		e = d;
		d = c;
		c = ROL(b, 30);
		b = a;
		a = t;
	}
	h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e;
}

void sc_sha1_init(struct sc_sha1 *c)
{
	static const uint32_t iv[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
	memcpy(c->h, iv, sizeof iv);
	c->total = 0;
	c->fill = 0;
}

void sc_sha1_update(struct sc_sha1 *c, const void *data, size_t len)
{
	const unsigned char *p = data;
	c->total += len;
	while (len) {
		if (c->fill == 0 && len >= 64) {
			compress(c->h, p);
			p += 64;
			len -= 64;
			continue;
		}
		size_t take = 64 - c->fill < len ? 64 - c->fill : len;
		memcpy(c->block + c->fill, p, take);
		c->fill += take;
		p += take;
		len -= take;
		if (c->fill == 64) {
			compress(c->h, c->block);
			c->fill = 0;
		}
	}
}

void sc_sha1_final(struct sc_sha1 *c, unsigned char out[20])
{
	uint64_t bits = c->total * 8;
	unsigned char pad[72] = {0x80};
	size_t padlen = (c->fill < 56 ? 56 : 120) - c->fill;
	sc_sha1_update(c, pad, padlen);
	unsigned char len[8];
	for (int i = 0; i < 8; i++)
		len[i] = (unsigned char)(bits >> (56 - 8 * i));
	sc_sha1_update(c, len, 8);
	for (int i = 0; i < 5; i++) {
		out[4 * i] = (unsigned char)(c->h[i] >> 24);
		out[4 * i + 1] = (unsigned char)(c->h[i] >> 16);
		out[4 * i + 2] = (unsigned char)(c->h[i] >> 8);
		out[4 * i + 3] = (unsigned char)c->h[i];
	}
}
