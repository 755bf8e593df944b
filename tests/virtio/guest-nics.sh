#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Run in the guest of scripts/virtio-zc.sh before its command: name the six
# virtio_net NICs after their MACs (virtio-a: ...:0a to virtio-f: ...:0f),
# leave each one active queue pair of its two, so that every packet
# arrives on queue 0, where the tests bind (the other pair serves XDP_TX),
# and bring them up, promiscuous: QEMU's virtio-net drops in software every
# unicast frame not for the NIC's own MAC, and the tests' frames carry
# their own. The kernel boots with IPv6 off and the NICs carry no
# address: nothing but the tests' own frames crosses them.
set -e
for dev in /sys/class/net/*; do
	[ -e "$dev/device" ] || continue
	case $(cat "$dev/address") in
	52:54:00:00:00:0[a-f]) name=virtio-$(cut -c 17 "$dev/address") ;;
	*) continue ;;
	esac
	ip link set dev "${dev##*/}" name $name
	ethtool -L $name combined 1
	ip link set dev $name promisc on up
done
for name in virtio-a virtio-b virtio-c virtio-d virtio-e virtio-f; do
	if [ ! -e /sys/class/net/$name ]; then
		echo "guest-nics: no $name (no NIC with its MAC)" >&2
		exit 1
	fi
done
