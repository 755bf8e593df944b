#!/bin/bash
# Usage: doc-checks-catch.sh SOURCE_DIR man|doc-names|layers
#
# The document checks, and the layer check beside them, must fail on what
# they exist to catch, not only pass on the tree. On a scratch copy of the tree, with one thing of each case
# broken, the check must exit 1 and name each:
#   man        scripts/check-man.sh: an inline function's page link gone;
#              a header's inline function, its name on the line below
#              "static inline", with no page
#   doc-names  scripts/check-doc-names.sh: a man page, a section of another
#              page, one that is only a comment in a code block, a section
#              of the page itself, an image and a page missing from the
#              reading order
#   layers     scripts/check-layers.py: an import circle through an
#              include, one through a header that declares another file's
#              function, and the core including a backend's header
# Environment: CC (gcc), for check-man.sh.
set -euo pipefail

if [[ $# -ne 2 ]]; then
	echo "usage: $0 SOURCE_DIR man|doc-names" >&2
	exit 2
fi
source_dir=$(cd "$1" && pwd)
check=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

# A copy of the folders the checks read, to break.
mkdir "$work/tree"
(cd "$source_dir" && tar -cf - include lib bpf examples tests docs man cmake \
	scripts README.md) | tar -xf - -C "$work/tree"
tree=$work/tree

# Every case's break is made at once and the check run once: it must exit
# 1 and print each case's line.
declare -A expected=()
case $check in
man)
	rm "$tree/man/man3/xskx_ring_prod_cancel.3"
	expected["an inline function's page link gone"]="xskx_ring_prod_cancel: no page"
	printf '%s\n' '#ifndef XSKX_PROBE_H' '#define XSKX_PROBE_H' \
		'static inline int' 'xskx_probe_inline(void)' '{' \
		'	return 0;' '}' '#endif' >"$tree/include/xskx/probe.h"
	expected["an inline function named below 'static inline'"]="xskx_probe_inline: no page"
	command=("$source_dir/scripts/check-man.sh" "$tree/include" "$tree/man")
	;;
doc-names)
	cat >>"$tree/docs/API.md" <<'TEXT'
See xskx_rx_peek_nothing(3) and xskx-nothing(8).
("No such heading" below)
![a chart](charts/no-such-chart.svg)
TEXT
	echo '(docs/PROGRAM_OUTPUT.md, "No such heading")' >>"$tree/README.md"
	# A comment line of a code block is no heading.
	echo '(docs/XSKX_FW.md, "xskx-fw example rules")' >>"$tree/README.md"
	echo '# A page of its own' >"$tree/docs/UNLISTED.md"
	expected["a function's man page"]="the man page xskx_rx_peek_nothing(3)"
	expected["a program's man page"]="the man page xskx-nothing(8)"
	expected["a section of another page"]="the section \"No such heading\" of docs/PROGRAM_OUTPUT.md"
	expected["a code block's comment taken for a heading"]="the section \"xskx-fw example rules\" of docs/XSKX_FW.md"
	expected["a section of the page itself"]="the section \"No such heading\" of its own"
	expected["an image"]="names charts/no-such-chart.svg"
	expected["a page missing from the reading order"]="does not list docs/UNLISTED.md"
	command=("$source_dir/scripts/check-doc-names.sh" "$tree")
	;;
layers)
	# RSS below the RX path it feeds (sim_rss -> sim_napi -> sim_xdp ->
	# sim_rx_meta -> sim_rss).
	echo '#include "sim_napi.h"' >>"$tree/lib/sim/sim_rss.c"
	expected["a circle through an include"]='lib/sim/sim_rss -> lib/sim/sim_napi: lib/sim/sim_rss.c includes "sim_napi.h"'
	# The capture file's header declaring the wire's function, which
	# calls the capture file.
	echo 'void xskx__sim_port_transmit(struct xskx_sim_port *port, const struct sim_pkt *pkt, uint32_t queue);' \
		>>"$tree/lib/sim/sim_capture_write.h"
	expected["a circle through a header declaring another file's function"]='lib/sim/sim_capture_write -> lib/sim/sim_wire: lib/sim/sim_capture_write.c includes "sim_capture_write.h"'
	echo '#include "sim/sim_lock.h"' >>"$tree/lib/burst.c"
	expected["the core including a backend"]="the core imports a backend: lib/burst -> lib/sim/sim_lock"
	command=("$source_dir/scripts/check-layers.py" "$tree")
	;;
*)
	echo "$0: no check $check" >&2
	exit 2
	;;
esac

rc=0
out=$("${command[@]}" 2>&1) || rc=$?
echo "$out"
if [[ $rc -ne 1 ]]; then
	echo "the check exited $rc, not 1"
	failed=1
fi
for name in "${!expected[@]}"; do
	if grep -qF -- "${expected[$name]}" <<<"$out"; then
		echo "caught: $name"
	else
		echo "NOT caught: $name (no line with '${expected[$name]}')"
		failed=1
	fi
done
exit $failed
