#!/usr/bin/env bash
# Installs the HiGHS WebAssembly runtime (build/highs.wasm and build/highs.js
# of the npm package highs, pinned below) into $SDCOPT_HIGHS_DIR, default
# ~/.local/share/sdcopt/highs-<version>. Verifies both files by sha256.
# Idempotent and silent when the verified files are already there.
set -euo pipefail
version=1.15.3
wasm_sha=528be4365bea1d4188988646b244263f50320df55782e14d6af5bce7cd45c840
js_sha=0bd23843c9795753f2276e9901eb2a1e66288547b6bcba84fa0665dc037b5c7c
dir=${SDCOPT_HIGHS_DIR:-${HOME}/.local/share/sdcopt/highs-${version}}

verify() {
  [ -f "$dir/highs.wasm" ] && [ -f "$dir/highs.js" ] || return 1
  echo "$wasm_sha  $dir/highs.wasm" | sha256sum --quiet -c - 2>/dev/null || return 1
  echo "$js_sha  $dir/highs.js" | sha256sum --quiet -c - 2>/dev/null || return 1
}
verify && exit 0

command -v npm >/dev/null || { echo "fetch-highs: npm is required (apt-get install npm)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "fetch-highs: downloading highs@${version} from the npm registry" >&2
(cd "$tmp" && npm pack --silent "highs@${version}" >/dev/null)
tar -xzf "$tmp/highs-${version}.tgz" -C "$tmp" package/build/highs.wasm package/build/highs.js
echo "$wasm_sha  $tmp/package/build/highs.wasm" | sha256sum --quiet -c - || { echo "fetch-highs: highs.wasm checksum mismatch" >&2; exit 1; }
echo "$js_sha  $tmp/package/build/highs.js" | sha256sum --quiet -c - || { echo "fetch-highs: highs.js checksum mismatch" >&2; exit 1; }
mkdir -p "$dir"
cp "$tmp/package/build/highs.wasm" "$tmp/package/build/highs.js" "$dir/"
verify || { echo "fetch-highs: install to $dir failed verification" >&2; exit 1; }
echo "fetch-highs: installed HiGHS runtime in $dir" >&2
