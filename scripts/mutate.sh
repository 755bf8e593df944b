#!/bin/bash
# Usage: mutate.sh [--list FILE] [--only REGEX] [--dir DIR] [--timeout SEC]
#                  [--bound SEC] [--jobs N] [--keep-going] [--fail-under PCT]
#                  [--sanitize address]
#
# Mutation testing: applies each mutant of the list (tests/mutants.txt, its
# format is described at its top and in tests/README.md) one at a time, to a
# scratch copy of the tree — the tree itself is never written — rebuilds
# incrementally (one build directory, reused from run to run), runs the
# mutant's test labels and prints its verdict:
#
#   killed        a test failed or timed out: the suite notices the bug
#   survived      every test passed: the suite misses it
#   build-failed  the mutant does not compile (not counted)
#   equivalent    declared so in the list, with the reason (not run)
#
# and at the end the score, killed / (total - equivalent - build-failed).
#
#   --list FILE      the mutant list (default tests/mutants.txt)
#   --only REGEX     run only the mutants whose id matches (grep -E)
#   --dir DIR        the scratch directory: DIR/src is the copy of the tree,
#                    DIR/build its build (default build-mutate/, ignored by
#                    git); kept between runs so that rebuilds are incremental
#   --timeout SEC    ctest's per-test limit (default 60)
#   --bound SEC      the limit on one mutant's build and on its test run
#                    (default 300 each)
#   --jobs N         build and ctest parallelism (default 2)
#   --fail-under PCT exit 1 when the score is below PCT
#   --sanitize address  build as CI's test build does (ASan+UBSan): a mutant
#                    that only reads past a buffer dies there and nowhere
#                    else; give it a --dir of its own (the build's flags
#                    are set when the directory is first configured)
#
# Exit status: 0, or 1 for a score under --fail-under, 2 for a list error (a
# search string not found or not unique, a sed expression that changes
# nothing, an unknown field) or a baseline that does not build.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
list=$root/tests/mutants.txt
only=
dir=$root/build-mutate
test_timeout=60
bound=300
jobs=2
fail_under=
sanitize=

while [[ $# -gt 0 ]]; do
	case $1 in
	--list) list=$(realpath "$2"); shift 2 ;;
	--only) only=$2; shift 2 ;;
	--dir) dir=$(realpath -m "$2"); shift 2 ;;
	--timeout) test_timeout=$2; shift 2 ;;
	--bound) bound=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--fail-under) fail_under=$2; shift 2 ;;
	--sanitize) sanitize=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "mutate.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done

src=$dir/src
build=$dir/build
log=$dir/log
mkdir -p "$src" "$build" "$log"

# The file the current mutant changed, to restore on any exit (Ctrl-C too).
mutated=
restore() {
	if [[ -n $mutated ]]; then
		cp "$root/$mutated" "$src/$mutated"
		mutated=
	fi
}
trap restore EXIT
trap 'restore; echo "mutate.sh: interrupted" >&2; exit 130' INT TERM

# Bring the scratch copy up to the tree's tracked and untracked files. A file
# copied gets a fresh mtime (never the source's): make must see it as newer
# than the objects built from a mutant.
sync_copy() {
	local f
	declare -A wanted=()
	while IFS= read -r -d '' f; do
		wanted[$f]=1
		[[ -f $root/$f ]] || continue
		if ! cmp -s "$root/$f" "$src/$f"; then
			mkdir -p "$(dirname "$src/$f")"
			cp "$root/$f" "$src/$f"
		fi
	done < <(cd "$root" && git ls-files -co --exclude-standard -z)
	while IFS= read -r -d '' f; do
		f=${f#./}
		[[ -n ${wanted[$f]:-} ]] || rm -f "$src/$f"
	done < <(cd "$src" && find . -type f -print0)
}

# Apply one mutant to the scratch copy: a literal find/replace (exactly one
# occurrence) or a sed expression (must change the file).
apply_mutant() {
	local file=$1 find=$2 replace=$3 sedexpr=$4
	if [[ -n $sedexpr ]]; then
		sed -i -e "$sedexpr" "$src/$file"
		if cmp -s "$root/$file" "$src/$file"; then
			echo "sed expression changes nothing"
			return 1
		fi
		return 0
	fi
	FIND=$find REPLACE=$replace perl -0777 -i -pe '
		BEGIN {
			($f, $r) = ($ENV{FIND}, $ENV{REPLACE});
			for ($f, $r) { s/\\n/\n/g; s/\\t/\t/g; }
		}
		$n = () = /\Q$f\E/g;
		if ($n != 1) { print STDERR "search string found $n times, not once\n"; exit 1 }
		s/\Q$f\E/$r/;
	' "$src/$file" 2>&1
}

# ctest -L takes a regex: "unit sim" means either label.
label_regex() {
	local words
	read -ra words <<<"$1"
	local IFS='|'
	echo "^(${words[*]})\$"
}

declare -a ids files finds replaces seds labels tests equivs
parse_list() {
	local n=-1 line key value lineno=0
	while IFS= read -r line || [[ -n $line ]]; do
		lineno=$((lineno + 1))
		[[ $line =~ ^[[:space:]]*(#|$) ]] && continue
		if [[ $line =~ ^mutant[[:space:]]+([^[:space:]]+)[[:space:]]*$ ]]; then
			n=$((n + 1))
			ids[n]=${BASH_REMATCH[1]}
			files[n]= finds[n]= replaces[n]= seds[n]= labels[n]= tests[n]= equivs[n]=
			continue
		fi
		if [[ $n -lt 0 || ! $line =~ ^([a-z]+):[[:space:]]?(.*)$ ]]; then
			echo "mutate.sh: $list:$lineno: expected 'mutant ID' or 'key: value'" >&2
			exit 2
		fi
		key=${BASH_REMATCH[1]} value=${BASH_REMATCH[2]}
		case $key in
		file) files[n]=$value ;;
		find) finds[n]=$value ;;
		replace) replaces[n]=$value ;;
		sed) seds[n]=$value ;;
		labels) labels[n]=$value ;;
		tests) tests[n]=$value ;;
		equivalent) equivs[n]=$value ;;
		*) echo "mutate.sh: $list:$lineno: unknown field '$key'" >&2; exit 2 ;;
		esac
	done <"$list"
	for ((i = 0; i <= n; i++)); do
		if [[ -z ${files[i]} || -z ${labels[i]}${tests[i]} ||
			(-z ${finds[i]} && -z ${seds[i]}) ]]; then
			echo "mutate.sh: mutant ${ids[i]}: needs file, find (or sed) and labels (or tests)" >&2
			exit 2
		fi
	done
}

