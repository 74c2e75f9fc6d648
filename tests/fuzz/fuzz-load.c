/* SPDX-License-Identifier: MIT */
/* tests/fuzz/fuzz-load.c: libFuzzer target for the scenario loader (make fuzz). Any bytes are
 * loaded as a scenario: no crash, no leak, no undefined behaviour (ASan + UBSan), and what
 * the loader says about them holds to its promise: FILE:LINE:COL lines, no byte of the input
 * that could act on a terminal. */
#include <config.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"

/* The name the loader gives the input in its messages. */
#define FUZZ_NAME "fuzz.yaml"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Stop the fuzzer with why, on what the loader said. */
static void
fuzz_fail(const char *why, const char *err)
{
	fprintf(stderr, "fuzz-load: %s:\n%s\n", why, err);
	abort();
}

/*
 * The errors: every line "fuzz.yaml:LINE:COL: message" with LINE, COL >= 1, and nothing a
 * terminal would act on (C0 but the newline that ends a line, DEL, C1 in UTF-8).
 */
static void
fuzz_check_errors(const char *err)
{
	for (const char *line = err; *line != '\0';) {
		const char *nl = strchr(line, '\n');
		int l = 0, c = 0, n = 0;

		if (sscanf(line, FUZZ_NAME ":%d:%d: %n", &l, &c, &n) != 2 || n == 0 || l < 1 || c < 1)
			fuzz_fail("an error line is not FILE:LINE:COL: message", line);
		for (const unsigned char *p = (const unsigned char *)line; p < (const unsigned char *)
		     (nl != NULL ? nl : line + strlen(line)); p++)
			if (*p < 0x20 || *p == 0x7f || (p[0] == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0))
				fuzz_fail("an error line holds a control character", line);
		if (nl == NULL)
			break;
		line = nl + 1;
	}
}

/* One input. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scenario *s = NULL;
	char *err = NULL;

	if (load_scenario_text(FUZZ_NAME, (const char *)data, size, &s, &err) == 0) {
		/* A scenario that loads (what it exports as C is tests/fuzz/fuzz-export.c's). */
		if (err != NULL)
			fuzz_fail("a scenario loaded, with errors", err);
		if (s == NULL || s->n_steps == 0 || s->title == NULL)
			fuzz_fail("a scenario loaded without a title or steps", "");
		load_scenario_free(s);
	} else if (err != NULL) {
		fuzz_check_errors(err);
	}
	free(err);
	return 0;
}
