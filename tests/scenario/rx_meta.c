// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * RX_METADATA (xskx's own, not a kernel selftest): port B is opened with
 * XSKX_PORT_RX_METADATA, port A without. UDP frames of three flows (IPv4,
 * IPv4 behind an 802.1Q tag, IPv6; documentation addresses) go from A to
 * B, each several times: every one arrives with a struct xskx_rx_meta in
 * front of its data holding the fields the peer's device gives
 * (test_peer.rx_meta_*, measured), the same RX hash for every packet of a
 * flow and different ones across flows where the peer's hash is a flow's,
 * the RX timestamp as the peer stamps it, and the VLAN tag where the peer
 * reports it (none at all where the port's program cannot be device-bound:
 * veth in generic mode). Frames from B to A arrive without one:
 * xskx_pkt_rx_meta() finds nothing on a port that did not ask.
 */
#include <string.h>
#include <time.h>

#include "frames.h"
#include "link.h"

#define FLOWS 4
#define ROUNDS 8
#define RX_META_VLAN_TCI 0x2064 /* PCP 1, VID 100 */

enum flow {
	FLOW_V4,      /* 192.0.2.1:1000 -> 192.0.2.2:9 */
	FLOW_V4_2,    /* 198.51.100.1:2000 -> 203.0.113.1:9 */
	FLOW_V4_VLAN, /* FLOW_V4 behind an 802.1Q tag */
	FLOW_V6,      /* 2001:db8::1:3000 -> 2001:db8::2:9 */
};

static uint32_t build(uint8_t *b, enum flow f)
{
	uint32_t len;

	switch (f) {
	case FLOW_V4:
		return frame_udp_packet(b, "192.0.2.1", "192.0.2.2", 1000);
	case FLOW_V4_2:
		return frame_udp_packet(b, "198.51.100.1", "203.0.113.1", 2000);
	case FLOW_V4_VLAN:
		len = frame_udp_packet(b, "192.0.2.1", "192.0.2.2", 1000);
		/* Make room for the tag after the MACs and write it there. */
		memmove(b + 16, b + 12, len - 12);
		b[12] = 0x81;
		b[13] = 0x00;
		b[14] = RX_META_VLAN_TCI >> 8;
		b[15] = RX_META_VLAN_TCI & 0xff;
		return len + 4;
	case FLOW_V6:
		return frame_udp_packet(b, "2001:db8::1", "2001:db8::2", 3000);
	}
	return 0;
}

/*
 * The flow a received frame is of, or -1 for a frame the scenario did not
 * send (a kernel's own IPv6 neighbour discovery on a veth pair).
 */
