// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The deny list through the kernel's XDP program, on a veth pair inside a
 * private network namespace (tests/veth/netns.c): crafted frames sent on
 * one end through an AF_PACKET socket, an xskx socket on the other. Denied
 * packets never reach the socket and count (packets, bytes) for their rule
 * and in the program's "dropped" verdict (behind VLAN tags, for later
 * fragments and IPv4 options too); the rest arrive. Replacing the
 * list under traffic lets nothing through; add, del and list work on the
 * maps; a program without the deny list's maps is refused with -ENOENT; the
 * list ends with the interface's last socket. Native and generic XDP. Needs
 * root; exits 77 without it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "frames.h"
#include "helpers.h"
#include "netns.h"
#include "xskx_test_drop_half_bpf.h"

#define XSK_END "xfv0"
#define RAW_END "xfv1"
#define ID_LEN(id) (100u + (id))
#define TIME_LIMIT_S 10
#define MAX_ROUNDS 100000u
#define ETH_P_TEST 0x88b5

struct rig {
	struct xskx_port *port;
	struct xskx_umem *umem;
	struct xskx_socket *sock;
	int raw;
	int ifindex;
	uint32_t arrived[FRAME_MAX];
	uint32_t received;
};

static void open_socket(struct rig *r, enum xskx_xdp_mode mode, const void *obj,
			size_t obj_size, uint32_t flags)
{
	XSKX_OPTS(xskx_port_opts, port_opts, .xdp_mode = mode, .xdp_obj = obj,
		  .xdp_obj_size = obj_size);
	XSKX_OPTS(xskx_socket_opts, opts, .queue_id = 0,
		  .flags = flags | XSKX_SOCKET_NO_TX);

	ck_assert_msg(!xskx_port_open(&r->port, XSK_END, &port_opts), "%s",
		      xskx_last_error());
	opts.port = r->port;
	ck_assert_msg(!xskx_socket_open(&r->sock, r->umem, &opts), "%s",
		      xskx_last_error());
	/* The UMEM's only receiving socket: a first burst posts its share. */
	ck_assert_int_eq(xskx_rx_burst(r->sock, NULL, 0), 0);
}

/* The socket, then its port: the program goes with the last one. */
static void close_socket(struct rig *r)
{
	ck_assert_int_eq(xskx_socket_close(r->sock), 0);
	ck_assert_int_eq(xskx_port_close(r->port), 0);
	r->sock = NULL;
	r->port = NULL;
}

static void rig_create(struct rig *r, enum xskx_xdp_mode mode)
{
	struct veth_pair_opts pair = { .name = XSK_END, .peer = RAW_END };
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };

	memset(r, 0, sizeof(*r));
	ck_assert_int_eq(veth_pair_create(&pair), 0);
	ck_assert_msg(!xskx_umem_create(&r->umem, NULL), "%s",
		      xskx_last_error());
	open_socket(r, mode, NULL, 0, 0);
	r->ifindex = (int)if_nametoindex(RAW_END);
	ck_assert_int_gt(r->ifindex, 0);
	/* Protocol 0: this socket only sends. */
	r->raw = socket(AF_PACKET, SOCK_RAW, 0);
	ck_assert_msg(r->raw >= 0, "AF_PACKET socket: %s", strerror(errno));
	sll.sll_ifindex = r->ifindex;
	ck_assert_msg(!bind(r->raw, (struct sockaddr *)&sll, sizeof(sll)),
		      "bind: %s", strerror(errno));
}

static void rig_destroy(struct rig *r)
{
	close(r->raw);
	if (r->sock)
		close_socket(r);
	ck_assert_int_eq(xskx_umem_destroy(r->umem), 0);
	veth_pair_delete(XSK_END);
}

static void send_frame(struct rig *r, const uint8_t *f, uint32_t len)
{
	ck_assert_msg(send(r->raw, f, len, 0) == (ssize_t)len, "send: %s",
		      strerror(errno));
}

static uint32_t send_udp(struct rig *r, const char *src, const char *dst,
			 uint32_t id)
{
	uint8_t f[FRAME_MAX];

	frame_udp_packet(f, src, dst, (uint16_t)id);
	send_frame(r, f, ID_LEN(id));
	return ID_LEN(id);
}

/*
 * Receive until expected packets arrived and the program has seen
 * every packet sent (verdict counters), bounded in rounds and time.
 */
