#ifndef SC_NAMEINDEX_H
#define SC_NAMEINDEX_H
/* Items found by name: an open-addressing table (FNV-1a, linear probing)
 * of indices into the caller's own array, whose items each hold their
 * name as a string member.  The table never holds the names; the caller
 * says where they are (SC_NAMED) at each call, since its array moves as
 * it grows. */
#include <stddef.h>

struct sc_name_index {
	size_t *slots; /* item index + 1; 0 empty */
	size_t nslots; /* 0, or a power of two */
};

/* N items of TYPE at ITEMS, each named by its MEMBER (a char *). */
struct sc_named {
	const void *items;
	size_t stride, offset, n;
};
#define SC_NAMED(items, n, type, member) \
	((struct sc_named){(items), sizeof(type), offsetof(type, member), (n)})

/* Room for WANT items at most half full: the table grows (doubling, from
 * 16) and the items of IT are hashed into it again. */
void sc_name_index_fit(struct sc_name_index *x, size_t want, struct sc_named it);
/* NAME's slot: *slot is its item's index + 1, or 0 when no item has the
 * name, and then the slot is where that index + 1 goes.  The table must
 * have room (sc_name_index_fit). */
size_t *sc_name_index_slot(const struct sc_name_index *x, const char *name, struct sc_named it);
void sc_name_index_free(struct sc_name_index *x);

#endif
