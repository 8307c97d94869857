#ifndef SC_UNIT_TMP_H
#define SC_UNIT_TMP_H
/* A scratch folder for a test that needs real files, removed when the test
 * ends (CK_FORK or not): sc_unit_tmp_remove is the checked fixture's
 * teardown. */
#include <check.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static char sc_unit_tmp[64];

static inline int sc_unit_rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st, (void)flag, (void)f;
	return remove(p);
}

static inline void sc_unit_tmp_remove(void)
{
	if (sc_unit_tmp[0])
		nftw(sc_unit_tmp, sc_unit_rm_one, 8, FTW_DEPTH | FTW_PHYS);
	sc_unit_tmp[0] = '\0';
}

/* A new folder /tmp/sc-NAME-XXXXXX. */
static inline const char *sc_unit_tmp_make(const char *name)
{
	snprintf(sc_unit_tmp, sizeof sc_unit_tmp, "/tmp/sc-%s-XXXXXX", name);
	ck_assert_ptr_nonnull(mkdtemp(sc_unit_tmp));
	return sc_unit_tmp;
}

#endif
