/* SPDX-License-Identifier: MIT */
/* check-units.c: size parsing and formatting; the sanitiser of untrusted text; the JSON writer. */
#include <config.h>

#include <check.h>
#include <locale.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/json.h"
#include "base/text.h"
#include "base/units.h"
#include "test-util.h"

/* Parse s and return the value; fail the test if it does not parse. */
static uint64_t
parse_ok(const char *s)
{
	uint64_t v = 0;
	int rc = units_parse_size(s, &v);
	ck_assert_msg(rc == 0, "'%s' did not parse (rc %d)", s, rc);
	return v;
}

/* grow: the same array while there is room, twice the room when full, the first room from
 * none; NULL with the array and its room untouched when the size would overflow. */
START_TEST(test_grow)
{
	size_t cap = 0;
	int *v = grow(NULL, &cap, 0, sizeof *v, 4), *w;

	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(cap, 4);
	ck_assert_ptr_eq(grow(v, &cap, 3, sizeof *v, 4), v);
	ck_assert_uint_eq(cap, 4);
	w = grow(v, &cap, 4, sizeof *v, 4);
	ck_assert_ptr_nonnull(w);
	ck_assert_uint_eq(cap, 8);
	v = w;
	cap = SIZE_MAX / 2 + 1;
	ck_assert_ptr_null(grow(v, &cap, cap, sizeof *v, 4));
	ck_assert_uint_eq(cap, SIZE_MAX / 2 + 1);
	free(v);
}
END_TEST

START_TEST(test_plain_and_binary)
{
	ck_assert_uint_eq(parse_ok("0"), 0);
	ck_assert_uint_eq(parse_ok("4096"), 4096);
	ck_assert_uint_eq(parse_ok("512B"), 512);
	ck_assert_uint_eq(parse_ok("4KiB"), 4096);
	ck_assert_uint_eq(parse_ok("4 KiB"), 4096);
	ck_assert_uint_eq(parse_ok("1MiB"), 1048576);
	ck_assert_uint_eq(parse_ok("1GiB"), 1073741824);
	ck_assert_uint_eq(parse_ok(" 64KiB "), 65536);
}
END_TEST

START_TEST(test_decimal)
{
	ck_assert_uint_eq(parse_ok("100MB"), 100000000);
	ck_assert_uint_eq(parse_ok("4kB"), 4000);
	ck_assert_uint_eq(parse_ok("4KB"), 4000);
	ck_assert_uint_eq(parse_ok("2GB"), 2000000000);
}
END_TEST

START_TEST(test_bad)
{
	static const char *bad[] = { "", "KiB", "-3", "4 KiBB", "4 kib", "abc", "1.5MiB",
	                             "4 K i B", "4MiB x", "0x10", "+4" };
	uint64_t v = 77;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_msg(units_parse_size(bad[i], &v) == -1, "'%s' parsed", bad[i]);
		ck_assert_uint_eq(v, 77);
	}
}
END_TEST