static void receive(struct rig *r, uint64_t sent, uint32_t expected)
{
	struct timespec start, now;
	struct xskx_pkt pkts[64];

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (uint32_t round = 0; round < MAX_ROUNDS; round++) {
		struct xskx_xdp_verdicts v;
		int n = xskx_rx_burst(r->sock, pkts, 64);

		ck_assert_int_ge(n, 0);
		for (int i = 0; i < n; i++) {
			ck_assert_uint_lt(pkts[i].len, FRAME_MAX);
			r->arrived[pkts[i].len]++;
		}
		xskx_rx_release(r->sock, pkts, (uint32_t)n);
		r->received += (uint32_t)n;
		ck_assert_int_eq(xskx_xdp_prog_stats(XSK_END, &v), 0);
		if (r->received >= expected &&
		    v.redirected + v.dropped + v.passed >= sent)
			return;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec >= TIME_LIMIT_S)
			break;
		usleep(100);
	}
	ck_abort_msg("received %u of %u packets in time", r->received,
		     expected);
}

static struct xskx_filter_entry entry(enum xskx_filter_field field,
				      const char *prefix, uint32_t rule)
{
	struct xskx_filter_entry e = { .field = field, .rule_id = rule };

	ck_assert_msg(!xskx_prefix_parse(prefix, &e.prefix), "%s",
		      xskx_last_error());
	return e;
}

static void assert_rule(struct rig *r, uint32_t rule, uint64_t packets,
			uint64_t bytes)
{
	struct xskx_filter_counters c;

	ck_assert_msg(!xskx_filter_rule_stats(r->port, rule, &c), "%s",
		      xskx_last_error());
	ck_assert_msg(c.packets == packets && c.bytes == bytes,
		      "rule %u: %llu packets, %llu bytes; expected %llu, %llu",
		      rule, (unsigned long long)c.packets,
		      (unsigned long long)c.bytes, (unsigned long long)packets,
		      (unsigned long long)bytes);
}

static void deny_by_prefix(enum xskx_xdp_mode mode)
{
	const struct xskx_filter_entry list[] = {
		entry(XSKX_FILTER_SRC, "10.0.0.0/8", 1),
		entry(XSKX_FILTER_SRC, "10.1.0.0/16", 3),
		entry(XSKX_FILTER_DST, "2001:db8::/32", 2),
	};
	uint64_t bytes[4] = { 0 }, packets[4] = { 0 };
	struct xskx_xdp_verdicts v;
	uint8_t f[FRAME_MAX];
	struct rig r;
	uint32_t off;

	rig_create(&r, mode);
	ck_assert_msg(!xskx_filter_set(r.port, list, 3), "%s",
		      xskx_last_error());
	bytes[1] += send_udp(&r, "10.2.3.4", "192.0.2.1", 1), packets[1]++;
	bytes[3] += send_udp(&r, "10.1.2.3", "192.0.2.1", 2), packets[3]++;
	send_udp(&r, "192.0.2.9", "192.0.2.1", 3);
	bytes[2] += send_udp(&r, "2001:db9::1", "2001:db8::5", 4), packets[2]++;
	send_udp(&r, "2001:db9::1", "2001:db9::5", 5);
	/* A later fragment, and IPv4 options: the addresses suffice. */
	off = frame_eth(f, NULL, 0, ETHERTYPE_IPV4);
	frame_ipv4(f, off, IPPROTO_UDP, "10.5.5.5", "192.0.2.1", 5, 100);
	frame_ip_length(f, off, ID_LEN(6));
	send_frame(&r, f, ID_LEN(6));
	bytes[1] += ID_LEN(6), packets[1]++;
	off = frame_eth(f, NULL, 0, ETHERTYPE_IPV4);
	off = frame_ipv4(f, off, IPPROTO_UDP, "10.5.5.5", "192.0.2.1", 9, 0);
	frame_ip_length(f, 14, frame_udp(f, off, 1, 2));
	send_frame(&r, f, ID_LEN(7));
	bytes[1] += ID_LEN(7), packets[1]++;
	/* Behind two VLAN tags. */
	off = frame_eth(f, (const uint16_t[]){ TPID_8021AD, TPID_8021Q }, 2,
			ETHERTYPE_IPV4);
	off = frame_ipv4(f, off, IPPROTO_UDP, "10.5.5.5", "192.0.2.1", 5, 0);
	frame_ip_length(f, 22, frame_udp(f, off, 1, 2));
	send_frame(&r, f, ID_LEN(10));
	bytes[1] += ID_LEN(10), packets[1]++;
	/* Not IP, and IHL 4: nothing to judge by. */
	frame_eth(f, NULL, 0, ETH_P_TEST);
	send_frame(&r, f, ID_LEN(8));
	off = frame_eth(f, NULL, 0, ETHERTYPE_IPV4);
	frame_ipv4(f, off, IPPROTO_UDP, "10.5.5.5", "192.0.2.1", 4, 0);
	send_frame(&r, f, ID_LEN(9));
	/* A total length below the header's: malformed, not judged (as
	 * xskx_pkt_parse) ... */
	frame_ipv4(f, off, IPPROTO_UDP, "10.5.5.5", "192.0.2.1", 5, 0);
	frame_ip_length(f, off, off + 19);
	send_frame(&r, f, ID_LEN(11));
	/* ... one past the frame: truncated, judged by its addresses. */
	frame_ip_length(f, off, ID_LEN(12) + 1);
	send_frame(&r, f, ID_LEN(12));
	bytes[1] += ID_LEN(12), packets[1]++;

	receive(&r, 12, 5);
	for (uint32_t id = 1; id <= 12; id++) {
		bool expected = id == 3 || id == 5 || id == 8 || id == 9 ||
				id == 11;

		ck_assert_msg(r.arrived[ID_LEN(id)] == expected,
			      "packet %u arrived %u times, expected %d", id,
			      r.arrived[ID_LEN(id)], expected);
	}
	for (uint32_t rule = 1; rule <= 3; rule++)
		assert_rule(&r, rule, packets[rule], bytes[rule]);
	ck_assert_int_eq(xskx_xdp_prog_stats(XSK_END, &v), 0);
	ck_assert_uint_eq(v.dropped, 7);
	ck_assert_uint_eq(v.redirected, 5);
	rig_destroy(&r);
}

