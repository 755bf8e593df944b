#!/bin/busybox sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# /init of the guest scripts/virtio-zc.sh boots: load the modules, mount the
# host's root (read-only, 9p) with a tmpfs wherever programs write, the
# shared trees (xskx.shareN=) again at their paths on top, mount
# the results share at the host's path for it (xskx.out= on the kernel's
# command line), run its run.sh there as root, keep the exit status, power
# off. Every line it prints starts with "xskx-vm: ": the script waits for
# the first one to know the guest booted.
/bin/busybox mkdir -p /sbin /usr/bin /usr/sbin
/bin/busybox --install -s

say() {
	echo "xskx-vm: $*"
}

# Power off at once: no disk to sync, the results share is unmounted.
halt_guest() {
	poweroff -f
	sleep 5
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
say "init"
for m in $(cat /modules/order); do
	insmod "/modules/$m.ko" || { say "insmod $m failed"; halt_guest; }
done

out=""
shares=""
watchdog=""
for arg in $(cat /proc/cmdline); do
	case $arg in
	xskx.out=*) out=${arg#xskx.out=} ;;
	xskx.watchdog=*) watchdog=${arg#xskx.watchdog=} ;;
	xskx.share*=*)
		tag=${arg%%=*}
		shares="$shares ${tag#xskx.}=${arg#*=}"
		;;
	esac
done

new=/newroot
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,ro hostroot $new ||
	{ say "mounting the host's root failed"; halt_guest; }
for dir in /tmp /run /var/tmp; do
	mount -t tmpfs tmpfs "$new$dir"
done
mount -t proc proc $new/proc
mount -t sysfs sysfs $new/sys
mount -t devtmpfs devtmpfs $new/dev
mkdir -p $new/dev/shm
mount -t tmpfs tmpfs $new/dev/shm
mount -t bpf bpf $new/sys/fs/bpf
# The source tree and the build, again at their paths: under a tmpfs
# (/tmp) they are not there yet.
for share in $shares; do
	dir=${share#*=}
	mkdir -p "$new$dir" 2>/dev/null
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,ro \
		"${share%%=*}" "$new$dir" ||
		{ say "mounting $dir failed"; halt_guest; }
done
mkdir -p "$new$out"
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 results "$new$out" ||
	{ say "mounting the results share at $out failed"; halt_guest; }

# A run still going after xskx.watchdog= seconds is about to be killed
# from outside: SysRq w puts every blocked task's kernel stack on the
# console first, so that a hang says where it is.
if [ -n "$watchdog" ]; then
	(
		sleep "$watchdog"
		say "watchdog: still running after $watchdog s; blocked tasks follow"
		echo 8 >/proc/sys/kernel/printk
		echo w >/proc/sysrq-trigger
	) &
fi
say "running $out/run.sh"
chroot $new /bin/sh "$out/run.sh" >"$new$out/output" 2>&1
echo $? >"$new$out/rc"
say "run.sh exited $(cat "$new$out/rc")"
umount "$new$out"
halt_guest
