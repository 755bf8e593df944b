// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What xskx-l2fwd's and xskx-fw's forwarding core costs a packet: one
 * queue between two ports of the deterministic simulated NIC, sim0
 * receiving PACKETS UDP frames of SIZE bytes for sim1, stepped by
 * fwd_step() (l2fwd) or fw_step() (fw-pass, fw-half) until every packet
 * was forwarded or denied. scripts/fwd-cost.sh counts the step's
 * instructions with callgrind and divides them by the packets received.
 *
 *   fwd_cost PACKETS SIZE l2fwd|fw-pass|fw-half [FILE]
 *
 * l2fwd     sim0's source (flows 8), no filter;
 * fw-pass   xskx-fw's rule set "default allow";
 * fw-half   "deny proto udp port 10", "default allow": a capture of two
 *           frames, UDP to port 9 and to port 10, replayed PACKETS / 2
 *           times, so that every other packet is denied in stage 2 (a port
 *           rule is not one the XDP program applies);
 * FILE      --pcap-out's copy of every forwarded packet into a capture
 *           writer's ring of a slot per packet (none finds it full: the
 *           count is the same on every run).
 *
 * Prints "received R forwarded F denied D" and exits 0 only when every
 * packet was received and forwarded or denied as its rule says.
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xskx-sim/sim.h>

#include "capture_files.h"
#include "capture_writer.h"
#include "frames.h"
#include "fw.h"

#define MAX_ROUNDS 10000000u

static int fail(const char *what, int err)
{
	fprintf(stderr, "fwd_cost: %s: %s (%s)\n", what, strerror(-err),
		xskx_last_error());
	return 1;
}

/* A UDP frame of size bytes, 192.0.2.1 -> 192.0.2.2, to dport. */
static uint32_t udp_frame(uint8_t *b, uint32_t size, uint16_t dport)
{
	uint32_t off = frame_eth(b, NULL, 0, ETHERTYPE_IPV4);

	off = frame_ipv4(b, off, IPPROTO_UDP, "192.0.2.1", "192.0.2.2", 5, 0);
	off = frame_udp(b, off, 1024, dport);
	memset(b + off, 0, size - off);
	frame_ip_length(b, 14, size);
	b[14 + 20 + 4] = (uint8_t)((size - 34) >> 8); /* UDP length */
	b[14 + 20 + 5] = (uint8_t)(size - 34);
	return size;
}

/* fw's traffic: the two frames, replayed packets / 2 times. */
static int add_fw_source(struct xskx_sim_port *port, uint64_t packets,
			 uint32_t size, char *path)
{
	static uint8_t frames[2][1514];
	struct capture_frame f[2];
	int fd = mkstemp(path);

	if (fd < 0)
		return -errno;
	close(fd);
	for (uint32_t i = 0; i < 2; i++)
		f[i] = (struct capture_frame){
			.bytes = frames[i],
			.len = udp_frame(frames[i], size, (uint16_t)(9 + i)),
			.caplen = size,
		};
	if (capture_file_write(path, CAPTURE_LINK_ETHERNET, f, 2))
		return -EIO;
	XSKX_OPTS(xskx_sim_capture_source_opts, o, .path = path,
		  .loops = packets / 2);
	return xskx_sim_port_add_capture_source(port, &o);
}

