/* SPDX-License-Identifier: MIT */
/* check-scenario.c: placeholder */
#include <config.h>
#include <check.h>
#include <stdlib.h>
#include "scenario.h"
START_TEST(test_free_null) { scenario_free(NULL); }
END_TEST
int main(void) { Suite *s = suite_create("scenario"); TCase *tc = tcase_create("core"); tcase_add_test(tc, test_free_null); suite_add_tcase(s, tc); SRunner *r = srunner_create(s); srunner_run_all(r, CK_NORMAL); int f = srunner_ntests_failed(r); srunner_free(r); return f ? 1 : 0; }