START_TEST(test_overflow)
{
	uint64_t v;
	ck_assert_int_eq(units_parse_size("99999999999999999999999", &v), -2);
	ck_assert_int_eq(units_parse_size("17179869184GiB", &v), -2);
	ck_assert_int_eq(units_parse_size("18446744073709551615", &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
}
END_TEST

START_TEST(test_format)
{
	char b[32];
	ck_assert_str_eq(units_format_size(904, b, sizeof b), "904 B");
	ck_assert_str_eq(units_format_size(4096, b, sizeof b), "4 KiB");
	ck_assert_str_eq(units_format_size(1536 * 1024, b, sizeof b), "1.5 MiB");
	ck_assert_str_eq(units_format_size(1073741824, b, sizeof b), "1 GiB");
	/* As a scenario writes it: decimal only where it is round in decimal alone. */
	ck_assert_str_eq(units_format_size_round(100000000, b, sizeof b), "100 MB");
	ck_assert_str_eq(units_format_size_round(1000, b, sizeof b), "1 kB");
	ck_assert_str_eq(units_format_size_round(5000, b, sizeof b), "5 kB");
	ck_assert_str_eq(units_format_size_round(4 << 20, b, sizeof b), "4 MiB");
	ck_assert_str_eq(units_format_size_round(904, b, sizeof b), "904 B");
	ck_assert_str_eq(units_format_ns(850, b, sizeof b), "850 ns");
	ck_assert_str_eq(units_format_ns(2100, b, sizeof b), "2.1 µs");
	ck_assert_str_eq(units_format_ns(3400000, b, sizeof b), "3.40 ms");
	ck_assert_str_eq(units_format_ns(1200000000, b, sizeof b), "1.20 s");
}
END_TEST

/* Escape s in mode m and compare with want. */
static void
safe_is(const char *s, enum text_mode m, const char *want)
{
	char buf[256];
	char *dup = text_safe_dup(s, m);
	size_t n = text_safe(s, m, buf, sizeof buf);

	ck_assert_str_eq(buf, want);
	ck_assert_uint_eq(n, strlen(want));
	ck_assert_str_eq(dup, want);
	free(dup);
}

START_TEST(test_safe_controls)
{
	/* The hostile title: OSC title, alternate screen, SGR, and a C1 CSI in UTF-8. */
	safe_is("T\x1b]0;PWNED\a\x1b[?1049h\x1b[31mred\xc2\x9b" "31m", TEXT_LINE,
	        "T\\x1b]0;PWNED\\x07\\x1b[?1049h\\x1b[31mred\\u009b31m");
	safe_is("I\x1b" "c intro", TEXT_BLOCK, "I\\x1bc intro");
	safe_is("del\x7f", TEXT_BLOCK, "del\\x7f");
	/* A lone C1 byte is not UTF-8: shown as the byte it is. */
	safe_is("csi\x9b" "2J", TEXT_LINE, "csi\\x9b2J");
	/* Truncated and overlong sequences, a surrogate. */
	safe_is("a\xe2\x82", TEXT_LINE, "a\\xe2\\x82");
	safe_is("\xc0\xaf", TEXT_LINE, "\\xc0\\xaf");
	safe_is("\xed\xa0\x80", TEXT_LINE, "\\xed\\xa0\\x80");
}
END_TEST

/* Trojan Source (CVE-2021-42574): every bidi control, mark and line separator is escaped in
 * both modes, and its neighbours in the same block are not. */
START_TEST(test_safe_bidi)
{
	static const uint32_t bidi[] = { 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067,
	                                 0x2068, 0x2069, 0x200e, 0x200f, 0x061c, 0x2028, 0x2029 };
	static const uint32_t not[] = { 0x2027, 0x202f, 0x2065, 0x206a, 0x200d,
	                                0x2010, 0x061b, 0x061d };
	char in[8], want[16];

	for (size_t i = 0; i < sizeof bidi / sizeof bidi[0]; i++) {
		ck_assert_msg(text_is_control(bidi[i]), "U+%04x", bidi[i]);
		/* As UTF-8: two or three bytes. */
		if (bidi[i] < 0x800)
			snprintf(in, sizeof in, "%c%c", 0xc0 | (bidi[i] >> 6), 0x80 | (bidi[i] & 0x3f));
		else
			snprintf(in, sizeof in, "%c%c%c", 0xe0 | (bidi[i] >> 12),
			         0x80 | ((bidi[i] >> 6) & 0x3f), 0x80 | (bidi[i] & 0x3f));
		snprintf(want, sizeof want, "\\u%04x", bidi[i]);
		safe_is(in, TEXT_LINE, want);
		safe_is(in, TEXT_BLOCK, want);
	}
	for (size_t i = 0; i < sizeof not / sizeof not[0]; i++)
		ck_assert_msg(!text_is_control(not[i]), "U+%04x", not[i]);
	safe_is("x = \"\xe2\x80\xae\xe2\x81\xa6\"; // ok", TEXT_LINE,
	        "x = \"\\u202e\\u2066\"; // ok");
}
END_TEST

START_TEST(test_safe_lines)
{
	safe_is("a\nb\tc\rd\\e", TEXT_LINE, "a\\nb\\tc\\rd\\\\e");
	safe_is("a\nb\tc\rd\\e", TEXT_BLOCK, "a\nb\tc\\x0dd\\e");
	/* Printable UTF-8 passes as it is. */
	safe_is("µs ▶ — ü", TEXT_LINE, "µs ▶ — ü");
	safe_is("", TEXT_LINE, "");
}
END_TEST

START_TEST(test_safe_truncates)
{
	char buf[6];
	size_t n = text_safe("\x1b\x1b", TEXT_LINE, buf, sizeof buf);

	/* Like snprintf: the full length is returned, the buffer holds what fits. */
	ck_assert_uint_eq(n, 8);
	ck_assert_str_eq(buf, "\\x1b\\");
	ck_assert(text_is_control(0x1b) && text_is_control(0x9b) && text_is_control(0x7f));
	ck_assert(!text_is_control(' ') && !text_is_control(0xa0) && !text_is_control(0x25b6));
}
END_TEST

/* Take a buffer writer's text; fail the test if it failed. */
static char *
json_ok(struct json *j)
{
	char *t = json_take(j, NULL);
	ck_assert_msg(t != NULL, "the writer failed");
	return t;
}

START_TEST(test_json_nesting)
{
	struct json j;
	char *t;

	json_init(&j, NULL, 0);
	json_begin_object(&j, NULL);
	json_int(&j, "a", -1);
	json_begin_array(&j, "b");
	json_uint(&j, NULL, UINT64_MAX);
	json_int(&j, NULL, INT64_MIN);
	json_int(&j, NULL, 0);
	json_bool(&j, NULL, true);
	json_null(&j, NULL);
	json_begin_object(&j, NULL);
	json_end_object(&j);
	json_begin_array(&j, NULL);
	json_end_array(&j);
	json_int_pair(&j, NULL, INT64_MIN, 7);
	json_end_array(&j);
	json_int_pair(&j, "p", 0, -1);
	json_fixed(&j, "c", 1.5, 3);
	json_real(&j, "d", 0.1, 9);
	json_real(&j, "e", 1.0 / 0.0, 9);
	json_string(&j, "f", NULL);
	json_end_object(&j);
	t = json_ok(&j);
	ck_assert_str_eq(t, "{\"a\":-1,\"b\":[18446744073709551615,-9223372036854775808,0,true,null,{},"
	                 "[],[-9223372036854775808,7]],\"p\":[0,-1],\"c\":1.500,"
	                 "\"d\":0.1,\"e\":null,\"f\":null}");
	free(t);

	/* Spaced (asciicast's header), and a new line per item, then per document. */
	json_init(&j, NULL, JSON_SPACED);
	json_begin_object(&j, NULL);
	json_int(&j, "v", 2);
	json_string(&j, "t", "x");
	json_end_object(&j);
	json_break(&j);
	json_begin_array(&j, NULL);
	json_break(&j);
	json_end_array(&j);
	json_break(&j);
	json_begin_array(&j, NULL);
	json_break(&j);
	json_int(&j, NULL, 1);
	json_break(&j);
	json_int(&j, NULL, 2);
	json_int_pair(&j, NULL, -3, 4);
	json_break(&j);
	json_end_array(&j);
	t = json_ok(&j);
	ck_assert_str_eq(t, "{\"v\": 2, \"t\": \"x\"}\n[\n]\n[\n1,\n2, [-3, 4]\n]");
	free(t);
}
END_TEST

START_TEST(test_json_escapes)
{
	struct json j;
	char *t;
	size_t len;

	json_init(&j, NULL, 0);
	json_begin_array(&j, NULL);
	/* Controls, C1 controls (CSI as UTF-8), invalid UTF-8 and a NUL; valid UTF-8 as is. */
	json_string(&j, NULL, "q\"b\\n\n\r\t\033\x7f\xc2\x9b\xc2\xa0\xe2\x96\xb6\xff\xc0\xaf");
	json_string_n(&j, NULL, "a\0b", 3);
	json_end_array(&j);
	t = json_take(&j, &len);
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(t, "[\"q\\\"b\\\\n\\n\\r\\t\\u001b\\u007f\\u009b\xc2\xa0\xe2\x96\xb6"
	                 "\\ufffd\\ufffd\\ufffd\",\"a\\u0000b\"]");
	ck_assert_uint_eq(len, strlen(t));
	free(t);

	/* For a page: what would end a <script> element, or a line of older JavaScript. */
	json_init(&j, NULL, JSON_HTML);
	json_string(&j, NULL, "</script><!-- & \xe2\x80\xa8\xe2\x80\xa9\xe2\x80\xa7");
	t = json_ok(&j);
	ck_assert_str_eq(t, "\"\\u003c/script\\u003e\\u003c!-- \\u0026 \\u2028\\u2029\xe2\x80\xa7\"");
	free(t);

	/* Keys are escaped too. */
	json_init(&j, NULL, 0);
	json_begin_object(&j, NULL);
	json_bool(&j, "\"k\033", false);
	json_end_object(&j);
	t = json_ok(&j);
	ck_assert_str_eq(t, "{\"\\\"k\\u001b\":false}");
	free(t);
}
END_TEST

START_TEST(test_json_misuse)
{
	struct json j;

	/* A member without a key, a key in an array, a bracket of the wrong kind, one left
	 * open, two documents on one line: each makes the writer fail. */
	json_init(&j, NULL, 0);
	json_begin_object(&j, NULL);
	json_int(&j, NULL, 1);
	json_end_object(&j);
	ck_assert_ptr_null(json_take(&j, NULL));
	json_begin_array(&j, NULL);
	json_int(&j, "k", 1);
	json_end_array(&j);
	ck_assert_ptr_null(json_take(&j, NULL));
	json_begin_array(&j, NULL);
	json_end_object(&j);
	ck_assert_ptr_null(json_take(&j, NULL));
	json_begin_array(&j, NULL);
	ck_assert_ptr_null(json_take(&j, NULL));
	json_int(&j, NULL, 1);
	json_int(&j, NULL, 2);
	ck_assert_ptr_null(json_take(&j, NULL));
	json_end_array(&j);
	ck_assert_ptr_null(json_take(&j, NULL));
	for (int i = 0; i <= JSON_MAX_DEPTH; i++)
		json_begin_array(&j, NULL);
	for (int i = 0; i <= JSON_MAX_DEPTH; i++)
		json_end_array(&j);
	ck_assert_ptr_null(json_take(&j, NULL));
	/* Nothing at all is an empty text, not a failure. */
	char *t = json_ok(&j);
	ck_assert_str_eq(t, "");
	free(t);
}
END_TEST

START_TEST(test_json_file)
{
	struct json j;
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	ck_assert_ptr_nonnull(f);
	json_init(&j, f, 0);
	json_begin_object(&j, NULL);
	json_string(&j, "s", "a\xc2\x85");
	json_end_object(&j);
	json_break(&j);
	ck_assert_int_eq(json_finish(&j), 0);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_str_eq(buf, "{\"s\":\"a\\u0085\"}\n");
	free(buf);

	/* A long text grows the buffer past its first size. */
	json_init(&j, NULL, 0);
	json_begin_array(&j, NULL);
	for (int i = 0; i < 1000; i++)
		json_string(&j, NULL, "0123456789");
	json_end_array(&j);
	buf = json_ok(&j);
	ck_assert_uint_eq(strlen(buf), 1000 * 13 + 1);
	free(buf);
}
END_TEST

/* The text buffer grows from nothing, formats, hands its text over, and frees. */
START_TEST(test_buf_grows)
{
	struct text_buf b = { 0 };
	char *s;

	ck_assert_str_eq(text_str(&b), "");
	text_add(&b, "ab");
	text_addf(&b, "%d-%s", 42, "x");
	text_addn(&b, "yz!", 2);
	ck_assert_str_eq(text_str(&b), "ab42-xyz");
	ck_assert_uint_eq(b.len, 8);
	/* Far past its first allocation, one byte and one printf at a time. */
	for (int i = 0; i < 10000; i++)
		text_addf(&b, "%c", 'a' + i % 26);
	ck_assert_uint_eq(b.len, 10008);
	ck_assert_uint_eq(strlen(text_str(&b)), 10008);
	ck_assert(!b.cut && !b.nomem);
	text_reset(&b);
	ck_assert_str_eq(text_str(&b), "");
	text_add(&b, "again");
	s = text_take(&b);
	ck_assert_str_eq(s, "again");
	ck_assert_ptr_null(b.s);
	free(s);
	text_buf_free(&b);
	text_buf_free(NULL);
}
END_TEST

/* Past its bound the text is cut at a whole character and ends in an ellipsis: seen, not silent. */
START_TEST(test_buf_bound)
{
	struct text_buf b = { .max = 10 };

	text_add(&b, "abcdef");
	ck_assert(!b.cut);
	text_add(&b, "ghijkl");
	ck_assert(b.cut);
	ck_assert_str_eq(text_str(&b), "abcdefg…");
	ck_assert_uint_le(b.len, 10);
	text_add(&b, "more");
	ck_assert_str_eq(text_str(&b), "abcdefg…");
	text_buf_free(&b);
	/* A printf past the bound; a cut never splits a character (é is two bytes). */
	b = (struct text_buf){ .max = 7 };
	text_addf(&b, "%s", "ab\xc3\xa9\xc3\xa9\xc3\xa9");
	ck_assert(b.cut);
	ck_assert_str_eq(text_str(&b), "ab\xc3\xa9…");
	text_buf_free(&b);
	/* The fixed-buffer appenders show their cut too. */
	char small[12];
	size_t at = 0;
	text_cat(small, sizeof small, &at, "%s", "abcdefgh");
	text_cat(small, sizeof small, &at, "%s", "ijklmn");
	ck_assert_str_eq(small, "abcdefgh…");
	ck_assert_uint_eq(at, sizeof small);
	/* A note's sentences, after "; " from the second on, cut only at its bound. */
	b = (struct text_buf){ .max = 14 };
	text_buf_sentence(&b, "one");
	text_buf_sentence(&b, "two");
	ck_assert_str_eq(text_str(&b), "one; two");
	text_buf_sentence(&b, "three");
	ck_assert_str_eq(text_str(&b), "one; two; t…");
	text_buf_free(&b);
	/* The default bound holds 10,000 characters whole. */
	char big[10001];
	memset(big, 'x', 10000);
	big[10000] = '\0';
	b = (struct text_buf){ 0 };
	text_addf(&b, "[%s]", big);
	ck_assert_uint_eq(b.len, 10002);
	ck_assert(!b.cut);
	text_buf_free(&b);
}
END_TEST

/* The one decoder: valid sequences, and what is not UTF-8 (overlong, surrogate, cut short). */
START_TEST(test_utf8_decode)
{
	uint32_t cp = 0;
	int n;

	ck_assert_uint_eq(text_utf8("A", SIZE_MAX, &cp), 1);
	ck_assert_uint_eq(cp, 'A');
	ck_assert_uint_eq(text_utf8("\xc3\xa9", SIZE_MAX, &cp), 2);
	ck_assert_uint_eq(cp, 0xe9);
	ck_assert_uint_eq(text_utf8("\xe6\x97\xa5", SIZE_MAX, &cp), 3);
	ck_assert_uint_eq(cp, 0x65e5);
	ck_assert_uint_eq(text_utf8("\xf0\x9f\x99\x82", SIZE_MAX, &cp), 4);
	ck_assert_uint_eq(cp, 0x1f642);
	ck_assert_uint_eq(text_utf8("\xc0\xaf", SIZE_MAX, &cp), 0);      /* overlong '/' */
	ck_assert_uint_eq(text_utf8("\xed\xa0\x80", SIZE_MAX, &cp), 0);  /* a surrogate */
	ck_assert_uint_eq(text_utf8("\xe6\x97", 2, &cp), 0);            /* cut short */
	ck_assert_uint_eq(text_utf8("\xff", SIZE_MAX, &cp), 0);
	ck_assert_uint_eq(text_decode("\xff" "a", &n), 0xfffd);
	ck_assert_int_eq(n, 1);
}
END_TEST

/* Columns from wcwidth: CJK and emoji 2, a combining accent 0, an invalid byte 1 (its '?'). */
START_TEST(test_utf8_width)
{
	if (setlocale(LC_CTYPE, "C.UTF-8") == NULL && setlocale(LC_CTYPE, "en_US.UTF-8") == NULL)
		return;
	ck_assert_int_eq(text_cp_width('a'), 1);
	ck_assert_int_eq(text_cp_width(0x65e5), 2);     /* 日 */
	ck_assert_int_eq(text_cp_width(0x1f642), 2);    /* 🙂 */
	ck_assert_int_eq(text_cp_width(0x301), 0);      /* combining acute */
	ck_assert_int_eq(text_cp_width(0x1b), 1);       /* a control, shown as one cell */
	ck_assert_int_eq(text_width("\xe6\x97\xa5\xe6\x9c\xac"), 4);
	ck_assert_int_eq(text_width("cafe\xcc\x81"), 4);
	ck_assert_int_eq(text_width("\xf0\x9f\x93\x84 a"), 4);
	ck_assert_int_eq(text_width("a\xff" "b"), 3);
	/* A fit never splits a wide character; it keeps a combining mark with its letter. */
	int cols;
	ck_assert_uint_eq(text_fit("\xe6\x97\xa5\xe6\x9c\xac", SIZE_MAX, 3, &cols), 3);
	ck_assert_int_eq(cols, 2);
	ck_assert_uint_eq(text_fit("cafe\xcc\x81!", SIZE_MAX, 4, &cols), 6);
	ck_assert_int_eq(cols, 4);
	ck_assert_uint_eq(text_fit("abc", 2, 10, NULL), 2);
	setlocale(LC_CTYPE, "C");
}
END_TEST

/* The suite. */
static Suite *
units_suite(void)
{
	Suite *s = suite_create("units");
	TCase *tc = tcase_create("sizes");
	tcase_add_test(tc, test_grow);
	tcase_add_test(tc, test_plain_and_binary);
	tcase_add_test(tc, test_decimal);
	tcase_add_test(tc, test_bad);
	tcase_add_test(tc, test_overflow);
	tcase_add_test(tc, test_format);
	suite_add_tcase(s, tc);
	tc = tcase_create("text");
	tcase_add_test(tc, test_safe_controls);
	tcase_add_test(tc, test_safe_bidi);
	tcase_add_test(tc, test_safe_lines);
	tcase_add_test(tc, test_safe_truncates);
	tcase_add_test(tc, test_buf_grows);
	tcase_add_test(tc, test_buf_bound);
	tcase_add_test(tc, test_utf8_decode);
	tcase_add_test(tc, test_utf8_width);
	suite_add_tcase(s, tc);
	tc = tcase_create("json");
	tcase_add_test(tc, test_json_nesting);
	tcase_add_test(tc, test_json_escapes);
	tcase_add_test(tc, test_json_misuse);
	tcase_add_test(tc, test_json_file);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return test_util_run(units_suite());
}
