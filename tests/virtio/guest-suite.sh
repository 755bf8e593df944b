#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# What CTest's virtio.guest runs inside the guest of scripts/virtio-zc.sh:
# every scenario in zero-copy, then in copy mode, each mode's lines in
# OUT/zc.results and OUT/copy.results, then, given the programs, their
# cases (guest-programs.py) in OUT/programs.results, which the
# virtio_zc.NAME, virtio_copy.NAME and virtio_programs.NAME tests read
# (result.sh).
#
#   guest-suite.sh TEST_VIRTIO OUT [XSKX_BENCH XSKX_L2FWD XSKX_FW]
set -u
test_virtio=$1
out=$2
shift 2
rm -f "$out/zc.results" "$out/copy.results" "$out/programs.results"
status=0
for mode in zc copy; do
	echo "=== $mode"
	"$test_virtio" $mode "$out/$mode.results" || status=1
	cat "$out/$mode.results"
done
if [ $# -eq 3 ]; then
	echo "=== programs"
	python3 "$(dirname "$0")/guest-programs.py" "$out/programs.results" \
		"$@" || status=1
fi
exit $status