static int flow_of(const struct xskx_pkt *pkt)
{
	uint8_t frame[FRAME_MAX];

	for (int f = 0; f < FLOWS; f++)
		if (build(frame, (enum flow)f) == pkt->len &&
		    !memcmp(frame, pkt->data, pkt->len))
			return f;
	return -1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Send packet i of the stream (flow i % FLOWS) from port from. */
static bool send_one(struct test_link *link, enum test_port from, uint32_t i,
		     struct scenario_result *r)
{
	struct xskx_umem *umem = link->umem[from];
	struct xskx_pkt pkt = { 0 };
	uint8_t frame[FRAME_MAX];
	uint64_t addr;
	int sent;

	if (xskx_frame_alloc(umem, &addr, 1) != 1)
		return scenario_fail(r, "port %s: no frame to send packet %u",
				     link_port_name(from), i);
	pkt.addr = xskx_umem_tx_addr(umem, addr);
	pkt.len = build(frame, (enum flow)(i % FLOWS));
	memcpy((uint8_t *)xskx_umem_area(umem) + pkt.addr, frame, pkt.len);
	sent = xskx_tx_burst(link->sock[from], &pkt, 1);
	if (sent != 1)
		return scenario_fail(r, "port %s: xskx_tx_burst: %d (%s)",
				     link_port_name(from), sent,
				     xskx_last_error());
	return true;
}

struct seen {
	uint32_t received;
	bool hashed[FLOWS];
	uint32_t hash[FLOWS];
	uint64_t t0; /* CLOCK_MONOTONIC before the traffic */
};

/* What a packet of flow f received on B carries in front of its data. */
static bool check_meta(const struct test_peer *peer, struct seen *seen,
		       enum flow f, const struct xskx_rx_meta *m,
		       struct scenario_result *r)
{
	uint32_t want = peer->rx_meta_fields |
			(f == FLOW_V4_VLAN ? peer->rx_meta_vlan_inband : 0);
	uint32_t want_type = f == FLOW_V6 ? XSKX_RSS_L3_IPV6 : XSKX_RSS_L3_IPV4;

	want_type |= XSKX_RSS_L4 | XSKX_RSS_L4_UDP;
	if (!m)
		return scenario_fail(
			r, "flow %d: no struct xskx_rx_meta in front of the data",
			(int)f);
	if (m->valid != want || m->reserved)
		return scenario_fail(r,
				     "flow %d: valid %#x reserved %u, expected %#x, 0",
				     (int)f, m->valid, m->reserved, want);
	if (want & XSKX_RX_META_HASH) {
		if (peer->rx_meta_rss ? m->hash_type != want_type :
					m->hash_type & ~XSKX_RSS_L4)
			return scenario_fail(
				r, "flow %d: hash type %#x, expected %#x", (int)f,
				m->hash_type,
				peer->rx_meta_rss ? want_type : XSKX_RSS_L4);
		if (peer->rx_meta_rss && seen->hashed[f] &&
		    seen->hash[f] != m->hash)
			return scenario_fail(
				r, "flow %d: hash %#x, then %#x for the same flow",
				(int)f, seen->hash[f], m->hash);
		seen->hashed[f] = true;
		seen->hash[f] = m->hash;
	} else if (m->hash || m->hash_type) {
		return scenario_fail(r, "flow %d: hash %#x type %#x not valid but set",
				     (int)f, m->hash, m->hash_type);
	}
	if (!(want & XSKX_RX_META_TIMESTAMP) || !peer->rx_meta_clock) {
		if (m->timestamp)
			return scenario_fail(r, "flow %d: timestamp %llu, expected 0",
					     (int)f,
					     (unsigned long long)m->timestamp);
	} else if (m->timestamp < seen->t0 || m->timestamp > now_ns()) {
		return scenario_fail(
			r,
			"flow %d: timestamp %llu outside the traffic's time [%llu, now]",
			(int)f, (unsigned long long)m->timestamp,
			(unsigned long long)seen->t0);
	}
	if (want & XSKX_RX_META_VLAN_TAG) {
		if (m->vlan_proto != TPID_8021Q || m->vlan_tci != RX_META_VLAN_TCI)
			return scenario_fail(
				r, "flow %d: VLAN %#x/%#x, expected %#x/%#x", (int)f,
				m->vlan_proto, m->vlan_tci, TPID_8021Q,
				RX_META_VLAN_TCI);
	} else if (m->vlan_proto || m->vlan_tci) {
		return scenario_fail(r, "flow %d: VLAN %#x/%#x not valid but set",
				     (int)f, m->vlan_proto, m->vlan_tci);
	}
	return true;
}

/*
 * Receive on port `to` until `want` of the scenario's packets arrived,
 * checking each: with metadata on B, none on A.
 */
static bool receive(struct test_link *link, enum test_port to, uint32_t want,
		    struct seen *seen, struct scenario_result *r)
{
	struct xskx_pkt pkts[16];

	while (seen->received < want) {
		int n = xskx_rx_burst(link->sock[to], pkts, 16);

		if (n < 0)
			return scenario_fail(r, "port %s: xskx_rx_burst: %d",
					     link_port_name(to), n);
		for (int i = 0; i < n; i++) {
			const struct xskx_rx_meta *m =
				xskx_pkt_rx_meta(link->sock[to], &pkts[i]);
			int f = flow_of(&pkts[i]);
			bool ok;

			if (f < 0)
				continue;
			seen->received++;
			ok = to == TEST_PORT_B ?
					  check_meta(link->peer, seen, (enum flow)f, m, r) :
				  m ? scenario_fail(
					      r,
					      "port A, opened without XSKX_PORT_RX_METADATA, found RX metadata")
				    : true;

			if (!ok) {
				xskx_rx_release(link->sock[to], pkts, (uint32_t)n);
				return false;
			}
		}
		xskx_rx_release(link->sock[to], pkts, (uint32_t)n);
		if (!n && !link_turn(link, r, "the RX metadata packets"))
			return false;
	}
	return true;
}

/* Every packet sent from `from` completed. */
static bool reclaim_all(struct test_link *link, enum test_port from,
			struct scenario_result *r)
{
	struct xskx_stats stats;

	for (;;) {
		xskx_tx_reclaim(link->sock[from]);
		if (!link_stats(link, from, &stats, r))
			return false;
		if (stats.tx_completed == stats.tx_packets)
			return true;
		if (!link_turn(link, r, "the completions"))
			return false;
	}
}

/* count packets from `from`, one at a time (a veth pair keeps them all). */
static bool exchange(struct test_link *link, enum test_port from,
		     uint32_t count, struct seen *seen,
		     struct scenario_result *r)
{
	enum test_port to = from == TEST_PORT_A ? TEST_PORT_B : TEST_PORT_A;

	for (uint32_t i = 0; i < count; i++)
		if (!send_one(link, from, i, r) ||
		    !receive(link, to, i + 1, seen, r))
			return false;
	return reclaim_all(link, from, r);
}

static bool distinct_hashes(const struct test_peer *peer,
			    const struct seen *seen, struct scenario_result *r)
{
	/* Flows that differ in addresses or ports (a tag alone may not). */
	static const enum flow apart[] = { FLOW_V4, FLOW_V4_2, FLOW_V6 };

	if (!(peer->rx_meta_fields & XSKX_RX_META_HASH) || !peer->rx_meta_rss)
		return true;
	for (int i = 0; i < 3; i++)
		for (int j = i + 1; j < 3; j++)
			if (seen->hash[apart[i]] == seen->hash[apart[j]])
				return scenario_fail(
					r, "flows %d and %d share the RX hash %#x",
					(int)apart[i], (int)apart[j],
					seen->hash[apart[i]]);
	return true;
}

/* What port B says it delivers, against what the peer says it gets. */
static bool check_port_info(struct test_link *link, struct scenario_result *r)
{
	const struct test_peer *peer = link->peer;
	struct xskx_port_info info;

	if (xskx_port_info(link->port[TEST_PORT_B], &info))
		return scenario_fail(r, "xskx_port_info: %s", xskx_last_error());
	if ((peer->rx_meta_fields | peer->rx_meta_vlan_inband) &
	    ~info.rx_meta_bound)
		return scenario_fail(
			r, "port B delivers %#x by its info, but its packets carry %#x",
			info.rx_meta_bound,
			peer->rx_meta_fields | peer->rx_meta_vlan_inband);
	if (!peer->rx_meta_fields && info.rx_meta_bound)
		return scenario_fail(
			r, "port B reports rx_meta_bound %#x, but nothing arrives",
			info.rx_meta_bound);
	if (xskx_port_info(link->port[TEST_PORT_A], &info))
		return scenario_fail(r, "xskx_port_info: %s", xskx_last_error());
	if (info.rx_meta_bound)
		return scenario_fail(
			r, "port A, without XSKX_PORT_RX_METADATA, reports rx_meta_bound %#x",
			info.rx_meta_bound);
	return true;
}

void scenario_rx_metadata(struct test_peer *peer, struct scenario_result *r)
{
	struct seen seen = { 0 };
	struct link_config cfg;
	struct test_link link;

	link_config_init(&cfg);
	link_config_both_ways(&cfg);
	cfg.port_flags[TEST_PORT_B] = XSKX_PORT_RX_METADATA;
	if (!link_open(&link, peer, &cfg, r))
		return;
	seen.t0 = now_ns();
	if (exchange(&link, TEST_PORT_A, FLOWS * ROUNDS, &seen, r) &&
	    distinct_hashes(peer, &seen, r) && check_port_info(&link, r)) {
		memset(&seen, 0, sizeof(seen));
		exchange(&link, TEST_PORT_B, FLOWS * ROUNDS, &seen, r);
	}
	link_close(&link, r);
}
