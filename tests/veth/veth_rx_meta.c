// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * RX metadata on veth beyond the RX_METADATA scenario: a VLAN tag given
 * out of band. A UDP frame (documentation addresses) sent from A through
 * an AF_PACKET socket leaves A with the tag VID 100 in skb->vlan_tci, put
 * there by a TC egress program (tc_vlan_push.bpf.c: bpf_skb_vlan_push(),
 * what a VLAN device does on a device that offloads VLAN insertion; this
 * kernel has no 8021q), and reaches B's socket; with XSKX_PORT_RX_METADATA
 * in native mode the struct in front of it reports the tag
 * (XSKX_RX_META_VLAN_TAG, 0x8100, VID 100), in generic mode valid is 0;
 * in both modes the frame arrives untagged: the tag never enters the
 * bytes an XDP program or the socket sees.
 */
#include <arpa/inet.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "frames.h"
#include "helpers.h"
#include "netns.h"
#include "peer_veth.h"
#include "veth_cases.h"
#include "veth_io.h"
#include "xskx_test_tc_vlan_push_bpf.h"

#define VID 100
#define WAIT_MS 5000

/* Send frame[0..len) on ifname through an AF_PACKET socket. */
static void send_raw(const char *ifname, const uint8_t *frame, uint32_t len)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_protocol = htons(ETHERTYPE_IPV4),
				   .sll_halen = 6 };
	int fd = socket(AF_PACKET, SOCK_RAW, htons(ETHERTYPE_IPV4));

	ck_assert_msg(fd >= 0, "AF_PACKET socket: %s", strerror(errno));
	sll.sll_ifindex = (int)if_nametoindex(ifname);
	memcpy(sll.sll_addr, frame, 6);
	ck_assert_int_eq(sendto(fd, frame, len, 0, (struct sockaddr *)&sll,
				sizeof(sll)),
			 (ssize_t)len);
	close(fd);
}

/*
 * The received frame carrying the UDP datagram of sent (its IP header on)
 * behind an untagged Ethernet header, the tag having stayed out of band;
 * false when none came within WAIT_MS.
 */
static bool receive_datagram(struct veth_end *end, const uint8_t *sent,
			     uint32_t sent_len, struct xskx_pkt *got)
{
	struct timespec deadline;

	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += WAIT_MS / 1000;
	for (;;) {
		struct timespec now;
		int n = xskx_rx_burst(end->sock, got, 1);

		ck_assert_int_ge(n, 0);
		if (n == 1) {
			if (got->len == sent_len &&
			    !memcmp(got->data + 14, sent + 14, sent_len - 14))
				return true;
			ck_assert_int_eq(xskx_rx_release(end->sock, got, 1), 0);
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > deadline.tv_sec ||
		    (now.tv_sec == deadline.tv_sec &&
		     now.tv_nsec > deadline.tv_nsec))
			return false;
		usleep(1000);
	}
}

/* The TC program on ifname's egress; the object to close at the end. */
static struct bpf_object *tag_egress(const char *ifname)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .attach_point = BPF_TC_EGRESS);
	LIBBPF_OPTS(bpf_tc_opts, tc);
	struct bpf_object *obj = bpf_object__open_mem(
		xskx_test_tc_vlan_push_bpf_elf,
		xskx_test_tc_vlan_push_bpf_elf_size, NULL);
	int err;

	ck_assert_ptr_nonnull(obj);
	ck_assert_int_eq(bpf_object__load(obj), 0);
	hook.ifindex = (int)if_nametoindex(ifname);
	err = bpf_tc_hook_create(&hook);
	ck_assert_msg(!err || err == -EEXIST, "clsact on %s: %s", ifname,
		      strerror(-err));
	tc.prog_fd = bpf_program__fd(
		bpf_object__find_program_by_name(obj, "tc_vlan_push"));
	ck_assert_int_eq(bpf_tc_attach(&hook, &tc), 0);
	return obj;
}

static void vlan_offloaded(enum xskx_xdp_mode mode)
{
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B };
	XSKX_OPTS(xskx_port_opts, po, .xdp_mode = mode,
		  .flags = XSKX_PORT_RX_METADATA);
	struct veth_end_opts eo = { .ifname = PEER_VETH_B, .mode = mode,
				    .flags = XSKX_SOCKET_NO_TX };
	const struct xskx_rx_meta *m;
	uint8_t frame[FRAME_MAX];
	struct xskx_port *port;
	struct veth_end end;
	struct bpf_object *tagger;
	struct xskx_pkt pkt;
	uint32_t len;

	ck_assert_int_eq(veth_pair_create(&pair), 0);
	tagger = tag_egress(PEER_VETH_A);
	ck_assert_msg(!xskx_port_open(&port, PEER_VETH_B, &po), "%s",
		      xskx_last_error());
	eo.port = port;
	ck_assert_msg(veth_end_open(&end, &eo) == 0, "%s", xskx_last_error());
	len = frame_udp_packet(frame, "192.0.2.1", "192.0.2.2", 1000);
	send_raw(PEER_VETH_A, frame, len);
	ck_assert_msg(receive_datagram(&end, frame, len, &pkt),
		      "the datagram sent from %s did not arrive", PEER_VETH_A);
	m = xskx_pkt_rx_meta(end.sock, &pkt);
	ck_assert_ptr_nonnull(m);
	if (mode == XSKX_XDP_NATIVE) {
		ck_assert_uint_eq(m->valid, XSKX_RX_META_TIMESTAMP |
						    XSKX_RX_META_HASH |
						    XSKX_RX_META_VLAN_TAG);
		ck_assert_uint_eq(m->vlan_proto, TPID_8021Q);
		ck_assert_uint_eq(m->vlan_tci & 0x0fff, VID);
	} else {
		ck_assert_uint_eq(m->valid, 0);
	}
	ck_assert_int_eq(xskx_rx_release(end.sock, &pkt, 1), 0);
	veth_end_close(&end);
	ck_assert_int_eq(xskx_port_close(port), 0);
	veth_pair_delete(PEER_VETH_A);
	bpf_object__close(tagger);
}

START_TEST(vlan_offloaded_generic)
{
	vlan_offloaded(XSKX_XDP_GENERIC);
}
END_TEST

START_TEST(vlan_offloaded_native)
{
	vlan_offloaded(XSKX_XDP_NATIVE);
}
END_TEST

void add_rx_meta_cases(Suite *suite)
{
	veth_add_case(suite, "RX_METADATA_VLAN_generic", vlan_offloaded_generic);
	veth_add_case(suite, "RX_METADATA_VLAN_native", vlan_offloaded_native);
}
