// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The deny list on the simulated NIC: crafted packets injected on a port
 * with a socket on it. A denied packet never reaches the socket and counts
 * (packets, bytes) for its entry's rule; every other packet arrives. The
 * list is replaced atomically (checked against a running NIC thread), its
 * entries added, re-numbered, deleted and listed, its requests checked, and
 * it ends with the port's last socket.
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frames.h"
#include "helpers.h"

#define RX_RING 256u
#define MAX_POLLS 1000u
/* Every packet of the test has its own length: that is how it is known. */
#define ID_LEN(id) (100u + (id))

struct nic {
	struct xskx_sim *sim;
	struct xskx_sim_port *port;
	struct xskx_umem *umem;
	struct xskx_socket *sock;
};

static void nic_create(struct nic *nic, enum xskx_sim_mode mode,
		       uint32_t queues)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = mode);
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .queues = queues);

	memset(nic, 0, sizeof(*nic));
	ck_assert_int_eq(xskx_sim_create(&nic->sim, &sim_opts), 0);
	ck_assert_int_eq(xskx_sim_port_create(nic->sim, &port_opts, &nic->port),
			 0);
	ck_assert_msg(!xskx_umem_create(&nic->umem, NULL), "%s",
		      xskx_last_error());
}

static struct xskx_socket *open_rx(struct nic *nic, uint32_t queue)
{
	XSKX_OPTS(xskx_socket_opts, opts, .port = test_port(nic->port),
		  .queue_id = queue, .rx_size = RX_RING,
		  .flags = XSKX_SOCKET_NO_TX);
	struct xskx_socket *sock;
	struct xskx_pkt none[1];

	ck_assert_msg(!xskx_socket_open(&sock, nic->umem, &opts), "%s",
		      xskx_last_error());
	/* Hand FILL to the NIC before anything arrives. */
	ck_assert_int_eq(xskx_rx_burst(sock, none, 1), 0);
	return sock;
}

static void nic_destroy(struct nic *nic)
{
	if (nic->sock)
		ck_assert_int_eq(xskx_socket_close(nic->sock), 0);
	ck_assert_int_eq(xskx_umem_destroy(nic->umem), 0);
	ck_assert_int_eq(test_sim_destroy(nic->sim), 0);
}

static void inject(struct nic *nic, const uint8_t *frame, uint32_t len)
{
	ck_assert_msg(!xskx_sim_port_inject(nic->port, frame, len), "%s",
		      xskx_last_error());
}

/* A UDP packet known by its length, ID_LEN(id). */
static uint32_t inject_udp(struct nic *nic, const char *src, const char *dst,
			   uint32_t id)
{
	uint8_t frame[FRAME_MAX];

	frame_udp_packet(frame, src, dst, (uint16_t)id);
	inject(nic, frame, ID_LEN(id));
	return ID_LEN(id);
}

/* Run the NIC until idle; arrived[len] counts what the socket received. */
static uint32_t receive(struct nic *nic, uint32_t *arrived, uint32_t max_len)
{
	struct xskx_pkt pkts[64];
	uint32_t total = 0;
	int n;

	for (uint32_t i = 0; i < MAX_POLLS; i++) {
		int moved = xskx_sim_poll(nic->sim);

		ck_assert_int_ge(moved, 0);
		n = xskx_rx_burst(nic->sock, pkts, 64);
		ck_assert_int_ge(n, 0);
		for (int k = 0; k < n; k++) {
			ck_assert_uint_lt(pkts[k].len, max_len);
			arrived[pkts[k].len]++;
		}
		xskx_rx_release(nic->sock, pkts, (uint32_t)n);
		total += (uint32_t)n;
		if (!moved && !n)
			return total;
	}
	ck_abort_msg("the NIC did not come to rest in %u polls", MAX_POLLS);
	return total;
}

static struct xskx_filter_entry entry(enum xskx_filter_field field,
				      const char *prefix, uint32_t rule)
{
	struct xskx_filter_entry e = { .field = field, .rule_id = rule };

	ck_assert_msg(!xskx_prefix_parse(prefix, &e.prefix), "%s",
		      xskx_last_error());
	return e;
}

