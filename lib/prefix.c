// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Address prefixes as text. Parsing is strict on purpose: a deny rule that
 * reads "192.0.2.1/24" most likely meant something else than 192.0.2.0/24,
 * so host bits past the length are an error, not something to mask away.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <xskx/filter.h>

#include "api.h"
#include "prefix.h"
#include "log_internal.h"

static int parse_len(const char *text, const char *digits, unsigned int max,
		     uint8_t *len)
{
	unsigned int value = 0;
	size_t n = strlen(digits);

	/* "/", "/+8", "/ 8", "/08" and "/1234" are all typos. */
	if (n == 0 || n > 3 || (n > 1 && digits[0] == '0'))
		return xskx__fail(
			-EINVAL,
			"prefix '%s': the length after '/' must be a number from 0 to %u",
			text, max);
	for (size_t i = 0; i < n; i++) {
		if (digits[i] < '0' || digits[i] > '9')
			return xskx__fail(
				-EINVAL,
				"prefix '%s': the length after '/' must be a number from 0 to %u",
				text, max);
		value = value * 10 + (unsigned int)(digits[i] - '0');
	}
	if (value > max)
		return xskx__fail(
			-EINVAL,
			"prefix '%s': length %u exceeds %u, the bits of the address",
			text, value, max);
	*len = (uint8_t)value;
	return 0;
}

bool xskx__prefix_host_bits_clear(const struct xskx_prefix *p)
{
	unsigned int bytes = p->family == AF_INET ? 4 : 16;

	for (unsigned int bit = p->len; bit < bytes * 8; bit++)
		if (p->addr[bit / 8] & (0x80 >> (bit % 8)))
			return false;
	for (unsigned int byte = bytes; byte < sizeof(p->addr); byte++)
		if (p->addr[byte])
			return false;
	return true;
}

XSKX_API int xskx_prefix_parse(const char *text, struct xskx_prefix *prefix)
{
	char addr[INET6_ADDRSTRLEN];
	struct xskx_prefix p = { 0 };
	const char *slash;
	size_t addr_len;
	unsigned int max;
	int err;

	if (!text || !prefix)
		return xskx__fail(
			-EINVAL,
			"prefix_parse: text and prefix must not be NULL");
	slash = strchr(text, '/');
	addr_len = slash ? (size_t)(slash - text) : strlen(text);
	if (addr_len == 0 || addr_len >= sizeof(addr))
		return xskx__fail(
			-EINVAL,
			"prefix '%s': expected an IPv4 or IPv6 address, optionally followed by /length",
			text);
	memcpy(addr, text, addr_len);
	addr[addr_len] = '\0';
	p.family = memchr(addr, ':', addr_len) ? AF_INET6 : AF_INET;
	max = p.family == AF_INET ? 32 : 128;
	if (inet_pton(p.family, addr, p.addr) != 1)
		return xskx__fail(-EINVAL,
				  "prefix '%s': '%s' is not an %s address", text,
				  addr, p.family == AF_INET ? "IPv4" : "IPv6");
	p.len = (uint8_t)max;
	if (slash) {
		err = parse_len(text, slash + 1, max, &p.len);
		if (err)
			return err;
	}
	if (!xskx__prefix_host_bits_clear(&p))
		return xskx__fail(
			-EINVAL,
			"prefix '%s': the address has bits set past /%u; write the network address",
			text, p.len);
	*prefix = p;
	return 0;
}

int xskx__prefix_check(const struct xskx_prefix *p)
{
	if (p->family != AF_INET && p->family != AF_INET6)
		return xskx__fail(
			-EINVAL,
			"prefix: family %u is neither AF_INET nor AF_INET6",
			p->family);
	if (p->len > (p->family == AF_INET ? 32 : 128))
		return xskx__fail(-EINVAL,
				  "prefix: length %u exceeds the address's bits",
				  p->len);
	if (!xskx__prefix_host_bits_clear(p))
		return xskx__fail(-EINVAL,
				  "prefix: the address has bits set past /%u",
				  p->len);
	return 0;
}

XSKX_API int xskx_prefix_format(const struct xskx_prefix *prefix, char *buf,
				size_t size)
{
	char addr[INET6_ADDRSTRLEN];
	int n;

	if (!prefix || (!buf && size))
		return xskx__fail(
			-EINVAL,
			"prefix_format: prefix and buf must not be NULL");
	n = xskx__prefix_check(prefix);
	if (n)
		return n;
	inet_ntop(prefix->family, prefix->addr, addr, sizeof(addr));
	n = snprintf(buf, size, "%s/%u", addr, prefix->len);
	if ((size_t)n >= size)
		return xskx__fail(
			-ENOSPC,
			"prefix_format: '%s/%u' needs %d bytes, buf has %zu",
			addr, prefix->len, n + 1, size);
	return n;
}
