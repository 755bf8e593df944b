#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# What CTest's virtio.guest runs inside the guest of scripts/virtio-zc.sh:
# every scenario in zero-copy, then in copy mode, each mode's lines in
# OUT/zc.results and OUT/copy.results, which the virtio_zc.NAME and
# virtio_copy.NAME tests read (result.sh).
#
#   guest-suite.sh TEST_VIRTIO OUT
set -u
test_virtio=$1
out=$2
rm -f "$out/zc.results" "$out/copy.results"
status=0
for mode in zc copy; do
	echo "=== $mode"
	"$test_virtio" $mode "$out/$mode.results" || status=1
	cat "$out/$mode.results"
done
exit $status
