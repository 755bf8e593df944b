// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The frame-sharing policy on real AF_XDP sockets: xskx-l2fwd's forwarding
 * core with a small UMEM (256 and 1024 frames), traffic one way only
 * (outerA -> inA -> inB -> outB; inB receives nothing), as in the report
 * where --frames 1024 forwarded 768 packets and then nothing: the idle
 * port's FILL swallowed every frame the TX completions returned.
 *
 * Asserts: at least 99% of PACKETS arrive at outB; a final probe sent after
 * the stream still gets through; the UMEM is whole after closing
 * (fwd_close: xskx_umem_destroy returns -EIO when a frame is missing).
 * In the test's own network namespace; root only, 77 otherwise.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/if_packet.h>

#include "example_veth.h"
#include "fwd.h"
#include "helpers.h"
#include "netns.h"

#define OUTER_A "xsua0"
#define IN_A "xsua1"
#define IN_B "xsub1"
#define OUTER_B "xsub0"

#define PACKETS 3000u
#define PROBE_SEQ 0xfffffff0u
#define SEND_PER_ROUND 4u
#define MAX_ROUNDS 400000u
#define TIME_LIMIT_S 30
#define PKT_LEN 96u
#define ETH_P_TEST 0x88b5

static void build_frame(uint8_t *f, uint32_t seq)
{
	memset(f, 0, PKT_LEN);
	memcpy(f, veth_mac_b, 6);
	memcpy(f + 6, veth_mac_a, 6);
	f[12] = ETH_P_TEST >> 8;
	f[13] = ETH_P_TEST & 0xff;
	memcpy(f + 14, &seq, sizeof(seq));
}

/* Count the test frames that arrived on fd (not our own outgoing ones). */
static void drain(int fd, uint8_t *seen, uint32_t *received, bool *probe)
{
	for (uint32_t i = 0; i < 4 * PACKETS; i++) {
		uint8_t f[PKT_LEN + 64];
		ssize_t n = example_raw_recv(fd, f, sizeof(f));
		uint32_t seq;

		if (n < 0)
			return;
		if (!n || n < 18)
			continue;
		memcpy(&seq, f + 14, sizeof(seq));
		if (seq == PROBE_SEQ)
			*probe = true;
		else if (seq < PACKETS && !seen[seq]++)
			(*received)++;
	}
}

static const char *const inner[] = { IN_A, IN_B };

static void one_way(uint32_t frames)
{
	static uint8_t seen[PACKETS];
	struct fwd_config cfg = {
		.nports = 2,
		.frames = frames,
	};
	struct fwd_queue q;
	struct timespec deadline;
	uint32_t sent = 0, received = 0;
	bool probe = false, probe_sent = false;
	uint8_t f[PKT_LEN];
	int a, b;

	memset(seen, 0, sizeof(seen));
	example_veth_pairs_create(OUTER_A, IN_A, OUTER_B, IN_B);
	example_ports_open(cfg.ports, inner, 2, XSKX_XDP_NATIVE);
	ck_assert_msg(!fwd_open(&q, &cfg), "fwd_open: %s", xskx_last_error());
	a = example_raw_socket(OUTER_A, ETH_P_TEST);
	b = example_raw_socket(OUTER_B, ETH_P_TEST);
	deadline = example_deadline(TIME_LIMIT_S);
	for (uint32_t round = 0; !probe; round++) {
		int moved;

		if (round >= MAX_ROUNDS || example_past(&deadline))
			break;
		/* A modest rate: a few frames, then the forwarder, a pause. */
		for (uint32_t n = 0; n < SEND_PER_ROUND && sent < PACKETS; n++) {
			build_frame(f, sent++);
			ck_assert_int_eq(send(a, f, PKT_LEN, 0), PKT_LEN);
		}
		if (sent == PACKETS && !probe_sent &&
		    (received == PACKETS || round % 256 == 0)) {
			/* After the stream: forwarding must still work. */
			build_frame(f, PROBE_SEQ);
			ck_assert_int_eq(send(a, f, PKT_LEN, 0), PKT_LEN);
			probe_sent = received == PACKETS || round > 200000;
		}
		moved = fwd_step(&q);
		ck_assert_msg(moved >= 0, "fwd_step: %s", xskx_strerror(moved));
		drain(b, seen, &received, &probe);
		if (!moved)
			poll(NULL, 0, 1);
	}
	ck_assert_msg(received * 100u >= PACKETS * 99u,
		      "%u frames: %u of %u forwarded one way (rx %llu, tx %llu)",
		      frames, received, PACKETS,
		      (unsigned long long)q.ports[0].count.rx,
		      (unsigned long long)q.ports[1].count.tx);
	ck_assert_msg(probe, "%u frames: a probe after the stream never got through",
		      frames);
	fwd_finish(&q);
	ck_assert_msg(!fwd_close(&q), "%u frames: closing: %s", frames,
		      xskx_last_error());
	example_ports_close(cfg.ports, 2);
	example_assert_no_xdp_program(IN_A);
	example_assert_no_xdp_program(IN_B);
}

START_TEST(one_way_256_frames)
{
	one_way(256);
}
END_TEST

START_TEST(one_way_1024_frames)
{
	one_way(1024);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("l2fwd_small_umem_veth");

	veth_sandbox_enter();
	example_add_case(s, "one_way_256_frames", one_way_256_frames,
			 2 * TIME_LIMIT_S + 10);
	example_add_case(s, "one_way_1024_frames", one_way_1024_frames,
			 2 * TIME_LIMIT_S + 10);
	return test_main(s, argc, argv);
}