int main(int argc, char **argv)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_port_opts, port_opts);
	static const char *const rule_sets[] = {
		"default allow\n",
		"deny proto udp port 10\ndefault allow\n",
	};
	char source_path[] = "/tmp/fwd_cost.XXXXXX";
	struct capture_writer *writer = NULL;
	struct capture_writer_stats st = { 0 };
	struct xskx_sim_port *sim_ports[2];
	struct fwd_config cfg = { .nports = 2, .frames = 4096 };
	struct fw_ruleset *rules = NULL;
	struct fw_errors errs = { 0 };
	struct fwd_queue *q;
	struct fw_stage2 s2 = { 0 };
	struct xskx_sim *sim;
	struct fw fw = { 0 };
	uint64_t packets, handled = 0;
	uint32_t size;
	int half, l2fwd, err;

	if (argc < 4 || argc > 5 ||
	    (strcmp(argv[3], "l2fwd") && strcmp(argv[3], "fw-pass") &&
	     strcmp(argv[3], "fw-half"))) {
		fprintf(stderr,
			"usage: fwd_cost PACKETS SIZE l2fwd|fw-pass|fw-half [FILE]\n");
		return 2;
	}
	packets = strtoull(argv[1], NULL, 10);
	size = (uint32_t)strtoul(argv[2], NULL, 10);
	l2fwd = !strcmp(argv[3], "l2fwd");
	half = !strcmp(argv[3], "fw-half");
	if (size < 64 || size > 1514 || packets < 2 || packets % 2) {
		fprintf(stderr, "fwd_cost: SIZE 64..1514, PACKETS even\n");
		return 2;
	}
	if (argc == 5) {
		const struct capture_writer_opts o = {
			.program = "fwd_cost",
			.flag = "FILE",
			.path = argv[4],
			.format = CAPTURE_PCAP,
			.rings = 1,
			.slots = (uint32_t)packets,
			.snaplen = CAPTURE_DEFAULT_SNAPLEN,
		};

		if (capture_writer_open(&writer, &o))
			return 1;
		cfg.capture = writer;
	}
	if ((err = xskx_sim_create(&sim, &sim_opts)))
		return fail("xskx_sim_create", err);
	for (uint32_t i = 0; i < 2; i++) {
		XSKX_OPTS(xskx_sim_port_opts, o, .name = i ? "sim1" : "sim0");

		if ((err = xskx_sim_port_create(sim, &o, &sim_ports[i])) ||
		    (err = xskx_port_open_sim(&cfg.ports[i], sim_ports[i],
					      &port_opts)))
			return fail("a port", err);
	}
	if (l2fwd) {
		XSKX_OPTS(xskx_sim_source_opts, source, .pkt_size = size,
			  .count = packets, .flows = 8);

		err = xskx_sim_port_add_source(sim_ports[0], &source);
	} else {
		err = add_fw_source(sim_ports[0], packets, size, source_path);
	}
	if (err)
		return fail("the source", err);
	if (l2fwd) {
		q = calloc(1, sizeof(*q));
		if (!q || (err = fwd_open(q, &cfg)))
			return fail("fwd_open", q ? err : -ENOMEM);
	} else {
		const char *text = rule_sets[half];

		if ((err = fw_rules_parse(text, strlen(text), &rules, &errs)))
			return fail("fw_rules_parse", err);
		if ((err = fw_open(&fw, &cfg, 1, rules)))
			return fail("fw_open", err);
		q = &fw.queues[0].fwd;
	}
	for (uint32_t round = 0; handled < packets && round < MAX_ROUNDS;
	     round++) {
		if ((err = xskx_sim_poll(sim)) < 0 ||
		    (err = l2fwd ? fwd_step(q) : fw_step(&fw.queues[0])) < 0)
			return fail("forwarding", err);
		if (!l2fwd)
			fw_stage2_read(&fw, &s2);
		handled = q->ports[1].count.tx + s2.denied.packets;
	}
	if (l2fwd)
		fwd_finish(q);
	else
		fw_finish(&fw);
	if (writer && capture_writer_close(writer, &st))
		return 1;
	printf("received %llu forwarded %llu denied %llu\n",
	       (unsigned long long)q->ports[0].count.rx,
	       (unsigned long long)q->ports[1].count.tx,
	       (unsigned long long)s2.denied.packets);
	err = q->ports[0].count.rx == packets &&
			      s2.denied.packets == (half ? packets / 2 : 0) &&
			      (!writer || st.written == q->ports[1].count.tx) ?
		      0 :
		      1;
	if (l2fwd) {
		fwd_close(q);
		free(q);
	} else {
		fw_close(&fw);
		unlink(source_path);
	}
	for (uint32_t i = 0; i < 2; i++)
		xskx_port_close(cfg.ports[i]);
	xskx_sim_destroy(sim);
	return err;
}
