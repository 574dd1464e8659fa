# Sourced by the probe scripts that run Nsight Compute beside the tool on the GPU machine
# (ncu_modes.sh, tail_occupancy.sh): `probe_setup NAME DEFAULT_BUILD_DIR` sources the cairo bundle
# where there is one, builds tgemm-roofline into $BUILD_DIR (or the default) unless it is there,
# collects what the probe writes in /tmp/NAME ($X) and packs it into $OUT/NAME.tar.gz on exit, with
# README.txt naming the GPU, the time and the tree; `ncu_run FILE NCU_OPTIONS... -- RUN_KERNEL_OPTIONS...`
# runs ncu on `tgemm-roofline run-kernel` into $X/FILE and notes its exit status in $X/runs.log.

# One-line refusals, exit 2, before anything is built or run: RUNS a positive whole number; every
# word a kernel:size pair (N or MxNxK).
probe_check_runs() {  # script name, value
  if ! [[ "$2" =~ ^[1-9][0-9]*$ ]]; then
    echo "$1: RUNS must be a whole number of runs, not '$2'" >&2
    exit 2
  fi
}
probe_check_pairs() {  # script name, what the words are called, words...
  local script=$1 what=$2; shift 2
  for pair in "$@"; do
    if ! [[ "$pair" =~ ^[a-z0-9_]+:[0-9]+(x[0-9]+x[0-9]+)?$ ]]; then
      echo "$script: '$pair'$what is not kernel:size (N or MxNxK)" >&2
      exit 2
    fi
  done
}

probe_setup() {
  local name=$1 default_build=$2
  [ -f .devdeps/env.sh ] && source .devdeps/env.sh
  export PATH="/usr/local/cuda/bin:$PATH"
  B=${BUILD_DIR:-$default_build}
  X=/tmp/$name
  mkdir -p "$X" "${OUT:-/tmp/$name-out}"
  # shellcheck disable=SC2064  # the names are fixed now, on purpose
  trap "tar -czf '${OUT:-/tmp/$name-out}/$name.tar.gz' -C '$X' --exclude=rep ." EXIT
  if [ ! -x "$B/tgemm-roofline" ]; then
    cmake -S . -B "$B" -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_BUILD_TYPE=Release \
      > "$X/cmake.log" 2>&1 || exit 1
    cmake --build "$B" -j "$(nproc)" --target tgemm-roofline > "$X/build.log" 2>&1 || exit 1
  fi
  BIN=$B/tgemm-roofline
  echo "# $(nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader | head -1), $(date -u +%Y-%m-%dT%H:%M:%SZ), tgemm at $(git rev-parse --short HEAD 2>/dev/null || echo '?')" > "$X/README.txt"
}

ncu_run() {
  local file=$1; shift
  local opts=()
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  ncu --csv --print-units base --clock-control none "${opts[@]}" "$BIN" run-kernel "$@" \
    > "$X/$file" 2> "$X/$file.err"
  echo "$file rc $?" >> "$X/runs.log"
}