static void assert_rule(struct xskx_port *port, uint32_t rule,
			uint64_t packets, uint64_t bytes)
{
	struct xskx_filter_counters c;

	ck_assert_int_eq(xskx_filter_rule_stats(port, rule, &c), 0);
	ck_assert_msg(c.packets == packets && c.bytes == bytes,
		      "rule %u: %llu packets, %llu bytes; expected %llu, %llu",
		      rule, (unsigned long long)c.packets,
		      (unsigned long long)c.bytes, (unsigned long long)packets,
		      (unsigned long long)bytes);
}

START_TEST(deny_by_prefix)
{
	static const uint16_t vlan[] = { TPID_8021Q };
	const struct xskx_filter_entry list[] = {
		entry(XSKX_FILTER_SRC, "10.0.0.0/8", 1),
		entry(XSKX_FILTER_SRC, "10.1.0.0/16", 3),
		entry(XSKX_FILTER_DST, "2001:db8::/32", 2),
		entry(XSKX_FILTER_DST, "198.51.100.7", 4),
	};
	uint64_t bytes[5] = { 0 }, packets[5] = { 0 };
	uint32_t arrived[FRAME_MAX] = { 0 };
	struct xskx_sim_port_stats stats;
	uint8_t f[FRAME_MAX];
	struct nic nic;
	uint32_t off, len;

	nic_create(&nic, XSKX_SIM_DETERMINISTIC, 1);
	nic.sock = open_rx(&nic, 0);
	ck_assert_msg(!xskx_filter_set(test_port(nic.port), list, 4), "%s",
		      xskx_last_error());

	bytes[1] += inject_udp(&nic, "10.2.3.4", "192.0.2.1", 1), packets[1]++;
	bytes[3] += inject_udp(&nic, "10.1.2.3", "192.0.2.1", 2), packets[3]++;
	inject_udp(&nic, "192.0.2.9", "192.0.2.1", 3);
	bytes[2] += inject_udp(&nic, "2001:db9::1", "2001:db8::5", 4),
		packets[2]++;
	inject_udp(&nic, "2001:db9::1", "2001:db9::5", 5);
	bytes[4] += inject_udp(&nic, "192.0.2.9", "198.51.100.7", 6),
		packets[4]++;
	/* Both match: the source entry counts it. */
	bytes[1] += inject_udp(&nic, "10.9.9.9", "198.51.100.7", 7),
		packets[1]++;
	inject_udp(&nic, "198.51.100.7", "192.0.2.1", 8);

	/* Behind a VLAN tag. */
	off = frame_eth(f, vlan, 1, ETHERTYPE_IPV4);
	off = frame_ipv4(f, off, IPPROTO_UDP, "10.5.5.5", "192.0.2.1", 5, 0);
	frame_ip_length(f, 18, frame_udp(f, off, 1, 2));
	inject(&nic, f, ID_LEN(9));
	bytes[1] += ID_LEN(9), packets[1]++;
	/* A later fragment: no L4 header, the addresses suffice. */
	off = frame_eth(f, NULL, 0, ETHERTYPE_IPV4);
	frame_ipv4(f, off, IPPROTO_UDP, "10.5.5.5", "192.0.2.1", 5, 100);
	frame_ip_length(f, off, ID_LEN(10));
	inject(&nic, f, ID_LEN(10));
	bytes[1] += ID_LEN(10), packets[1]++;
	/* IPv6 behind extension headers and a first fragment header. */
	off = frame_eth(f, NULL, 0, ETHERTYPE_IPV6);
	off = frame_ipv6(f, off, IPPROTO_HOPOPTS, "2001:db9::1", "2001:db8::9");
	off = frame_ipv6_ext(f, off, IPPROTO_FRAGMENT, 1);
	off = frame_ipv6_frag(f, off, IPPROTO_UDP, 0, 1);
	frame_ip_length(f, 14, frame_udp(f, off, 1, 2));
	inject(&nic, f, ID_LEN(11));
	bytes[2] += ID_LEN(11), packets[2]++;
	/* A truncated TCP header: the addresses are still known. */
	off = frame_eth(f, NULL, 0, ETHERTYPE_IPV4);
	off = frame_ipv4(f, off, IPPROTO_TCP, "10.5.5.5", "192.0.2.1", 5, 0);
	frame_ip_length(f, 14, frame_tcp(f, off, 1, 2, 5));
	len = off + 10;
	inject(&nic, f, len);
	bytes[1] += len, packets[1]++;
	/* Not IP, and an IPv4 header with IHL 4: no address to judge by. */
	off = frame_eth(f, NULL, 0, ETHERTYPE_ARP);
	inject(&nic, f, ID_LEN(12));
	off = frame_eth(f, NULL, 0, ETHERTYPE_IPV4);
	frame_ipv4(f, off, IPPROTO_UDP, "10.5.5.5", "192.0.2.1", 4, 0);
	inject(&nic, f, ID_LEN(13));
	/* A total length below the header's: malformed, not judged ... */
	frame_ipv4(f, off, IPPROTO_UDP, "10.5.5.5", "192.0.2.1", 5, 0);
	frame_ip_length(f, off, off + 19);
	inject(&nic, f, ID_LEN(14));
	/* ... one past the frame: truncated, judged by its addresses. */
	frame_ip_length(f, off, ID_LEN(15) + 1);
	inject(&nic, f, ID_LEN(15));
	bytes[1] += ID_LEN(15), packets[1]++;

	ck_assert_uint_eq(receive(&nic, arrived, FRAME_MAX), 6);
	for (uint32_t id = 1; id <= 15; id++) {
		bool expected = id == 3 || id == 5 || id == 8 || id == 12 ||
				id == 13 || id == 14;

		ck_assert_msg(arrived[ID_LEN(id)] == expected,
			      "packet %u: arrived %u times, expected %d", id,
			      arrived[ID_LEN(id)], expected);
	}
	ck_assert_uint_eq(arrived[len], 0);
	for (uint32_t rule = 1; rule <= 4; rule++)
		assert_rule(test_port(nic.port), rule, packets[rule], bytes[rule]);
	assert_rule(test_port(nic.port), 0, 0, 0);
	ck_assert_int_eq(xskx_sim_port_stats(nic.port, &stats), 0);
	ck_assert_uint_eq(stats.xdp_drop, 10);
	ck_assert_uint_eq(stats.xdp_redirect, 6);
	nic_destroy(&nic);
}
END_TEST

