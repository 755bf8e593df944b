// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx_prefix_parse() and xskx_prefix_format(), as a round trip. The first
 * byte picks the direction:
 *   even  the rest is text: parse returns 0 or -EINVAL; a prefix it accepts
 *         is well formed (family, length, no host bits), formats, and the
 *         text formatted parses back to the same prefix and formats to the
 *         same text (the format is canonical);
 *   odd   the rest is a struct xskx_prefix: format returns -EINVAL exactly
 *         when the struct is malformed, and a formatted prefix parses back
 *         to the same struct.
 * Either way format into every buffer size from 0 up: -ENOSPC while the
 * text does not fit, never a byte written past the size.
 */
#include <errno.h>
#include <sys/socket.h>
#include <xskx/filter.h>
#include <xskx/log.h>

#include "fuzz.h"

static void quiet(enum xskx_log_level level, const char *msg, void *ctx)
{
	(void)level;
	(void)msg;
	(void)ctx;
}

static bool well_formed(const struct xskx_prefix *p)
{
	unsigned int bits;

	if (p->family != AF_INET && p->family != AF_INET6)
		return false;
	bits = p->family == AF_INET ? 32 : 128;
	if (p->len > bits)
		return false;
	for (unsigned int bit = p->len; bit < 128; bit++)
		if (p->addr[bit / 8] & (0x80 >> (bit % 8)))
			return false;
	return true;
}

/* Format p into buffers of every size; returns the text's length. */
static int format_every_size(const struct xskx_prefix *p, char *text)
{
	char buf[64];
	int n = xskx_prefix_format(p, text, 64);

	FUZZ_CHECK(n > 0 && n < 64, "format returned %d", n);
	FUZZ_CHECK((size_t)n == strlen(text), "returned %d for '%s'", n, text);
	for (size_t size = 0; size <= (size_t)n + 1; size++) {
		int r;

		memset(buf, 0x7e, sizeof(buf));
		r = xskx_prefix_format(p, size ? buf : NULL, size);
		if (size <= (size_t)n) {
			FUZZ_CHECK(r == -ENOSPC, "size %zu: returned %d", size, r);
		} else {
			FUZZ_CHECK(r == n && !strcmp(buf, text),
				   "size %zu: returned %d", size, r);
		}
		for (size_t i = size; i < sizeof(buf); i++)
			FUZZ_CHECK(buf[i] == 0x7e, "size %zu: byte %zu written",
				   size, i);
	}
	return n;
}

static void round_trip(const struct xskx_prefix *p)
{
	char text[64], again[64];
	struct xskx_prefix back;
	int err;

	format_every_size(p, text);
	memset(&back, 0xa5, sizeof(back));
	err = xskx_prefix_parse(text, &back);
	FUZZ_CHECK(!err, "'%s' does not parse back: %d", text, err);
	FUZZ_CHECK(!memcmp(&back, p, sizeof(back)),
		   "'%s' parses back to another prefix", text);
	FUZZ_CHECK(xskx_prefix_format(&back, again, sizeof(again)) > 0 &&
			   !strcmp(text, again),
		   "'%s' formats back as '%s'", text, again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xskx_prefix p;
	int err;

	if (!size)
		return 0;
	xskx_set_log(quiet, NULL);
	if (data[0] % 2 == 0) {
		char *text = malloc(size);

		if (!text)
			return 0;
		memcpy(text, data + 1, size - 1);
		text[size - 1] = '\0';
		memset(&p, 0xa5, sizeof(p));
		err = xskx_prefix_parse(text, &p);
		FUZZ_CHECK(err == 0 || err == -EINVAL, "parse returned %d", err);
		if (!err) {
			FUZZ_CHECK(well_formed(&p), "'%s' gave family %u len %u",
				   text, p.family, p.len);
			round_trip(&p);
		}
		free(text);
		return 0;
	}
	memset(&p, 0, sizeof(p));
	memcpy(&p, data + 1, size - 1 < sizeof(p) ? size - 1 : sizeof(p));
	if (!well_formed(&p)) {
		char buf[64];

		err = xskx_prefix_format(&p, buf, sizeof(buf));
		FUZZ_CHECK(err == -EINVAL,
			   "malformed family %u len %u formatted: %d", p.family,
			   p.len, err);
		return 0;
	}
	round_trip(&p);
	return 0;
}
