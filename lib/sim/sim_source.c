// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Traffic sources: UDP/IPv4 frames arriving on a port as if from the wire.
 *
 * Each frame is 02:00:00:00:00:01 -> 02:00:00:00:00:02, 192.0.2.1 ->
 * 192.0.2.2 (documentation addresses, RFC 5737: crafted traffic never
 * borrows real or private ones), UDP source port 1024 + flow (flow =
 * sequence % flows), destination port 9, UDP checksum 0 (none, as IPv4
 * allows), and the 64-bit sequence number, big-endian, in the first
 * payload bytes; the rest of the payload is zero. The frame is built once;
 * per packet only the source port and the sequence number change, neither
 * of which is in the IPv4 header, so its checksum holds.
 *
 * A capture source replays a capture's frames instead (sim_capture_read.h),
 * loop after loop, each on the queue RSS picked for it when it was read.
 *
 * rate_pps 0 sends as fast as the hardware ring takes the frames: a source
 * waits rather than overrun a queue that has no posted buffer. With a rate,
 * or a capture's own timing, frames are due on the CLOCK_MONOTONIC
 * schedule and are missed like any other when no buffer is posted.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "kernel_rules.h"
#include "log_internal.h"
#include "opts_internal.h"
#include "sim_capture_read.h"
#include "sim_internal.h"
#include "sim_lock.h"
#include "sim_napi.h"
#include "sim_rss.h"
#include "sim_source.h"
#include "sim_wire.h"

#define SRC_IP_HDR 14
#define SRC_UDP_HDR 34
#define SRC_PAYLOAD 42
#define SRC_MIN_SIZE 60
#define SRC_FIRST_PORT 1024
#define SRC_MAX_FLOWS (65536 - SRC_FIRST_PORT)