START_TEST(add_del_list)
{
	struct xskx_filter_entry got[8];
	uint32_t arrived[FRAME_MAX] = { 0 };
	struct xskx_filter_entry e;
	struct xskx_prefix p;
	char text[64];
	struct nic nic;

	nic_create(&nic, XSKX_SIM_DETERMINISTIC, 1);
	nic.sock = open_rx(&nic, 0);
	ck_assert_int_eq(xskx_filter_list(test_port(nic.port), NULL, 0), 0);

	e = entry(XSKX_FILTER_DST, "192.0.2.0/24", 7);
	ck_assert_int_eq(xskx_filter_add(test_port(nic.port), &e), 0);
	e = entry(XSKX_FILTER_SRC, "2001:db8::/48", 8);
	ck_assert_int_eq(xskx_filter_add(test_port(nic.port), &e), 0);
	e = entry(XSKX_FILTER_SRC, "10.0.0.0/8", 9);
	ck_assert_int_eq(xskx_filter_add(test_port(nic.port), &e), 0);
	inject_udp(&nic, "10.0.0.1", "203.0.113.1", 1);
	inject_udp(&nic, "203.0.113.1", "192.0.2.77", 2);
	ck_assert_uint_eq(receive(&nic, arrived, FRAME_MAX), 0);
	assert_rule(test_port(nic.port), 9, 1, ID_LEN(1));
	assert_rule(test_port(nic.port), 7, 1, ID_LEN(2));

	/* Sources before destinations, IPv4 before IPv6. */
	ck_assert_int_eq(xskx_filter_list(test_port(nic.port), got, 8), 3);
	ck_assert_uint_eq(got[0].rule_id, 9);
	ck_assert_uint_eq(got[1].rule_id, 8);
	ck_assert_int_eq(got[1].field, XSKX_FILTER_SRC);
	ck_assert_int_eq(xskx_prefix_format(&got[1].prefix, text, sizeof(text)),
			 (int)strlen("2001:db8::/48"));
	ck_assert_str_eq(text, "2001:db8::/48");
	ck_assert_uint_eq(got[2].rule_id, 7);
	ck_assert_int_eq(got[2].field, XSKX_FILTER_DST);
	/* Fewer slots than entries: the count still says how many. */
	memset(got, 0, sizeof(got));
	ck_assert_int_eq(xskx_filter_list(test_port(nic.port), got, 1), 3);
	ck_assert_uint_eq(got[0].rule_id, 9);
	ck_assert_uint_eq(got[1].rule_id, 0);

	/* Adding an equal entry gives it the new rule id. */
	e = entry(XSKX_FILTER_SRC, "10.0.0.0/8", 11);
	ck_assert_int_eq(xskx_filter_add(test_port(nic.port), &e), 0);
	ck_assert_int_eq(xskx_filter_list(test_port(nic.port), got, 8), 3);
	ck_assert_uint_eq(got[0].rule_id, 11);
	inject_udp(&nic, "10.0.0.1", "203.0.113.1", 3);
	ck_assert_uint_eq(receive(&nic, arrived, FRAME_MAX), 0);
	assert_rule(test_port(nic.port), 11, 1, ID_LEN(3));
	assert_rule(test_port(nic.port), 9, 1, ID_LEN(1));

	ck_assert_int_eq(xskx_prefix_parse("10.0.0.0/8", &p), 0);
	ck_assert_int_eq(xskx_filter_del(test_port(nic.port), XSKX_FILTER_DST, &p),
			 -ENOENT);
	ck_assert_int_eq(xskx_filter_del(test_port(nic.port), XSKX_FILTER_SRC, &p), 0);
	ck_assert_int_eq(xskx_filter_del(test_port(nic.port), XSKX_FILTER_SRC, &p),
			 -ENOENT);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "10.0.0.0/8"));
	ck_assert_int_eq(xskx_filter_list(test_port(nic.port), got, 8), 2);
	inject_udp(&nic, "10.0.0.1", "203.0.113.1", 4);
	ck_assert_uint_eq(receive(&nic, arrived, FRAME_MAX), 1);
	ck_assert_uint_eq(arrived[ID_LEN(4)], 1);

	/* Deleting the last entries leaves the port's default behaviour. */
	ck_assert_int_eq(xskx_prefix_parse("192.0.2.0/24", &p), 0);
	ck_assert_int_eq(xskx_filter_del(test_port(nic.port), XSKX_FILTER_DST, &p), 0);
	ck_assert_int_eq(xskx_prefix_parse("2001:db8::/48", &p), 0);
	ck_assert_int_eq(xskx_filter_del(test_port(nic.port), XSKX_FILTER_SRC, &p), 0);
	ck_assert_int_eq(xskx_filter_list(test_port(nic.port), NULL, 0), 0);
	inject_udp(&nic, "203.0.113.1", "192.0.2.77", 5);
	ck_assert_uint_eq(receive(&nic, arrived, FRAME_MAX), 1);
	nic_destroy(&nic);
}
END_TEST

