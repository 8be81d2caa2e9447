#!/usr/bin/env bash
# Runs every fuzz target of the module for a bounded time each (make test).
# FUZZTIME sets the time per target (default 10s); TAGS the build tags.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-10s}
tags=${TAGS:-}
n=0
while IFS= read -r line; do
	file=${line%%:*}
	name=${line#*func }
	name=${name%%(*}
	pkg=./$(dirname "$file")
	echo "fuzz: $pkg $name ($fuzztime)"
	go test -tags "$tags" -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "$pkg" >/tmp/sdcopt-fuzz.$$ 2>&1 || {
		cat /tmp/sdcopt-fuzz.$$
		rm -f /tmp/sdcopt-fuzz.$$
		echo "fuzz: $pkg $name failed (the failing input is under $pkg/testdata/fuzz/$name)" >&2
		exit 1
	}
	n=$((n + 1))
done < <(grep -rn --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*\(f \*testing\.F\)' . | sed 's|^\./||' | sort)
rm -f /tmp/sdcopt-fuzz.$$
echo "fuzz: $n targets, $fuzztime each, no failure"