parse_list
sync_copy
echo "mutate.sh: scratch copy in $src, build in $build"
if [[ ! -f $build/CMakeCache.txt ]]; then
	cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DXSKX_WERROR=ON \
		${sanitize:+-DXSKX_SANITIZE="$sanitize"} \
		>"$log/configure.log" 2>&1 ||
		{ echo "mutate.sh: configure failed, see $log/configure.log" >&2; exit 2; }
fi
if ! cmake --build "$build" -j"$jobs" >"$log/baseline.log" 2>&1; then
	echo "mutate.sh: the unmutated tree does not build, see $log/baseline.log" >&2
	exit 2
fi

killed=0 survived=0 build_failed=0 equivalent=0 errors=0 total=0
survivors=()
for i in "${!ids[@]}"; do
	id=${ids[i]}
	[[ -z $only || $id =~ $only ]] || continue
	total=$((total + 1))
	if [[ -n ${equivs[i]} ]]; then
		equivalent=$((equivalent + 1))
		printf '%-44s equivalent (%s)\n' "$id" "${equivs[i]}"
		continue
	fi
	mutated=${files[i]}
	if ! why=$(apply_mutant "${files[i]}" "${finds[i]}" "${replaces[i]}" "${seds[i]}"); then
		restore
		errors=$((errors + 1))
		printf '%-44s LIST ERROR in %s: %s\n' "$id" "${files[i]}" "$why"
		continue
	fi
	if ! timeout -k 10 "$bound" cmake --build "$build" -j"$jobs" \
		>"$log/$id.build.log" 2>&1; then
		restore
		build_failed=$((build_failed + 1))
		printf '%-44s build-failed (%s)\n' "$id" "$log/$id.build.log"
		continue
	fi
	ctest_args=(--test-dir "$build" --timeout "$test_timeout" --no-tests=error
		--stop-on-failure -j"$jobs")
	[[ -z ${labels[i]} ]] || ctest_args+=(-L "$(label_regex "${labels[i]}")")
	[[ -z ${tests[i]} ]] || ctest_args+=(-R "${tests[i]}")
	start=$SECONDS
	if timeout -k 10 "$bound" ctest "${ctest_args[@]}" >"$log/$id.test.log" 2>&1; then
		survived=$((survived + 1))
		survivors+=("$id")
		verdict=survived
	elif grep -q 'No tests were found' "$log/$id.test.log"; then
		errors=$((errors + 1))
		verdict="LIST ERROR: no test matches its labels/tests"
	else
		killed=$((killed + 1))
		first=$(grep -m1 -E '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*(Failed|Timeout|Exception|\*\*\*)' "$log/$id.test.log" |
			sed -E 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+).*/\1/' || true)
		verdict="killed${first:+ by $first}"
	fi
	restore
	printf '%-44s %s (%ds)\n' "$id" "$verdict" $((SECONDS - start))
done

counted=$((total - equivalent - build_failed - errors))
echo
echo "mutants: $total, killed $killed, survived $survived, build-failed $build_failed, equivalent $equivalent, list errors $errors"
if [[ ${#survivors[@]} -gt 0 ]]; then
	echo "survivors: ${survivors[*]}"
fi
if [[ $counted -gt 0 ]]; then
	score=$(awk -v k="$killed" -v c="$counted" 'BEGIN { printf "%.1f", 100 * k / c }')
	echo "score: $killed / $counted = $score%"
else
	score=0
	echo "score: no mutant counted"
fi
[[ $errors -eq 0 ]] || exit 2
if [[ -n $fail_under ]] && awk -v s="$score" -v f="$fail_under" 'BEGIN { exit !(s < f) }'; then
	exit 1
fi
exit 0
