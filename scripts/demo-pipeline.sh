#!/bin/sh
# The Beam pipelines in a few seconds (make demo-pipeline): k-anonymize the
# shared UCI Adult file on the prism runner (Beam in this process) in coarse
# parts, check the published file with `sdcopt kanon verify` as a data holder
# would, then microaggregate the CASC Census set. Needs bin/sdcopt and
# bin/sdcopt-pipeline (make build pipeline).
set -eu
BIN=${BIN:-bin}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "== sdcopt-pipeline kanon: Adult, k = 5, coarse parts of at most 8000 records"
"$BIN/sdcopt-pipeline" kanon --data adult --k 5 --coarse 8000 --partition 500 \
	--out "$out/adult-pub.csv" --graph-out "$out/adult-graph.csv"
echo "== sdcopt kanon verify on the pipeline's files"
"$BIN/sdcopt" kanon verify --data adult --published "$out/adult-pub.csv" --graph "$out/adult-graph.csv" --k 5
echo "== sdcopt-pipeline microagg: Census, k = 3, coarse parts of at most 400 records"
"$BIN/sdcopt-pipeline" microagg --data census --k 3 --coarse 400
