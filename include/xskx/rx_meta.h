/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * RX metadata: what the device knows about a received packet (its RX hash,
 * VLAN tag and RX timestamp), delivered in front of the packet's data.
 *
 * A port opened with XSKX_PORT_RX_METADATA (xskx/port.h) has xskx's own XDP
 * program ask the kernel's RX metadata kfuncs (bpf_xdp_metadata_rx_hash,
 * _rx_vlan_tag, _rx_timestamp) for every packet it redirects and put their
 * answers in a struct xskx_rx_meta right in front of the data
 * (bpf_xdp_adjust_meta()); on the simulated NIC the simulated port fills the
 * same struct. xskx_pkt_rx_meta() finds it. Which fields are set varies per
 * packet: valid says which the device gave for this one.
 *
 * The kfuncs answer only in a device-bound program (loaded for one device,
 * native mode; the verifier refuses their calls anywhere else): where the
 * port cannot run one (generic mode, a device without the kfuncs) a
 * program without the calls puts the struct there with valid 0, and the
 * port says why once, at warn level.
 * xskx_port_info's rx_metadata says what the device provides,
 * rx_meta_bound what the port's program was bound to get.
 *
 * Plain fixed-size types only: xskx's BPF program includes this header too.
 */
#ifndef XSKX_RX_META_H
#define XSKX_RX_META_H

#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The fields of RX metadata: xskx_rx_meta.valid, and xskx_port_info's
 * rx_metadata and rx_meta_bound. The values of the kernel's
 * NETDEV_XDP_RX_METADATA_* (the netdev family's xdp-rx-metadata-features).
 */
#define XSKX_RX_META_TIMESTAMP (1u << 0)
#define XSKX_RX_META_HASH (1u << 1)
#define XSKX_RX_META_VLAN_TAG (1u << 2)

/*
 * xskx_rx_meta.hash_type: what the RX hash was computed over, as the
 * kernel's enum xdp_rss_hash_type says it (0: L2 only, or unknown).
 */
#define XSKX_RSS_L3_IPV4 (1u << 0)
#define XSKX_RSS_L3_IPV6 (1u << 1)
#define XSKX_RSS_L3_DYNHDR (1u << 2) /* IPv6 extension headers included */
#define XSKX_RSS_L4 (1u << 3)	     /* the L4 ports too */
#define XSKX_RSS_L4_TCP (1u << 4)
#define XSKX_RSS_L4_UDP (1u << 5)
#define XSKX_RSS_L4_SCTP (1u << 6)
#define XSKX_RSS_L4_IPSEC (1u << 7)
#define XSKX_RSS_L4_ICMP (1u << 8)

/* The last word of every struct xskx_rx_meta, "xskm" on a little-endian CPU. */
#define XSKX_RX_META_MAGIC 0x6d6b7378u

/*
 * The RX metadata of one packet: 32 bytes (XSKX_XDP_META_MAX), ending where
 * the packet's data begins. A field is meaningful only when its bit is in
 * valid; the others are 0.
 */
struct xskx_rx_meta {
	/*
	 * XSKX_RX_META_TIMESTAMP: the device's RX timestamp, in nanoseconds
	 * of its clock (a NIC's PHC; veth: the skb's hardware timestamp,
	 * which is 0 unless something set one; the simulated NIC: its
	 * CLOCK_MONOTONIC time of reception).
	 */
	__u64 timestamp;
	/* XSKX_RX_META_HASH: the RX (RSS) hash and what it covers (XSKX_RSS_*). */
	__u32 hash;
	__u32 hash_type;
	/*
	 * XSKX_RX_META_VLAN_TAG: the outermost VLAN tag the device took off
	 * the frame (hardware VLAN stripping), host order: its TPID
	 * (0x8100, 0x88a8) and TCI (PCP, DEI, VID). A tag still in the
	 * frame's bytes is not reported here: xskx_pkt_parse() finds it.
	 */
	__u16 vlan_proto;
	__u16 vlan_tci;
	/* XSKX_RX_META_* bits: the fields the device gave for this packet. */
	__u32 valid;
	__u32 reserved; /* 0 */
	__u32 magic;	/* XSKX_RX_META_MAGIC */
};

struct xskx_socket;
struct xskx_pkt;

/*
 * The RX metadata in front of a received packet (its first fragment, for a
 * chain) of sock: NULL when sock's port was not opened with
 * XSKX_PORT_RX_METADATA, for a packet without data (a TX view), or when no
 * struct xskx_rx_meta is there (its last word is not XSKX_RX_META_MAGIC:
 * a packet the device gave no room for metadata; on the simulated NIC, an
 * XDP hook of yours replaced xskx's program and put less metadata there).
 * The struct lives in the frame's headroom: valid until the frame goes
 * back (xskx_rx_release(), xskx_tx_burst()). Only pkt->data is read: with
 * the batch API (xskx/batch.h) pass a view whose data is
 * xskx_rx_batch_data()'s. No syscall.
 */
const struct xskx_rx_meta *xskx_pkt_rx_meta(const struct xskx_socket *sock,
					    const struct xskx_pkt *pkt);

#ifdef __cplusplus
}
#endif

#endif /* XSKX_RX_META_H */
