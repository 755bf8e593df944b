// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* A capture file loaded whole with libpcap (capture_load.h). */
#include <pcap/pcap.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_load.h"

#define ETH_HEADER 14

void capture_load_free(struct capture_load *c)
{
	free(c->bytes);
	free(c->offset);
	free(c->len);
	free(c->due_ns);
	memset(c, 0, sizeof(*c));
}

/* Room for one more frame of len bytes; false when memory ran out. */
static bool grow(struct capture_load *c, uint32_t *frames_cap,
		 uint64_t *bytes_cap, uint64_t used, uint32_t len)
{
	if (c->n == *frames_cap) {
		uint32_t n = *frames_cap ? *frames_cap * 2 : 64;
		uint64_t *offset = n > c->n ? realloc(c->offset, n * 8ul) :
					      NULL;
		uint64_t *due = offset ? realloc(c->due_ns, n * 8ul) : NULL;
		uint32_t *lens = due ? realloc(c->len, n * 4ul) : NULL;

		c->offset = offset ? offset : c->offset;
		c->due_ns = due ? due : c->due_ns;
		c->len = lens ? lens : c->len;
		if (!lens)
			return false;
		*frames_cap = n;
	}
	if (used + len > *bytes_cap) {
		uint64_t n = *bytes_cap ? *bytes_cap : 65536;
		uint8_t *bytes;

		while (n < used + len)
			n *= 2;
		bytes = realloc(c->bytes, n);
		if (!bytes)
			return false;
		c->bytes = bytes;
		*bytes_cap = n;
	}
	return true;
}

static const char *frame_problem(const struct pcap_pkthdr *h, uint32_t max_len,
				 char *why, size_t size)
{
	if (h->caplen < h->len)
		snprintf(
			why, size,
			"%u of its %u bytes were captured (snapshot length): capture with -s 0",
			h->caplen, h->len);
	else if (h->caplen < ETH_HEADER)
		snprintf(why, size,
			 "%u bytes is shorter than an Ethernet header",
			 h->caplen);
	else if (h->caplen > max_len)
		snprintf(why, size,
			 "%u bytes is more than the %u a frame takes",
			 h->caplen, max_len);
	else
		return NULL;
	return why;
}

static int read_frames(const char *program, const char *path, pcap_t *p,
		       uint32_t max_len, struct capture_load *c)
{
	uint32_t frames_cap = 0;
	uint64_t bytes_cap = 0, used = 0, first = 0, last_due = 0;
	struct pcap_pkthdr *h;
	const u_char *data;
	char why[160];
	int r;

	while ((r = pcap_next_ex(p, &h, &data)) == 1) {
		/* Opened with nanosecond precision: tv_usec holds nanoseconds. */
		uint64_t ts = (uint64_t)h->ts.tv_sec * 1000000000u +
			      (uint64_t)h->ts.tv_usec;

		if (frame_problem(h, max_len, why, sizeof(why))) {
			fprintf(stderr, "%s: capture %s: frame %u: %s\n",
				program, path, c->n + 1, why);
			return -1;
		}
		if (c->n == UINT32_MAX - 1 ||
		    !grow(c, &frames_cap, &bytes_cap, used, h->caplen)) {
			fprintf(stderr,
				"%s: capture %s: frame %u: out of memory\n",
				program, path, c->n + 1);
			return -1;
		}
		if (!c->n)
			first = ts;
		if (ts >= first && ts - first > last_due)
			last_due = ts - first;
		memcpy(c->bytes + used, data, h->caplen);
		c->offset[c->n] = used;
		c->len[c->n] = h->caplen;
		c->due_ns[c->n] = last_due;
		used += h->caplen;
		c->n++;
	}
	if (r != PCAP_ERROR_BREAK) {
		fprintf(stderr, "%s: capture %s: frame %u: %s\n", program, path,
			c->n + 1, pcap_geterr(p));
		return -1;
	}
	if (!c->n) {
		fprintf(stderr, "%s: capture %s holds no frame\n", program,
			path);
		return -1;
	}
	return 0;
}

int capture_load(const char *program, const char *path, uint32_t max_len,
		 struct capture_load *c)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	pcap_t *p = pcap_open_offline_with_tstamp_precision(
		path, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	int err;

	memset(c, 0, sizeof(*c));
	if (!p) {
		fprintf(stderr, "%s: capture %s: %s\n", program, path, errbuf);
		return -1;
	}
	if (pcap_datalink(p) != DLT_EN10MB) {
		const char *name = pcap_datalink_val_to_name(pcap_datalink(p));

		fprintf(stderr,
			"%s: capture %s: link type %s: only Ethernet (EN10MB) frames can be sent\n",
			program, path, name ? name : "unknown");
		pcap_close(p);
		return -1;
	}
	err = read_frames(program, path, p, max_len, c);
	pcap_close(p);
	if (err)
		capture_load_free(c);
	return err;
}

uint64_t capture_load_due_ns(const struct capture_load *c, uint64_t k)
{
	return c->due_ns[c->n - 1] * (k / c->n) + c->due_ns[k % c->n];
}
