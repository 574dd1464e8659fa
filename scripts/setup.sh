#!/usr/bin/env bash
# Installs what the build needs on a Debian/Ubuntu machine (as root, or with sudo).
# The CUDA toolkit (nvcc, cuBLAS, CUPTI) is expected under /usr/local/cuda.
set -euo pipefail
pkgs=(cmake ninja-build g++ pkg-config libfmt-dev libcli11-dev nlohmann-json3-dev
      libcairo2-dev fonts-dejavu-core libgtest-dev python3)
need=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || need+=("$p"); done
if ((${#need[@]})); then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
if ! command -v nvcc >/dev/null 2>&1; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then
    echo "setup: add /usr/local/cuda/bin to PATH (found nvcc there)" >&2
  else
    echo "setup: the CUDA toolkit (nvcc, cuBLAS, CUPTI, 12.x or 13.x) is required; install it under /usr/local/cuda" >&2
    exit 1
  fi
fi