START_TEST(bad_requests_change_nothing)
{
	struct xskx_filter_entry list[2], *many;
	struct xskx_filter_entry got[4];
	struct nic nic;

	nic_create(&nic, XSKX_SIM_DETERMINISTIC, 1);
	nic.sock = open_rx(&nic, 0);
	list[0] = entry(XSKX_FILTER_SRC, "10.0.0.0/8", 1);
	ck_assert_int_eq(xskx_filter_set(test_port(nic.port), list, 1), 0);

	list[1] = list[0];
	list[1].rule_id = 2;
	ck_assert_int_eq(xskx_filter_set(test_port(nic.port), list, 2), -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "twice"));
	list[1] = entry(XSKX_FILTER_DST, "10.0.0.0/8", XSKX_FILTER_MAX_RULES);
	ck_assert_int_eq(xskx_filter_set(test_port(nic.port), list, 2), -EINVAL);
	ck_assert_int_eq(xskx_filter_add(test_port(nic.port), &list[1]), -EINVAL);
	list[1].rule_id = 2;
	list[1].prefix.addr[3] = 1; /* a host bit of a /8 */
	ck_assert_int_eq(xskx_filter_set(test_port(nic.port), list, 2), -EINVAL);
	list[1].prefix.addr[3] = 0;
	list[1].prefix.family = AF_UNIX;
	ck_assert_int_eq(xskx_filter_add(test_port(nic.port), &list[1]), -EINVAL);
	list[1].prefix.family = AF_INET;
	list[1].field = (enum xskx_filter_field)5;
	ck_assert_int_eq(xskx_filter_add(test_port(nic.port), &list[1]), -EINVAL);
	ck_assert_int_eq(xskx_filter_set(test_port(nic.port), NULL, 3), -EINVAL);
	ck_assert_int_eq(xskx_filter_set(NULL, list, 1), -EINVAL);
	ck_assert_int_eq(
		xskx_filter_rule_stats(test_port(nic.port), XSKX_FILTER_MAX_RULES,
				       &(struct xskx_filter_counters){ 0 }),
		-EINVAL);

	/* One prefix per address: 4097 distinct /32 sources. */
	many = calloc(XSKX_FILTER_MAX_ENTRIES + 1, sizeof(*many));
	ck_assert_ptr_nonnull(many);
	for (uint32_t i = 0; i <= XSKX_FILTER_MAX_ENTRIES; i++) {
		many[i].field = XSKX_FILTER_SRC;
		many[i].prefix.family = AF_INET;
		many[i].prefix.len = 32;
		many[i].prefix.addr[0] = 172;
		many[i].prefix.addr[2] = (uint8_t)(i >> 8);
		many[i].prefix.addr[3] = (uint8_t)i;
	}
	ck_assert_int_eq(xskx_filter_set(test_port(nic.port), many,
					 XSKX_FILTER_MAX_ENTRIES + 1),
			 -ENOSPC);
	ck_assert_int_eq(xskx_filter_list(test_port(nic.port), got, 4), 1);
	ck_assert_uint_eq(got[0].rule_id, 1);

	/* Full for sources: another source fails, a destination does not. */
	ck_assert_int_eq(
		xskx_filter_set(test_port(nic.port), many, XSKX_FILTER_MAX_ENTRIES), 0);
	ck_assert_int_eq(xskx_filter_add(test_port(nic.port),
					 &many[XSKX_FILTER_MAX_ENTRIES]),
			 -ENOSPC);
	ck_assert_int_eq(xskx_filter_add(test_port(nic.port), &many[0]), 0);
	many[0].field = XSKX_FILTER_DST;
	ck_assert_int_eq(xskx_filter_add(test_port(nic.port), &many[0]), 0);
	ck_assert_int_eq(xskx_filter_list(test_port(nic.port), NULL, 0),
			 XSKX_FILTER_MAX_ENTRIES + 1);
	free(many);
	nic_destroy(&nic);
}
END_TEST

