// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A capture file read whole into memory with libpcap (pcap and pcapng
 * alike: libpcap tells them apart), every frame checked before the first
 * one is replayed, so that a bad file fails at once, naming the frame,
 * rather than halfway through a run. Frames are numbered from 1, as
 * tcpdump and Wireshark number them.
 */
#include <errno.h>
#include <pcap/pcap.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_rules.h"
#include "log_internal.h"
#include "sim_capture_read.h"

struct capture_growth {
	uint64_t bytes_cap;
	uint32_t frames_cap;
	uint64_t bytes_used;
	uint64_t first_ns, last_due_ns;
};

void xskx__sim_capture_free(struct sim_capture *cap)
{
	free(cap->bytes);
	free(cap->frames);
	*cap = (struct sim_capture){ 0 };
}

static int open_capture(const char *path, pcap_t **pcap)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	int err;

	errno = 0;
	*pcap = pcap_open_offline_with_tstamp_precision(
		path, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (*pcap)
		return 0;
	/* libpcap's fopen() leaves errno; a file it cannot read leaves none. */
	err = errno == ENOENT || errno == EACCES || errno == EISDIR ? -errno :
								      -EINVAL;
	return xskx__fail(
		err, "capture %s: %s%s", path, errbuf,
		err == -EINVAL ? " (a pcap or pcapng file is expected)" : "");
}

static int check_link_type(const char *path, pcap_t *pcap)
{
	int dlt = pcap_datalink(pcap);
	const char *name;

	if (dlt == DLT_EN10MB)
		return 0;
	name = pcap_datalink_val_to_name(dlt);
	return xskx__fail(
		-EINVAL,
		"capture %s: link type %s (%d): only Ethernet (EN10MB) frames can be replayed; re-capture on an Ethernet interface (not 'any')",
		path, name ? name : "unknown", dlt);
}

static int check_frame(const char *path, uint32_t number,
		       const struct pcap_pkthdr *h, uint32_t max_len,
		       const char *port_name)
{
	if (h->caplen < h->len)
		return xskx__fail(
			-EINVAL,
			"capture %s: frame %u: %u of its %u bytes were captured (the capture's snapshot length): replay needs whole frames; capture with -s 0",
			path, number, h->caplen, h->len);
	if (h->caplen < XSKX_ETH_HLEN)
		return xskx__fail(
			-EINVAL,
			"capture %s: frame %u: %u bytes is shorter than an Ethernet header (%u)",
			path, number, h->caplen, XSKX_ETH_HLEN);
	if (h->caplen > max_len)
		return xskx__fail(
			-EMSGSIZE,
			"capture %s: frame %u: %u bytes is more than port %s takes (%u: MTU + %u); raise the port's mtu",
			path, number, h->caplen, port_name, max_len,
			XSKX_L2_OVERHEAD);
	return 0;
}

static int grow(struct sim_capture *cap, struct capture_growth *g, uint32_t len)
{
	if (cap->nframes == g->frames_cap) {
		uint32_t n = g->frames_cap ? g->frames_cap * 2 : 64;
		void *p = n > g->frames_cap ?
				  reallocarray(cap->frames, n,
					       sizeof(*cap->frames)) :
				  NULL;

		if (!p)
			return -ENOMEM;
		cap->frames = p;
		g->frames_cap = n;
	}
	if (g->bytes_used + len > g->bytes_cap) {
		uint64_t n = g->bytes_cap ? g->bytes_cap : 65536;
		void *p;

		while (n < g->bytes_used + len)
			n *= 2;
		p = realloc(cap->bytes, n);
		if (!p)
			return -ENOMEM;
		cap->bytes = p;
		g->bytes_cap = n;
	}
	return 0;
}

static uint64_t timestamp_ns(const struct pcap_pkthdr *h)
{
	/* Opened with nanosecond precision: tv_usec holds nanoseconds. */
	return (uint64_t)h->ts.tv_sec * 1000000000u + (uint64_t)h->ts.tv_usec;
}

static void append(struct sim_capture *cap, struct capture_growth *g,
		   const struct pcap_pkthdr *h, const uint8_t *data)
{
	struct sim_capture_frame *f = &cap->frames[cap->nframes];
	uint64_t ts = timestamp_ns(h);

	if (!cap->nframes)
		g->first_ns = ts;
	/* A clock stepped back while recording: the frame goes at once. */
	if (ts >= g->first_ns && ts - g->first_ns > g->last_due_ns)
		g->last_due_ns = ts - g->first_ns;
	*f = (struct sim_capture_frame){ .offset = g->bytes_used,
					 .len = h->caplen,
					 .due_ns = g->last_due_ns };
	memcpy(cap->bytes + g->bytes_used, data, h->caplen);
	g->bytes_used += h->caplen;
	cap->nframes++;
}

static int read_frames(const char *path, pcap_t *pcap, uint32_t max_len,
		       const char *port_name, struct sim_capture *cap)
{
	struct capture_growth g = { 0 };

	for (;;) {
		struct pcap_pkthdr *h;
		const u_char *data;
		uint32_t number = cap->nframes + 1;
		int err, r = pcap_next_ex(pcap, &h, &data);

		if (r == PCAP_ERROR_BREAK)
			break;
		if (r != 1)
			return xskx__fail(-EINVAL, "capture %s: frame %u: %s",
					  path, number, pcap_geterr(pcap));
		if (number == UINT32_MAX)
			return xskx__fail(-EFBIG,
					  "capture %s: more than %u frames",
					  path, UINT32_MAX - 1);
		err = check_frame(path, number, h, max_len, port_name);
		if (!err)
			err = grow(cap, &g, h->caplen);
		if (err)
			return err;
		append(cap, &g, h, data);
	}
	if (!cap->nframes)
		return xskx__fail(-EINVAL, "capture %s holds no frame", path);
	return 0;
}

int xskx__sim_capture_read(const char *path, uint32_t max_len,
			   const char *port_name, struct sim_capture *cap)
{
	pcap_t *pcap;
	int err;

	*cap = (struct sim_capture){ 0 };
	err = open_capture(path, &pcap);
	if (err)
		return err;
	err = check_link_type(path, pcap);
	if (!err)
		err = read_frames(path, pcap, max_len, port_name, cap);
	pcap_close(pcap);
	if (err)
		xskx__sim_capture_free(cap);
	return err;
}
