#!/usr/bin/env bash
# Installs what sdcopt needs and is missing, and nothing else:
#   Debian packages (the C engines for cgo, pkg-config, a C compiler, npm,
#   Chromium for the browser tests),
#   the HiGHS WebAssembly runtime from the npm registry (scripts/fetch-highs.sh),
#   the Go modules of go.mod.
# Idempotent; prints nothing when everything is present.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v go >/dev/null; then
  echo "deps: Go 1.26 or newer is required (expected at /usr/local/go/bin/go)" >&2
  exit 1
fi

# chromium: the headless browser of the web page tests (server/)
pkgs=(gcc pkg-config liblpsolve55-dev coinor-libclp-dev coinor-libcbc-dev chromium curl)
command -v npm >/dev/null || pkgs+=(npm)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing Debian packages: ${missing[*]}" >&2
  # Only this step needs root: as another user it goes through sudo.
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || {
      echo "deps: installing Debian packages needs root and sudo is not installed: run \`make deps\` once as root (or apt-get install ${missing[*]}), then the rest as any user" >&2
      exit 1
    }
    sudo="sudo"
  fi
  $sudo apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

./scripts/fetch-highs.sh

go mod download