START_TEST(queue_without_socket_passes)
{
	const struct xskx_filter_entry list[] = {
		entry(XSKX_FILTER_SRC, "10.0.0.0/8", 1),
	};
	uint32_t arrived[FRAME_MAX] = { 0 };
	struct xskx_sim_port_stats stats;
	struct nic nic;
	uint32_t got;

	nic_create(&nic, XSKX_SIM_DETERMINISTIC, 2);
	nic.sock = open_rx(&nic, 0);
	ck_assert_int_eq(xskx_filter_set(test_port(nic.port), list, 1), 0);
	/* Flows differ by source port: RSS spreads them over both queues. */
	for (uint32_t id = 0; id < 64; id++)
		inject_udp(&nic, "192.0.2.1", "192.0.2.2", id);
	got = receive(&nic, arrived, FRAME_MAX);
	ck_assert_int_eq(xskx_sim_port_stats(nic.port, &stats), 0);
	ck_assert_uint_eq(stats.xdp_redirect_err, 0);
	ck_assert_uint_eq(stats.xdp_drop, 0);
	ck_assert_uint_eq(stats.xdp_redirect, got);
	ck_assert_uint_gt(stats.xdp_pass, 0);
	ck_assert_uint_gt(got, 0);
	ck_assert_uint_eq(stats.xdp_pass + got, 64);
	nic_destroy(&nic);
}
END_TEST

