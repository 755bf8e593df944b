// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The example programs' JSON writer (examples/common/json.c) on strings
 * built to break it: every byte 0x01-0xff, quotes and backslashes, valid
 * UTF-8 and broken UTF-8, as keys and as values, nested. It prints one
 * document on stdout; tests/examples/check_json.py parses it with python's
 * json module and checks every string came back as it should.
 */
#include <stdio.h>

#include "json.h"

int main(void)
{
	char every_byte[256];
	struct json j;

	for (int i = 1; i < 256; i++)
		every_byte[i - 1] = (char)i;
	every_byte[255] = '\0';

	json_begin(&j, stdout, "test_json", "writer");
	json_str(&j, "every_byte", every_byte);
	json_str(&j, "quotes", "say \"hi\" \\ \\\" \"\\");
	json_str(&j, "controls", "tab\tnl\ncr\resc\x1b del\x7f");
	json_str(&j, "utf8", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	/* a lone continuation byte, overlong '/', a surrogate, cut short */
	json_str(&j, "broken_utf8", "a\x80 b\xc0\xaf c\xed\xa0\x80 d\xe2\x82");
	json_str(&j, "null_string", NULL);
	json_object(&j, "key \"with\" \\ and \x01");
	json_array(&j, "list");
	json_u64(&j, NULL, 18446744073709551615ULL);
	json_i64(&j, NULL, -42);
	json_num(&j, NULL, 0.5, 3);
	json_num(&j, NULL, 1.0 / 0.0, 3);
	json_bool(&j, NULL, true);
	json_object(&j, NULL);
	json_object_end(&j);
	json_array(&j, NULL);
	json_array_end(&j);
	json_array_end(&j);
	json_object_end(&j);
	json_end(&j);
	return 0;
}
