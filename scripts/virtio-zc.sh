#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Runs one command inside a QEMU guest whose six NICs are virtio_net, the
# driver of a Linux that has AF_XDP zero-copy (docs/VIRTIO_ZEROCOPY.md):
#
#   scripts/virtio-zc.sh [-o OUT] [-t SECONDS] [-s DIR]... -- COMMAND [ARGS...]
#
#   -o OUT      the results directory, shared with the guest read-write and
#               mounted there at the same path: COMMAND may write its files
#               into it (default: a new directory under /tmp, removed at
#               the end)
#   -t SECONDS  the most the guest may live, boot included (default 900)
#   -s DIR      also share DIR read-only at its own path (a build directory
#               outside the source tree); the source tree always is
#
# COMMAND runs as root in the guest, in the current directory, on the
# host's root file system (shared read-only over 9p, with a tmpfs on /tmp
# and /run; the source tree and each -s DIR shared again on top, so that a
# tree under /tmp is there too), so the host's build and libraries run
# unchanged, with 64
# hugepages of 2 MiB reserved (zero-copy's unaligned UMEMs). Its six NICs
# are called virtio-a to virtio-f, each with one active queue pair (of 2:
# ethtool -L combined 1 puts every packet on queue 0; the second pair is
# XDP_TX's), IPv6 off. Their taps sit on the host in a network namespace
# of this script's own (unshare --net), joined in pairs by bridges that
# learn no address, so that a frame sent on one NIC of a pair arrives on
# the other whatever its MACs: a-b (the scenarios), c-e and d-f (a
# forwarder on c and d between the end hosts e and f). The namespace goes
# when QEMU does.
#
# The kernel is Debian's (trixie-backports, $XSKX_VM_KERNEL), fetched with
# an apt configuration of this script's own (the machine's apt sources
# are left alone) and cached in $XSKX_VM_CACHE (default
# ~/.cache/xskx-vm): vmlinuz and the modules the guest loads, decompressed.
# QEMU runs with TCG unless XSKX_VM_ACCEL says otherwise (kvm on a host
# whose /dev/kvm runs stock kernels).
#
# Exit status: COMMAND's; 77 when this machine cannot run the guest (not
# root, no QEMU or busybox, no /dev/net/tun, the kernel cannot be fetched,
# the guest does not boot), with the reason on stderr and in OUT/skip;
# 1 when the guest booted but COMMAND did not finish in time.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
guest_dir=$here/../tests/virtio
kernel_pkg=${XSKX_VM_KERNEL:-7.3.4+deb13-amd64}
suite=${XSKX_VM_SUITE:-trixie-backports}
mirror=${XSKX_VM_MIRROR:-http://deb.debian.org/debian}
cache=${XSKX_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/xskx-vm}
accel=${XSKX_VM_ACCEL:-tcg}
skip=77
# What the guest loads, in any order: modules_in_order() adds what each
# depends on and sorts them. virtio_pci is built into Debian's kernel.
modules=(virtio_net 9pnet_virtio 9p)
# Boot to the first line of /init takes 7-9 s under TCG; this much more
# means the guest will not boot at all.
boot_limit_s=120

out=""
limit_s=900
shares=("$(cd "$here/.." && pwd)")
while getopts "o:t:s:h" opt; do
	case $opt in
	o) out=$OPTARG ;;
	t) limit_s=$OPTARG ;;
	s) shares+=("$(cd "$OPTARG" && pwd)") ;;
	*)
		sed -n '4,34p' "$0" | sed 's/^# \{0,1\}//'
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))
if [[ $# -eq 0 ]]; then
	echo "virtio-zc: no command to run (see -h)" >&2
	exit 2
fi

own_out=false
if [[ -z $out ]]; then
	out=$(mktemp -d /tmp/xskx-vm.XXXXXX)
	own_out=true
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out/skip" "$out/rc" "$out/output" "$out/console.log"
run_dir=$(mktemp -d /tmp/xskx-vm-run.XXXXXX)
qemu_pid=""

cleanup() {
	if [[ -n $qemu_pid ]] && kill -0 "$qemu_pid" 2>/dev/null; then
		kill "$qemu_pid" 2>/dev/null || true
		wait "$qemu_pid" 2>/dev/null || true
	fi
	cp "$run_dir/qemu.log" "$out/qemu.log" 2>/dev/null || true
	rm -rf "$run_dir"
	if $own_out; then
		rm -rf "$out"
	fi
}
trap cleanup EXIT

skip_because() {
	echo "virtio-zc: SKIP: $*" >&2
	echo "$*" >"$out/skip"
	exit $skip
}

# --- what the machine must have ------------------------------------------

[[ $(id -u) -eq 0 ]] ||
	skip_because "not root: the taps and their network namespace need it"
for tool in qemu-system-x86_64 busybox unshare ip bridge apt-get dpkg-deb \
	xz cpio; do
	command -v "$tool" >/dev/null ||
		skip_because "$tool is missing (scripts/install-deps.sh installs it)"
done
busybox_bin=$(command -v busybox)
file -L "$busybox_bin" 2>/dev/null | grep -q 'statically linked' ||
	skip_because "$busybox_bin is not statically linked (package busybox-static)"
[[ -c /dev/net/tun ]] || skip_because "no /dev/net/tun"

# --- the kernel, cached ----------------------------------------------------

kernel_dir=$cache/$kernel_pkg

# Print the module names in an order insmod can follow: each after what
# its .modinfo says it depends on.
modules_in_order() {
	local tree=$1
	shift
	declare -A seen=()
	visit() {
		local name=${1//-/_} file deps dep
		[[ -n ${seen[$name]:-} ]] && return 0
		seen[$name]=1
		file=$(find "$tree" -name "$name.ko*" -o -name "${name//_/-}.ko*" |
			head -n 1)
		if [[ -z $file ]]; then
			echo "virtio-zc: module $name not in $kernel_pkg" >&2
			return 1
		fi
		deps=$(xz -dcf "$file" | tr '\0' '\n' |
			sed -n 's/^depends=//p' | tr ',' ' ')
		for dep in $deps; do
			visit "$dep" || return 1
		done
		echo "$name $file"
	}
	for name in "$@"; do
		visit "$name" || return 1
	done
}

fetch_kernel() {
	local apt_dir=$kernel_dir.apt tree
	local -a apt_opts

	rm -rf "$apt_dir" "$kernel_dir.new"
	mkdir -p "$apt_dir"/{lists/partial,cache/archives/partial,debs} \
		"$kernel_dir.new/modules"
	echo "deb $mirror $suite main" >"$apt_dir/sources.list"
	apt_opts=(-q -o "Dir::Etc::sourcelist=$apt_dir/sources.list"
		-o Dir::Etc::sourceparts=/dev/null
		-o "Dir::State::Lists=$apt_dir/lists"
		-o "Dir::Cache=$apt_dir/cache"
		-o Dir::State::status=/dev/null
		-o Debug::NoLocking=1
		-o APT::Sandbox::User=root)
	echo "virtio-zc: fetching linux $kernel_pkg from $suite into $cache" >&2
	if ! timeout 300 apt-get "${apt_opts[@]}" update >"$apt_dir/log" 2>&1; then
		cat "$apt_dir/log" >&2
		return 1
	fi
	if ! (cd "$apt_dir/debs" && timeout 600 apt-get "${apt_opts[@]}" \
		download "linux-binary-$kernel_pkg" "linux-modules-$kernel_pkg" \
		>>"$apt_dir/log" 2>&1); then
		cat "$apt_dir/log" >&2
		return 1
	fi
	for deb in "$apt_dir"/debs/*.deb; do
		dpkg-deb -x "$deb" "$apt_dir/tree" || return 1
	done
	tree=$apt_dir/tree/usr/lib/modules/$kernel_pkg
	cp "$tree/vmlinuz" "$kernel_dir.new/vmlinuz" || return 1
	modules_in_order "$tree" "${modules[@]}" >"$apt_dir/order" || return 1
	while read -r name file; do
		xz -dcf "$file" >"$kernel_dir.new/modules/$name.ko" || return 1
		echo "$name" >>"$kernel_dir.new/modules/order"
	done <"$apt_dir/order"
	rm -rf "$apt_dir" "$kernel_dir"
	mv "$kernel_dir.new" "$kernel_dir"
}

mkdir -p "$cache"
exec {cache_lock}>"$cache/.lock"
flock "$cache_lock"
if [[ ! -f $kernel_dir/modules/order ]] && ! fetch_kernel; then
	rm -rf "$kernel_dir.apt" "$kernel_dir.new"
	skip_because "could not fetch linux-binary-$kernel_pkg and linux-modules-$kernel_pkg from $mirror $suite (no network? set XSKX_VM_MIRROR, XSKX_VM_SUITE or XSKX_VM_KERNEL)"
fi
flock -u "$cache_lock"

# --- the initramfs: busybox, the modules, tests/virtio/guest-init.sh ------

initrd=$run_dir/initrd.cpio.gz
(
	root=$run_dir/initramfs
	mkdir -p "$root"/{bin,dev,proc,sys,modules,newroot}
	cp "$busybox_bin" "$root/bin/busybox"
	cp "$guest_dir/guest-init.sh" "$root/init"
	chmod 755 "$root/init"
	cp "$kernel_dir"/modules/* "$root/modules/"
	cd "$root"
	find . | cpio -o -H newc --quiet | gzip -1 >"$initrd"
)

# --- what the guest runs ---------------------------------------------------

# The environment COMMAND sees: the sanitizers' options and xskx's own
# settings pass; the rest is the guest's.
{
	echo '#!/bin/sh'
	echo 'export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp'
	env | grep -E '^(ASAN|UBSAN|TSAN|LSAN|XSKX)_[A-Z_]*=' |
		grep -v '^XSKX_VM_' | sed "s/'/'\\\\''/g; s/=/='/; s/^/export /; s/\$/'/" ||
		true
	printf 'sh %q || exit $?\n' "$guest_dir/guest-nics.sh"
	printf 'cd %q || exit 1\n' "$PWD"
	printf 'exec'
	printf ' %q' "$@"
	printf '\n'
} >"$out/run.sh"

# --- the host side: a namespace, two taps, a bridge, QEMU -----------------

# The guest's /tmp, /run and /var/tmp are its own tmpfs: a tree below
# them would be missing there. Each share is mounted at its own path
# (xskx.shareN= on the kernel's command line, which splits on spaces).
kernel_cmdline="console=ttyS0 panic=-1 ipv6.disable=1 hugepages=64 quiet xskx.out=$out"
# Half a minute before the limit, the guest puts every blocked task's
# kernel stack on its console (guest-init.sh): a guest that hangs says
# where.
if ((limit_s > 60)); then
	kernel_cmdline+=" xskx.watchdog=$((limit_s - 30))"
fi
share_args=()
for i in "${!shares[@]}"; do
	if [[ ${shares[$i]} =~ [[:space:],] ]]; then
		echo "virtio-zc: cannot share '${shares[$i]}' with the guest: its path has a space or a comma" >&2
		exit 2
	fi
	share_args+=(-virtfs "local,path=${shares[$i]},mount_tag=share$i,security_model=none,readonly=on,multidevs=remap")
	kernel_cmdline+=" xskx.share$i=${shares[$i]}"
done

qemu_args=(
	-M q35 -m 2G -smp 2 -nodefaults -display none -no-reboot
	-cpu max
	-kernel "$kernel_dir/vmlinuz" -initrd "$initrd"
	-append "$kernel_cmdline"
	-chardev "file,id=console,path=$out/console.log" -serial chardev:console
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap
	-virtfs "local,path=$out,mount_tag=results,security_model=none,multidevs=remap"
	"${share_args[@]}"
)
if [[ $accel == tcg ]]; then
	qemu_args+=(-accel tcg,thread=multi)
else
	qemu_args+=(-accel "$accel")
fi
# iommu_platform=on: without it virtio_net refuses a zero-copy bind
# (EINVAL); 2 queue pairs, vectors 2N+2; vhost=off: QEMU itself moves the
# packets, so the tap's multiqueue is all the host needs.
# The NIC virtio-X has the MAC 52:54:00:00:00:0X (guest-nics.sh).
for end in a b c d e f; do
	qemu_args+=(
		-netdev "tap,id=net$end,ifname=tap$end,script=no,downscript=no,vhost=off,queues=2"
		-device "virtio-net-pci,netdev=net$end,mac=52:54:00:00:00:0$end,mq=on,vectors=6,iommu_platform=on,disable-legacy=on"
	)
done

# Inside the new namespace: IPv6 off before any device exists (no router
# solicitation, no MLD report ever reaches the guest), taps at MTU 9000
# (the jumbo scenarios), a bridge that floods instead of learning (the
# scenarios send the same MACs both ways), then QEMU in place of the shell.
netns_setup='
set -e
sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
for wire in ab ce df; do
	ip link add br$wire type bridge mcast_snooping 0
	ip link set br$wire mtu 9000 up
	for end in ${wire%?} ${wire#?}; do
		ip tuntap add dev tap$end mode tap multi_queue
		ip link set tap$end mtu 9000 master br$wire up
		bridge link set dev tap$end learning off flood on
	done
done
exec timeout -k 5 "$LIMIT" "$@"
'
LIMIT=$limit_s unshare --net -- bash -c "$netns_setup" netns \
	qemu-system-x86_64 "${qemu_args[@]}" >"$run_dir/qemu.log" 2>&1 &
qemu_pid=$!

# Wait for the first line of /init; a guest that never gets there skips.
booted=false
for ((i = 0; i < boot_limit_s * 10; i++)); do
	if grep -q '^xskx-vm: init' "$out/console.log" 2>/dev/null; then
		booted=true
		break
	fi
	kill -0 "$qemu_pid" 2>/dev/null || break
	sleep 0.1
done
if ! $booted; then
	kill "$qemu_pid" 2>/dev/null || true
	wait "$qemu_pid" 2>/dev/null || true
	qemu_pid=""
	echo "--- qemu:" >&2
	tail -n 20 "$run_dir/qemu.log" >&2 || true
	echo "--- console:" >&2
	tail -n 20 "$out/console.log" >&2 || true
	skip_because "the guest did not boot (QEMU's and the console's last lines above)"
fi
echo "virtio-zc: guest booted after ${i}00 ms" >&2

status=0
wait "$qemu_pid" || status=$?
qemu_pid=""
if [[ -f $out/output ]]; then
	cat "$out/output"
fi
if [[ ! -f $out/rc ]]; then
	echo "virtio-zc: the guest ended without COMMAND's exit status (QEMU: $status; timeout gives 124): console follows" >&2
	tail -n 150 "$out/console.log" >&2 || true
	exit 1
fi
rc=$(cat "$out/rc")
if [[ $rc != 0 ]]; then
	echo "virtio-zc: the guest's console:" >&2
	grep -v '^xskx-vm: ' "$out/console.log" | tail -n 40 >&2 || true
fi
exit "$rc"
