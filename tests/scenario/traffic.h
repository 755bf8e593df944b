/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Traffic over a link: send a stream from one port, receive it on the
 * other, and check every received packet as the selftests do — in order,
 * none missing or extra, the right length, the payload intact, the data at
 * XDP_PACKET_HEADROOM + the UMEM headroom inside its frame — and that every
 * transmitted frame completes.
 *
 * The transmitter uses the burst API (xskx_tx_burst) unless the scenario
 * gives raw descriptors: then it writes them on the TX ring by hand, as the
 * selftests do to send invalid ones, from frames the link holds
 * (link_config.hold_all_frames), and checks the COMPLETION ring itself.
 */
#ifndef XSKX_TEST_TRAFFIC_H
#define XSKX_TEST_TRAFFIC_H

#include <stdbool.h>
#include <stdint.h>

#include "link.h"
#include "stream.h"

/*
 * One TX descriptor written by hand, and whether the peer must accept it.
 * With XDP_PKT_CONTD in options it chains to the next one: a chain is one
 * packet, whose sequence number is its first descriptor's index and whose
 * bytes are spread over its descriptors in order; valid is then the same
 * for every descriptor of the chain.
 */
struct raw_desc {
	const char *what; /* named in failure messages */
	uint64_t addr;
	uint32_t len;
	uint32_t options;
	bool valid;
};

struct traffic_opts {
	enum test_port from; /* the transmitting port; the other receives */
	uint32_t batch;	     /* packets per burst; 0: 64 */
	/*
	 * Packets sent but not yet received, at most (the selftests pace
	 * their sender too: a veth pair drops what its peer cannot take).
	 * 0: 128.
	 */
	uint32_t window;
	bool poll_rx; /* receive only when xskx_socket_poll says POLLIN */
	bool poll_tx; /* send only when xskx_socket_poll says POLLOUT */
	/* The receiver accepts gaps: what arrives is in order, not all of it. */
	bool allow_loss;
	/* Transmit these stream->count descriptors by hand (NULL: burst API). */
	const struct raw_desc *raw;
	/*
	 * With raw: wake the peer after each batch with one bare sendto()
	 * (its simulated equivalent on the simulated NIC) and check that,
	 * with more descriptors queued than the kernel's copy-mode TX budget
	 * (32 a call), it consumed exactly that budget: the selftests'
	 * check_consumer.
	 */
	bool check_consumer;
	/*
	 * The receiving port's XDP program resizes every packet by this many
	 * bytes (bpf_xdp_adjust_tail): a shrunk packet arrives as the sent
	 * one's head, a grown one as the sent one followed by grown_byte.
	 */
	int32_t rx_len_delta;
	/*
	 * What the grown tail holds: TEST_XDP_TAIL_FILL, written by the
	 * xdp_tail.h programs; 0 for the multi-buffer ones, which leave the
	 * kernel's zeroes.
	 */
	uint8_t grown_byte;
	/*
	 * The receiving port's program puts a running count in front of
	 * every packet (xdp_meta.h): each arrives with its sequence number
	 * in the metadata in front of its (first fragment's) data.
	 */
	bool meta_count;
};

struct traffic {
	struct test_link *link;
	const struct test_stream *stream;
	struct traffic_opts opts;
	enum test_port tx_port;
	enum test_port rx_port;
	uint32_t next_tx;	/* next sequence number to send */
	uint32_t sent_arriving; /* sent packets that should arrive */
	uint32_t rx_next; /* lowest sequence number that may still arrive */
	uint32_t received;
	uint32_t raw_sent_valid; /* raw descriptors sent that must complete */
	uint32_t raw_completed;
	uint32_t raw_next_completion; /* index of the next valid raw descriptor */
	/*
	 * Copy mode: COMPLETION follows the order in which the driver frees
	 * the skbs, not the descriptors' (KERNEL_RULES.md, "Zero-copy on a
	 * real driver"), so a completion is matched to any outstanding raw
	 * descriptor sent from its address, and raw_done marks the ones
	 * that came back: each at most once.
	 */
	bool raw_any_order;
	uint64_t raw_done[TEST_PKT_COUNT / 64];
	uint32_t tx_chain_at; /* bytes of the raw chain being sent so far */
	/* A packet assembled from its fragments, or built to be split. */
	uint8_t scratch[TEST_PKT_MAX_LEN];
};

void traffic_opts_init(struct traffic_opts *opts, enum test_port from);

void traffic_begin(struct traffic *t, struct test_link *link,
		   const struct test_stream *stream,
		   const struct traffic_opts *opts);

/* Send what the window and the TX ring allow, once. */
bool traffic_send(struct traffic *t, struct scenario_result *r);

/* Receive one burst and check every packet in it. */
bool traffic_receive(struct traffic *t, struct scenario_result *r);

/* Everything sent, and every packet that should arrive arrived. */
bool traffic_all_received(const struct traffic *t);

/* Pump and reclaim until every transmitted frame has completed. */
bool traffic_complete(struct traffic *t, struct scenario_result *r);

/*
 * Receive until every packet that should arrive did, or — with allow_loss —
 * until nothing more comes.
 */
bool traffic_drain(struct traffic *t, struct scenario_result *r);

/*
 * After settling, the receiver gets nothing more ("received too many
 * packets"); with allow_loss, nothing out of order.
 */
bool traffic_expect_no_more(struct traffic *t, struct scenario_result *r);

/*
 * The whole exchange: send and receive until every packet arrived, wait for
 * every completion, then check that nothing more arrives.
 */
bool traffic_run(struct test_link *link, const struct test_stream *stream,
		 const struct traffic_opts *opts, struct scenario_result *r);

/* Open a link from cfg, run stream over it with opts, and close it. */
void traffic_on_new_link(struct test_peer *peer, const struct link_config *cfg,
			 const struct test_stream *stream,
			 const struct traffic_opts *opts,
			 struct scenario_result *r);

/*
 * The most common scenario: open a link from cfg, send count packets of
 * TEST_PKT_LEN bytes from A to B with opts (NULL: the defaults), check them
 * all arrive, and close the link.
 */
void traffic_one_way(struct test_peer *peer, const struct link_config *cfg,
		     uint32_t count, const struct traffic_opts *opts,
		     struct scenario_result *r);

/* The same with packets of len bytes (larger than a frame: chains). */
void traffic_one_way_len(struct test_peer *peer, const struct link_config *cfg,
			 uint32_t count, uint32_t len,
			 const struct traffic_opts *opts,
			 struct scenario_result *r);

/*
 * Open a link from cfg with every frame of A held, send descs[0..n) by hand
 * from A, check that the valid packets arrive — a valid descriptor alone or
 * a valid chain is one packet — and that A's tx_invalid_descs ends at
 * want_invalid, and close the link.
 */
void traffic_raw_one_way(struct test_peer *peer, struct link_config *cfg,
			 const struct raw_desc *descs, uint32_t n,
			 uint32_t want_invalid, struct scenario_result *r);

#endif /* XSKX_TEST_TRAFFIC_H */
