#!/usr/bin/env bash
# Runs every fuzz target of the module for a bounded number of inputs each
# (make test). FUZZRUNS sets the inputs per target (default 2000): a count,
# not a time, because a time-bounded -fuzztime can end a passing run with
# "context deadline exceeded" when the deadline races the last worker.
# TAGS sets the build tags.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${FUZZRUNS:-2000}
case "$runs" in
'' | *[!0-9]*)
	echo "fuzz: FUZZRUNS must be a positive count of inputs, got '$runs'" >&2
	exit 2
	;;
esac
tags=${TAGS:-}
log=$(mktemp "${TMPDIR:-/tmp}/sdcopt-fuzz.XXXXXX")
trap 'rm -f "$log"' EXIT
n=0
while IFS= read -r line; do
	file=${line%%:*}
	name=${line#*func }
	name=${name%%(*}
	pkg=./$(dirname "$file")
	echo "fuzz: $pkg $name (${runs} inputs)"
	if ! go test -tags "$tags" -run '^$' -fuzz "^${name}\$" -fuzztime "${runs}x" "$pkg" >"$log" 2>&1; then
		cat "$log"
		# Name the failing input only when go test says it wrote one and
		# the file is there.
		written=$(sed -n 's/.*Failing input written to \(testdata\/fuzz\/[^ ]*\).*/\1/p' "$log" | head -n 1)
		if [ -n "$written" ] && [ -f "$pkg/$written" ]; then
			echo "fuzz: $pkg $name failed; the failing input is $pkg/$written" >&2
		else
			echo "fuzz: $pkg $name failed; go test wrote no failing input (see its output above)" >&2
		fi
		exit 1
	fi
	n=$((n + 1))
done < <(grep -rn --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*\(f \*testing\.F\)' . | sed 's|^\./||' | sort)
echo "fuzz: $n targets, ${runs} inputs each, no failure"
