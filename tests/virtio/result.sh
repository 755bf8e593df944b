#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# One scenario's verdict from the guest's run (guest-suite.sh): exit 0 for
# PASS, 77 for SKIP (CTest's skip) with the reason, 1 for FAIL or for no
# line at all. A guest that could not run here (scripts/virtio-zc.sh left
# OUT/skip) skips every scenario with its reason.
#
#   result.sh OUT zc|copy|programs NAME
set -u
out=$1
mode=$2
name=$3
if [ -f "$out/skip" ]; then
	echo "SKIP: no guest on this machine: $(cat "$out/skip")"
	exit 77
fi
line=$(grep -m 1 "^$name " "$out/$mode.results" 2>/dev/null)
if [ -z "$line" ]; then
	echo "no result for $name in $out/$mode.results: the guest's run did not get to it (see $out/output and $out/console.log)"
	exit 1
fi
echo "$line"
case ${line#"$name "} in
PASS*) exit 0 ;;
SKIP*) exit 77 ;;
*) exit 1 ;;
esac