#define SWAP_PACKETS 400u

static void replace_add_del(enum xskx_xdp_mode mode)
{
	const struct xskx_filter_entry by_src[] = {
		entry(XSKX_FILTER_SRC, "10.0.0.1", 1),
	};
	const struct xskx_filter_entry by_dst[] = {
		entry(XSKX_FILTER_DST, "10.0.0.0/30", 2),
		entry(XSKX_FILTER_DST, "2001:db8::/64", 4),
	};
	struct xskx_filter_counters c1, c2;
	struct xskx_filter_entry got[4], e;
	struct xskx_prefix p;
	struct rig r;

	rig_create(&r, mode);
	ck_assert_int_eq(xskx_filter_set(r.port, by_src, 1), 0);
	/* Every packet is denied by either list: none may slip through. */
	for (uint32_t i = 0; i < SWAP_PACKETS; i++) {
		send_udp(&r, "10.0.0.1", "10.0.0.2", i % 64);
		if (i % 8 == 0)
			ck_assert_msg(!xskx_filter_set(r.port,
						       i % 16 ? by_src : by_dst,
						       i % 16 ? 1 : 2),
				      "%s", xskx_last_error());
	}
	receive(&r, SWAP_PACKETS, 0);
	ck_assert_uint_eq(r.received, 0);
	ck_assert_int_eq(xskx_filter_rule_stats(r.port, 1, &c1), 0);
	ck_assert_int_eq(xskx_filter_rule_stats(r.port, 2, &c2), 0);
	ck_assert_uint_eq(c1.packets + c2.packets, SWAP_PACKETS);
	ck_assert_uint_gt(c2.packets, 0);

	/* The last set was by_src (i = 392); now by_dst, then changes. */
	ck_assert_int_eq(xskx_filter_set(r.port, by_dst, 2), 0);
	ck_assert_int_eq(xskx_filter_list(r.port, got, 4), 2);
	ck_assert_mem_eq(&got[0], &by_dst[0], sizeof(got[0]));
	ck_assert_mem_eq(&got[1], &by_dst[1], sizeof(got[1]));
	e = entry(XSKX_FILTER_SRC, "192.0.2.0/25", 7);
	ck_assert_int_eq(xskx_filter_add(r.port, &e), 0);
	e.rule_id = 8;
	ck_assert_int_eq(xskx_filter_add(r.port, &e), 0);
	ck_assert_int_eq(xskx_filter_list(r.port, got, 4), 3);
	ck_assert_mem_eq(&got[0], &e, sizeof(e));
	ck_assert_int_eq(xskx_prefix_parse("10.0.0.0/30", &p), 0);
	ck_assert_int_eq(xskx_filter_del(r.port, XSKX_FILTER_DST, &p), 0);
	ck_assert_int_eq(xskx_filter_del(r.port, XSKX_FILTER_DST, &p), -ENOENT);
	ck_assert_int_eq(xskx_filter_list(r.port, got, 4), 2);

	memset(r.arrived, 0, sizeof(r.arrived));
	send_udp(&r, "10.0.0.1", "10.0.0.2", 1);    /* deleted: arrives */
	send_udp(&r, "192.0.2.100", "10.0.0.2", 2); /* rule 8 */
	send_udp(&r, "192.0.2.200", "10.0.0.2", 3); /* outside the /25 */
	receive(&r, SWAP_PACKETS + 3, 2);
	ck_assert_uint_eq(r.arrived[ID_LEN(1)], 1);
	ck_assert_uint_eq(r.arrived[ID_LEN(2)], 0);
	ck_assert_uint_eq(r.arrived[ID_LEN(3)], 1);
	assert_rule(&r, 8, 1, ID_LEN(2));
	assert_rule(&r, 7, 0, 0);
	rig_destroy(&r);
}