static enum xskx_xdp_verdict drop_all(uint8_t *data, uint32_t len,
				      uint32_t queue, void *ctx)
{
	(void)data;
	(void)len;
	(void)queue;
	(void)ctx;
	return XSKX_XDP_DROP;
}

START_TEST(list_ends_with_last_socket)
{
	const struct xskx_filter_entry list[] = {
		entry(XSKX_FILTER_DST, "192.0.2.0/24", 5),
	};
	uint32_t arrived[FRAME_MAX] = { 0 };
	struct xskx_socket *second;
	struct nic nic;

	nic_create(&nic, XSKX_SIM_DETERMINISTIC, 1);
	nic.sock = open_rx(&nic, 0);
	ck_assert_int_eq(xskx_filter_set(test_port(nic.port), list, 1), 0);
	inject_udp(&nic, "203.0.113.1", "192.0.2.1", 1);
	ck_assert_uint_eq(receive(&nic, arrived, FRAME_MAX), 0);
	assert_rule(test_port(nic.port), 5, 1, ID_LEN(1));
	ck_assert_int_eq(xskx_socket_close(nic.sock), 0);

	nic.sock = open_rx(&nic, 0);
	ck_assert_int_eq(xskx_filter_list(test_port(nic.port), NULL, 0), 0);
	assert_rule(test_port(nic.port), 5, 0, 0);
	inject_udp(&nic, "203.0.113.1", "192.0.2.1", 2);
	ck_assert_uint_eq(receive(&nic, arrived, FRAME_MAX), 1);

	/* The list is the port's: a second socket sees and shares it. */
	ck_assert_int_eq(xskx_filter_set(test_port(nic.port), list, 1), 0);
	{
		XSKX_OPTS(xskx_socket_opts, opts, .port = test_port(nic.port),
			  .queue_id = 0, .flags = XSKX_SOCKET_NO_RX);

		ck_assert_int_eq(xskx_socket_open(&second, nic.umem, &opts), 0);
	}
	ck_assert_int_eq(xskx_filter_list(test_port(nic.port), NULL, 0), 1);
	ck_assert_int_eq(xskx_socket_close(nic.sock), 0);
	nic.sock = NULL;
	ck_assert_int_eq(xskx_filter_list(test_port(nic.port), NULL, 0), 1);
	ck_assert_int_eq(xskx_socket_close(second), 0);

	/* A hook of the user's own stays when no list is ever set. */
	ck_assert_int_eq(xskx_sim_port_set_xdp(nic.port, drop_all, NULL), 0);
	nic.sock = open_rx(&nic, 0);
	ck_assert_int_eq(xskx_filter_set(test_port(nic.port), NULL, 0), 0);
	ck_assert_int_eq(xskx_socket_close(nic.sock), 0);
	nic.sock = open_rx(&nic, 0);
	inject_udp(&nic, "203.0.113.1", "192.0.2.1", 3);
	ck_assert_uint_eq(receive(&nic, arrived, FRAME_MAX), 0);
	nic_destroy(&nic);
}
END_TEST

/*
 * The NIC thread runs a source whose every packet (10.0.0.1 -> 10.0.0.2)
 * one list denies by source and the other by destination, while the test
 * replaces one list with the other as fast as it can. A replacement that
 * showed a packet no list, or half of one, would let it through.
 */
#define SOURCE_PACKETS 20000u
#define MAX_SWAPS 1000000u
#define SWAP_TIME_LIMIT_S 60

