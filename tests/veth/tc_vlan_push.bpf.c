// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * RX_METADATA_VLAN's sender side: a TC egress program that gives every
 * IPv4 frame leaving the interface the 802.1Q tag VID 100 out of band
 * (bpf_skb_vlan_push() sets skb->vlan_tci, as a VLAN device would on a
 * device that offloads VLAN insertion; this kernel has no 8021q module).
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

SEC("tc")
int tc_vlan_push(struct __sk_buff *skb)
{
	if (skb->protocol == bpf_htons(0x0800))
		bpf_skb_vlan_push(skb, bpf_htons(0x8100), 100);
	return TC_ACT_OK;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