struct sim_source {
	struct sim_source *next;
	uint64_t count;	   /* 0: no limit */
	uint64_t rate_pps; /* 0: as fast as the ring takes them */
	uint64_t sent;	   /* atomic: read by xskx_sim_sources_active() */
	uint64_t start_ns; /* when the first frame went */
	uint32_t pkt_size;
	uint32_t flows;
	uint32_t burst;
	uint8_t *frame;
	uint32_t *flow_queue; /* the queue RSS picks for each flow */
	/* A capture source: its frames, replayed instead of frame. */
	struct sim_capture capture;
	bool recorded; /* due at the capture's own times, not rate_pps */
};

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put_be64(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint16_t ipv4_checksum(const uint8_t *hdr)
{
	uint32_t sum = 0;

	for (int i = 0; i < 20; i += 2)
		sum += (uint32_t)(hdr[i] << 8 | hdr[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static void build_frame(uint8_t *f, uint32_t size)
{
	static const uint8_t eth[SRC_IP_HDR] = {
		0x02, 0,    0, 0, 0, 0x02, /* destination */
		0x02, 0,    0, 0, 0, 0x01, /* source */
		0x08, 0x00,		   /* IPv4 */
	};
	uint8_t *ip = f + SRC_IP_HDR, *udp = f + SRC_UDP_HDR;

	memset(f, 0, size);
	memcpy(f, eth, sizeof(eth));
	ip[0] = 0x45; /* version 4, 20-byte header */
	put_be16(ip + 2, (uint16_t)(size - SRC_IP_HDR));
	put_be16(ip + 6, 0x4000); /* don't fragment */
	ip[8] = 64;		  /* TTL */
	ip[9] = 17;		  /* UDP */
	memcpy(ip + 12, (const uint8_t[]){ 192, 0, 2, 1, 192, 0, 2, 2 }, 8);
	put_be16(ip + 10, ipv4_checksum(ip));
	put_be16(udp + 2, 9);
	put_be16(udp + 4, (uint16_t)(size - SRC_UDP_HDR));
}

static void set_flow(struct sim_source *s, uint32_t flow, uint64_t seq)
{
	put_be16(s->frame + SRC_UDP_HDR, (uint16_t)(SRC_FIRST_PORT + flow));
	put_be64(s->frame + SRC_PAYLOAD, seq);
}

static void source_free(struct sim_source *s)
{
	xskx__sim_capture_free(&s->capture);
	free(s->frame);
	free(s->flow_queue);
	free(s);
}

static int source_settings(struct sim_source *s,
			   const struct xskx_sim_port *port,
			   const struct xskx_sim_source_opts *o)
{
	s->pkt_size = o->pkt_size ? o->pkt_size : 64;
	s->count = o->count;
	s->rate_pps = o->rate_pps;
	s->flows = o->flows ? o->flows : 1;
	s->burst = o->burst ? o->burst : 64;
	if (s->pkt_size < SRC_MIN_SIZE ||
	    s->pkt_size > port->mtu + XSKX_ETH_HLEN)
		return xskx__fail(
			-EINVAL,
			"port %s: source pkt_size %u is outside [%u, MTU %u + %u]",
			port->name, s->pkt_size, SRC_MIN_SIZE, port->mtu,
			XSKX_ETH_HLEN);
	if (s->flows > SRC_MAX_FLOWS)
		return xskx__fail(
			-EINVAL,
			"port %s: source flows %u: at most %u UDP source ports",
			port->name, s->flows, SRC_MAX_FLOWS);
	return 0;
}

static void source_link(struct xskx_sim_port *port, struct sim_source *s)
{
	xskx__sim_lock(port->sim);
	s->next = port->sources;
	port->sources = s;
	xskx__sim_unlock(port->sim);
}

XSKX_API int xskx_sim_port_add_source(struct xskx_sim_port *port,
				      const struct xskx_sim_source_opts *opts)
{
	struct xskx_sim_source_opts o;
	struct sim_source *s;
	int err;

	if (!port)
		return xskx__fail(-EINVAL,
				  "xskx_sim_port_add_source: port is NULL");
	err = XSKX_OPTS_COPY(&o, opts, xskx_sim_source_opts);
	if (err)
		return err;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	err = source_settings(s, port, &o);
	if (err) {
		source_free(s);
		return err;
	}
	s->frame = malloc(s->pkt_size);
	s->flow_queue = calloc(s->flows, sizeof(*s->flow_queue));
	if (!s->frame || !s->flow_queue) {
		source_free(s);
		return -ENOMEM;
	}
	build_frame(s->frame, s->pkt_size);
	for (uint32_t flow = 0; flow < s->flows; flow++) {
		set_flow(s, flow, 0);
		s->flow_queue[flow] =
			xskx__sim_rss_queue(s->frame, s->pkt_size, port->nqueues);
	}
	source_link(port, s);
	return 0;
}

int xskx__sim_source_add_capture(struct xskx_sim_port *port,
				 struct sim_capture *cap,
				 const struct xskx_sim_capture_source_opts *o)
{
	struct sim_source *s = calloc(1, sizeof(*s));
	uint64_t loops = o->loops ? o->loops : 1;

	if (!s) {
		xskx__sim_capture_free(cap);
		return -ENOMEM;
	}
	s->capture = *cap;
	*cap = (struct sim_capture){ 0 };
	/* count 0 is no limit; so is a product past 64 bits. */
	s->count = loops > UINT64_MAX / s->capture.nframes ?
			   0 :
			   loops * s->capture.nframes;
	s->rate_pps = o->timing == XSKX_SIM_CAPTURE_RATE ? o->rate_pps : 0;
	s->recorded = o->timing == XSKX_SIM_CAPTURE_RECORDED;
	s->burst = o->burst ? o->burst : 64;
	for (uint32_t i = 0; i < s->capture.nframes; i++) {
		struct sim_capture_frame *f = &s->capture.frames[i];

		f->queue = xskx__sim_rss_queue(s->capture.bytes + f->offset,
					       f->len, port->nqueues);
	}
	source_link(port, s);
	return 0;
}

static bool unfinished(const struct sim_source *s)
{
	return !s->count ||
	       __atomic_load_n(&s->sent, __ATOMIC_RELAXED) < s->count;
}

/* Sent on a schedule rather than as fast as the ring takes them. */
static bool timed(const struct sim_source *s)
{
	return s->rate_pps || s->recorded;
}

/*
 * When the k-th frame of a capture replayed at its own timing is due,
 * after start_ns: its time in its loop, each loop as long as the capture.
 */
static uint64_t recorded_due_ns(const struct sim_source *s, uint64_t k)
{
	const struct sim_capture *c = &s->capture;
	uint64_t loop = k / c->nframes;

	return c->frames[c->nframes - 1].due_ns * loop +
	       c->frames[k % c->nframes].due_ns;
}

/* When the source's next frame is due (a timed source). */
static uint64_t next_due_ns(const struct sim_source *s)
{
	if (s->recorded)
		return s->start_ns + recorded_due_ns(s, s->sent);
	return s->start_ns + (uint64_t)((unsigned __int128)s->sent *
					1000000000u / s->rate_pps);
}

/* Frames this source may send now. */
static uint64_t due(struct sim_source *s, uint64_t now_ns)
{
	uint64_t n = s->burst;

	if (s->count && s->count - s->sent < n)
		n = s->count - s->sent;
	if (s->recorded) {
		uint64_t i = 0;

		if (!s->start_ns)
			s->start_ns = now_ns;
		while (i < n && s->start_ns + recorded_due_ns(s, s->sent + i) <=
					now_ns)
			i++;
		return i;
	}
	if (s->rate_pps) {
		unsigned __int128 until;

		if (!s->start_ns)
			s->start_ns = now_ns;
		/* Frame k is due at start + k / rate: frame 0 at once. */
		until = (unsigned __int128)(now_ns - s->start_ns) *
				s->rate_pps / 1000000000u +
			1;
		if (until <= s->sent)
			return 0;
		if (until - s->sent < n)
			n = (uint64_t)(until - s->sent);
	}
	return n;
}

/* The source's next frame, in seg, and the queue it arrives on. */
static struct sim_queue *next_frame(struct sim_source *s,
				    struct xskx_sim_port *port,
				    struct sim_seg *seg)
{
	uint32_t flow;

	if (s->capture.nframes) {
		const struct sim_capture_frame *f =
			&s->capture.frames[s->sent % s->capture.nframes];

		*seg = (struct sim_seg){ s->capture.bytes + f->offset, f->len };
		return &port->queues[f->queue];
	}
	flow = (uint32_t)(s->sent % s->flows);
	set_flow(s, flow, s->sent);
	*seg = (struct sim_seg){ s->frame, s->pkt_size };
	return &port->queues[s->flow_queue[flow]];
}

static uint32_t source_run(struct sim_source *s, struct xskx_sim_port *port,
			   uint64_t now_ns)
{
	struct sim_seg seg;
	struct sim_pkt pkt = { &seg, 1, 0 };
	uint64_t n = due(s, now_ns), i;

	for (i = 0; i < n; i++) {
		struct sim_queue *q = next_frame(s, port, &seg);

		pkt.len = seg.len;
		if (!timed(s) && !xskx__sim_queue_can_take(q, seg.len))
			break;
		xskx__sim_queue_receive(q, &pkt);
		__atomic_store_n(&s->sent, s->sent + 1, __ATOMIC_RELAXED);
	}
	return (uint32_t)i;
}

uint32_t xskx__sim_sources_run(struct xskx_sim_port *port, uint64_t now_ns)
{
	uint32_t sent = 0;

	if (xskx__sim_port_link_down(port))
		return 0;
	for (struct sim_source *s = port->sources; s; s = s->next)
		if (unfinished(s))
			sent += source_run(s, port, now_ns);
	if (sent)
		sim_count(&port->stats.source_packets, sent);
	return sent;
}

uint64_t xskx__sim_sources_next_due(const struct xskx_sim_port *port)
{
	uint64_t next = UINT64_MAX;

	for (const struct sim_source *s = port->sources; s; s = s->next) {
		uint64_t at;

		if (!timed(s) || !unfinished(s))
			continue;
		at = next_due_ns(s);
		if (at < next)
			next = at;
	}
	return next;
}

bool xskx__sim_sources_unfinished(const struct xskx_sim_port *port)
{
	for (const struct sim_source *s = port->sources; s; s = s->next)
		if (unfinished(s))
			return true;
	return false;
}

bool xskx__sim_sources_timed(const struct xskx_sim_port *port)
{
	for (const struct sim_source *s = port->sources; s; s = s->next)
		if (timed(s) && unfinished(s))
			return true;
	return false;
}

void xskx__sim_sources_free(struct xskx_sim_port *port)
{
	while (port->sources) {
		struct sim_source *s = port->sources;

		port->sources = s->next;
		source_free(s);
	}
}
