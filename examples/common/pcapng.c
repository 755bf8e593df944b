// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The few pcapng blocks the programs write (pcapng.h). */
#include <errno.h>
#include <string.h>

#include "pcapng.h"

#define BLOCK_SHB 0x0a0d0d0au
#define BLOCK_IDB 1u
#define BLOCK_EPB 6u
#define BYTE_ORDER_MAGIC 0x1a2b3c4du
#define LINKTYPE_ETHERNET 1u
#define OPT_ENDOFOPT 0u
#define OPT_COMMENT 1u
#define IF_TSRESOL 9u
#define TSRESOL_NANO 9u /* 10^-9 s */

/* Every block and option value is padded to 32 bits. */
static uint32_t pad4(uint32_t n)
{
	return (n + 3) & ~3u;
}

/* Whether fwrite wrote everything; errno says why not, when stdio set it. */
static int put(FILE *f, const void *p, size_t n)
{
	if (!n || fwrite(p, 1, n, f) == n)
		return 0;
	return errno ? -errno : -EIO;
}

static int put_u32(FILE *f, uint32_t v)
{
	return put(f, &v, sizeof(v));
}

static int put_zeros(FILE *f, uint32_t n)
{
	static const uint8_t zeros[4];

	return put(f, zeros, n);
}

/* Option code and length (16 bits each), then the value padded. */
static int put_option(FILE *f, uint16_t code, const void *value, uint16_t len)
{
	uint16_t head[2] = { code, len };
	int err = put(f, head, sizeof(head));

	if (!err)
		err = put(f, value, len);
	return err ? err : put_zeros(f, pad4(len) - len);
}

int pcapng_write_header(FILE *f, uint32_t snaplen)
{
	const struct {
		uint32_t type, total, magic;
		uint16_t major, minor;
		int64_t section_len; /* -1: not given */
		uint32_t total_again;
	} __attribute__((packed)) shb = {
		BLOCK_SHB, sizeof(shb), BYTE_ORDER_MAGIC, 1, 0, -1, sizeof(shb)
	};
	/* Then the options: if_tsresol (8 bytes), the end (4), the length. */
	const struct {
		uint32_t type, total;
		uint16_t link_type, reserved;
		uint32_t snaplen;
	} idb = { BLOCK_IDB, sizeof(idb) + 8 + 4 + 4, LINKTYPE_ETHERNET, 0,
		  snaplen };
	const uint8_t resol = TSRESOL_NANO;
	int err;

	errno = 0;
	err = put(f, &shb, sizeof(shb));
	if (!err)
		err = put(f, &idb, sizeof(idb));
	if (!err)
		err = put_option(f, IF_TSRESOL, &resol, 1);
	if (!err)
		err = put_option(f, OPT_ENDOFOPT, NULL, 0);
	return err ? err : put_u32(f, idb.total);
}

int pcapng_write_packet(FILE *f, uint64_t ts_ns, const uint8_t *data,
			uint32_t caplen, uint32_t len, const char *comment)
{
	/* An option's length is 16 bits: a longer comment is cut. */
	size_t note = comment ? strnlen(comment, UINT16_MAX) : 0;
	uint32_t options = note ? 4 + pad4((uint32_t)note) + 4 : 0;
	uint32_t total = 28 + pad4(caplen) + options + 4;
	const uint32_t head[] = { BLOCK_EPB,
				  total,
				  0 /* interface */,
				  (uint32_t)(ts_ns >> 32),
				  (uint32_t)ts_ns,
				  caplen,
				  len };
	int err;

	errno = 0;
	err = put(f, head, sizeof(head));
	if (!err)
		err = put(f, data, caplen);
	if (!err)
		err = put_zeros(f, pad4(caplen) - caplen);
	if (!err && note)
		err = put_option(f, OPT_COMMENT, comment, (uint16_t)note);
	if (!err && note)
		err = put_option(f, OPT_ENDOFOPT, NULL, 0);
	return err ? err : put_u32(f, total);
}