static void list_ends_with_last_socket(enum xskx_xdp_mode mode)
{
	const struct xskx_filter_entry list[] = {
		entry(XSKX_FILTER_DST, "192.0.2.0/24", 5),
	};
	struct rig r;

	rig_create(&r, mode);
	ck_assert_int_eq(xskx_filter_set(r.port, list, 1), 0);
	close_socket(&r);
	open_socket(&r, mode, NULL, 0, 0);
	ck_assert_int_eq(xskx_filter_list(r.port, NULL, 0), 0);
	assert_rule(&r, 5, 0, 0);
	send_udp(&r, "203.0.113.1", "192.0.2.1", 1);
	receive(&r, 1, 1);
	rig_destroy(&r);
}

/* A program built on xskx_maps.bpf.h that never consults the deny list. */
static void program_without_deny_list(enum xskx_xdp_mode mode)
{
	struct xskx_filter_entry e = entry(XSKX_FILTER_SRC, "10.0.0.0/8", 1);
	struct xskx_socket *tx_only;
	struct rig r;

	rig_create(&r, mode);
	close_socket(&r);
	open_socket(&r, mode, xskx_test_drop_half_bpf_elf,
		    xskx_test_drop_half_bpf_elf_size, 0);
	ck_assert_int_eq(xskx_filter_set(r.port, &e, 1), -ENOENT);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "xskx_filter_denied"));
	ck_assert_int_eq(xskx_filter_list(r.port, NULL, 0), -ENOENT);
	ck_assert_int_eq(xskx_socket_close(r.sock), 0);
	r.sock = NULL;
	/* A port whose only socket sends has no program: no deny list. */
	{
		XSKX_OPTS(xskx_socket_opts, opts, .port = r.port,
			  .flags = XSKX_SOCKET_NO_RX);

		ck_assert_int_eq(xskx_socket_open(&tx_only, r.umem, &opts), 0);
	}
	ck_assert_int_eq(xskx_filter_add(r.port, &e), -ENOENT);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "RX ring"));
	ck_assert_int_eq(xskx_socket_close(tx_only), 0);
	ck_assert_int_eq(xskx_port_close(r.port), 0);
	r.port = NULL;
	rig_destroy(&r);
}

#define MODE_CASES(name)                                                       \
	START_TEST(name##_native)                                              \
	{                                                                      \
		name(XSKX_XDP_NATIVE);                                         \
	}                                                                      \
	END_TEST                                                               \
	START_TEST(name##_generic)                                             \
	{                                                                      \
		name(XSKX_XDP_GENERIC);                                        \
	}                                                                      \
	END_TEST

MODE_CASES(deny_by_prefix)
MODE_CASES(replace_add_del)
MODE_CASES(list_ends_with_last_socket)
MODE_CASES(program_without_deny_list)

int main(int argc, char **argv)
{
	Suite *s = suite_create("filter_veth");
	const struct {
		const char *name;
		const TTest *test;
	} cases[] = {
		{ "deny_by_prefix_native", deny_by_prefix_native },
		{ "deny_by_prefix_generic", deny_by_prefix_generic },
		{ "replace_add_del_native", replace_add_del_native },
		{ "replace_add_del_generic", replace_add_del_generic },
		{ "list_ends_with_last_socket_native",
		  list_ends_with_last_socket_native },
		{ "list_ends_with_last_socket_generic",
		  list_ends_with_last_socket_generic },
		{ "program_without_deny_list_native",
		  program_without_deny_list_native },
		{ "program_without_deny_list_generic",
		  program_without_deny_list_generic },
	};

	veth_sandbox_enter();
	test_log_capture();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		TCase *tc = tcase_create(cases[i].name);

		tcase_set_timeout(tc, 120);
		tcase_add_test(tc, cases[i].test);
		suite_add_tcase(s, tc);
	}
	return test_main(s, argc, argv);
}
