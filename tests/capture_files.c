// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Capture files for the tests (capture_files.h). */
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_files.h"

int capture_file_write(const char *path, enum capture_link link,
		       const struct capture_frame *frames, uint32_t n)
{
	pcap_t *dead = pcap_open_dead_with_tstamp_precision(
		link == CAPTURE_LINK_ETHERNET ? DLT_EN10MB : DLT_RAW, 262144,
		PCAP_TSTAMP_PRECISION_NANO);
	pcap_dumper_t *d = dead ? pcap_dump_open(dead, path) : NULL;

	if (!d) {
		fprintf(stderr, "%s: %s\n", path,
			dead ? pcap_geterr(dead) : "no memory");
		if (dead)
			pcap_close(dead);
		return -1;
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct capture_frame *f = &frames[i];
		struct pcap_pkthdr h = {
			/* Nanosecond precision: tv_usec holds nanoseconds. */
			.ts = { .tv_sec = (time_t)(f->ts_ns / 1000000000u),
				.tv_usec =
					(suseconds_t)(f->ts_ns % 1000000000u) },
			.caplen = f->caplen,
			.len = f->len,
		};

		pcap_dump((u_char *)d, &h, f->bytes);
	}
	pcap_dump_close(d);
	pcap_close(dead);
	return 0;
}

int capture_file_read(const char *path, struct capture_frame *frames,
		      uint32_t max)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline_with_tstamp_precision(
		path, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	struct pcap_pkthdr *h;
	const u_char *data;
	uint32_t n = 0;
	int r;

	if (!p) {
		fprintf(stderr, "%s: %s\n", path, errbuf);
		return -1;
	}
	if (pcap_datalink(p) != DLT_EN10MB) {
		fprintf(stderr, "%s: link type %d, not Ethernet\n", path,
			pcap_datalink(p));
		pcap_close(p);
		return -1;
	}
	while ((r = pcap_next_ex(p, &h, &data)) == 1 && n < max) {
		uint8_t *copy = malloc(h->caplen ? h->caplen : 1);

		if (!copy)
			break;
		memcpy(copy, data, h->caplen);
		frames[n++] = (struct capture_frame){
			copy, h->len, h->caplen,
			(uint64_t)h->ts.tv_sec * 1000000000u +
				(uint64_t)h->ts.tv_usec
		};
	}
	if (r == 1 || r == PCAP_ERROR) {
		fprintf(stderr, "%s: %s\n", path,
			r == 1 ? "more frames than expected" : pcap_geterr(p));
		capture_frames_free(frames, n);
		pcap_close(p);
		return -1;
	}
	pcap_close(p);
	return (int)n;
}

void capture_frames_free(struct capture_frame *frames, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		free((void *)frames[i].bytes);
}
