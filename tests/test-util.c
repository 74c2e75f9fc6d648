/* SPDX-License-Identifier: MIT */
/* test-util.c: what every Check program here does the same way. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "scratch.h"
#include "test-util.h"

/* Path of a file of the source tree. */
const char *
test_util_src_path(const char *rel, char *buf, size_t len)
{
	const char *top = getenv("IOBUFVIZ_SRCDIR");

	snprintf(buf, len, "%s/%s", top != NULL && *top != '\0' ? top : IOBUFVIZ_SRCDIR, rel);
	return buf;
}

/* Run a suite the way make check wants it (CK_VERBOSITY picks the verbosity). */
int
test_util_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	scratch_cleanup();
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
