#!/usr/bin/env bash
# Installs every Debian 12 package gltrace needs to build, test and benchmark.
# Safe to run again; uses sudo when not root.
set -euo pipefail

packages=(
  # build
  build-essential cmake ninja-build pkg-config python3 clang libclang-rt-14-dev
  libsnappy-dev zlib1g-dev libbrotli-dev libunwind-dev libdw-dev libepoxy-dev libsdl2-dev
  libcmocka-dev libx11-dev libgl-dev libegl-dev libgles-dev libzstd-dev
  libmicrohttpd-dev libyaml-dev
  # tests: real GL programs under Xvfb with Mesa llvmpipe, apitrace as the peer
  xvfb xauth x11-utils mesa-utils libgl1-mesa-dri libegl-mesa0 glmark2-x11 apitrace
  # tests: piglit's replayer with our gltrace and glretrace (metrics, check), the modules it imports
  piglit python3-packaging python3-requests python3-yaml python3-pil
  # tests: replays checked for writes to freed memory (client_memory)
  valgrind
  # tests: Qt 5 programs (qt_replay)
  qtbase5-examples qmlscene qml-module-qtquick2 qml-module-qtquick-window2
  # timeline peers: llvm-xray-14 (XRay FDR logs), trace-cmd (.dat files)
  llvm-14 trace-cmd
  # tests: diff-images' HTML report opened in headless Chromium (images)
  chromium
  # tests: gltrace view's page driven in headless Chromium
  python3-selenium chromium-driver
  # tests: the man pages rendered as a user reads them (man_pages), the package unpacked
  man-db groff-base bsdextrautils
)

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  sudo=(sudo)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present" >&2
  exit 0
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done" >&2
