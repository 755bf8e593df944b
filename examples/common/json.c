// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* One JSON writer for the example programs (see json.h). */
#include <math.h>
#include <stddef.h>
#include <xskx/xskx.h>

#include "json.h"

/*
 * The length of the valid UTF-8 sequence at s (1-4), or 0 if the bytes
 * there are not one: a stray continuation byte, an overlong form, a
 * surrogate, past U+10FFFF or cut short (RFC 3629's table).
 */
static size_t utf8_length(const unsigned char *s)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

void json_write_string(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");

	fputc('"', f);
	while (*s) {
		size_t n = utf8_length(s);

		if (*s == '"' || *s == '\\') {
			fputc('\\', f);
			fputc(*s, f);
		} else if (*s < 0x20 || *s == 0x7f) {
			fprintf(f, "\\u%04x", *s);
		} else if (n) {
			fwrite(s, 1, n, f);
			s += n;
			continue;
		} else {
			fputs("\\ufffd", f);
		}
		s++;
	}
	fputc('"', f);
}

void json_key(struct json *j, const char *key)
{
	if (!j->first)
		fputs(", ", j->f);
	j->first = false;
	if (key) {
		json_write_string(j->f, key);
		fputs(": ", j->f);
	}
}

void json_object(struct json *j, const char *key)
{
	json_key(j, key);
	fputc('{', j->f);
	j->first = true;
}

void json_object_end(struct json *j)
{
	fputc('}', j->f);
	j->first = false;
}

void json_array(struct json *j, const char *key)
{
	json_key(j, key);
	fputc('[', j->f);
	j->first = true;
}

void json_array_end(struct json *j)
{
	fputc(']', j->f);
	j->first = false;
}

void json_begin(struct json *j, FILE *f, const char *program,
		const char *record)
{
	j->f = f;
	fputc('{', f);
	j->first = true;
	json_str(j, "program", program);
	json_str(j, "xskx_version", xskx_version());
	json_str(j, "record", record);
}

void json_end(struct json *j)
{
	fputs("}\n", j->f);
	fflush(j->f);
	j->first = false;
}

void json_u64(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void json_i64(struct json *j, const char *key, int64_t v)
{
	json_key(j, key);
	fprintf(j->f, "%lld", (long long)v);
}

void json_num(struct json *j, const char *key, double v, int decimals)
{
	json_key(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.*f", decimals, v);
	else
		fputs("null", j->f);
}

void json_str(struct json *j, const char *key, const char *v)
{
	json_key(j, key);
	json_write_string(j->f, v);
}

void json_bool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	fputs(v ? "true" : "false", j->f);
}