START_TEST(replace_is_atomic_threaded)
{
	/*
	 * Paced so that the traffic lasts about 0.2 s: unpaced, a NIC thread
	 * with a CPU to itself can send everything while this thread waits
	 * for one, and no replacement would overlap the traffic.
	 */
	XSKX_OPTS(xskx_sim_source_opts, source, .count = SOURCE_PACKETS,
		  .flows = 16, .rate_pps = SOURCE_PACKETS * 5);
	const struct xskx_filter_entry by_src[] = {
		entry(XSKX_FILTER_SRC, "10.0.0.1", 1),
		entry(XSKX_FILTER_DST, "192.0.2.0/24", 3),
	};
	const struct xskx_filter_entry by_dst[] = {
		entry(XSKX_FILTER_DST, "10.0.0.0/30", 2),
	};
	struct xskx_filter_counters c1, c2;
	struct xskx_sim_port_stats stats;
	struct timespec start, now;
	struct xskx_pkt pkts[64];
	uint32_t received = 0, swaps = 0;
	struct nic nic;

	nic_create(&nic, XSKX_SIM_THREADED, 2);
	ck_assert_int_eq(xskx_sim_port_add_source(nic.port, &source), 0);
	nic.sock = open_rx(&nic, 0);
	ck_assert_int_eq(xskx_filter_set(test_port(nic.port), by_src, 2), 0);
	ck_assert_int_eq(xskx_sim_start(nic.sim), 0);
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		int n;

		ck_assert_int_eq(xskx_filter_set(test_port(nic.port),
						 swaps % 2 ? by_src : by_dst,
						 swaps % 2 ? 2 : 1),
				 0);
		n = xskx_rx_burst(nic.sock, pkts, 64);
		ck_assert_int_ge(n, 0);
		xskx_rx_release(nic.sock, pkts, (uint32_t)n);
		received += (uint32_t)n;
		ck_assert_int_eq(xskx_sim_port_stats(nic.port, &stats), 0);
		clock_gettime(CLOCK_MONOTONIC, &now);
		ck_assert_msg(now.tv_sec - start.tv_sec < SWAP_TIME_LIMIT_S,
			      "the source sent %llu of %u packets in %d s",
			      (unsigned long long)stats.source_packets,
			      SOURCE_PACKETS, SWAP_TIME_LIMIT_S);
	} while (++swaps < MAX_SWAPS && stats.xdp_drop + stats.xdp_pass +
							stats.xdp_redirect +
							stats.rx_missed <
						SOURCE_PACKETS);
	ck_assert_int_eq(xskx_sim_stop(nic.sim), 0);

	ck_assert_uint_eq(received, 0);
	ck_assert_uint_eq(stats.xdp_pass + stats.xdp_redirect, 0);
	ck_assert_int_eq(xskx_filter_rule_stats(test_port(nic.port), 1, &c1), 0);
	ck_assert_int_eq(xskx_filter_rule_stats(test_port(nic.port), 2, &c2), 0);
	ck_assert_uint_eq(c1.packets + c2.packets, stats.xdp_drop);
	ck_assert_uint_eq(stats.xdp_drop + stats.rx_missed, SOURCE_PACKETS);
	ck_assert_uint_gt(swaps, 2);
	nic_destroy(&nic);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("filter_sim");
	const struct {
		const char *name;
		const TTest *test;
	} cases[] = {
		{ "deny_by_prefix", deny_by_prefix },
		{ "add_del_list", add_del_list },
		{ "bad_requests_change_nothing", bad_requests_change_nothing },
		{ "queue_without_socket_passes", queue_without_socket_passes },
		{ "list_ends_with_last_socket", list_ends_with_last_socket },
		{ "replace_is_atomic_threaded", replace_is_atomic_threaded },
	};

	test_log_capture();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		TCase *tc = tcase_create(cases[i].name);

		tcase_set_timeout(tc, 120);
		tcase_add_test(tc, cases[i].test);
		suite_add_tcase(s, tc);
	}
	return test_main(s, argc, argv);
}
