#!/usr/bin/env bash
# The tuning sweep of rung 12 (sm90_fp32) on this machine's GPU; see docs/tuning.md.
#
#   scripts/tune_sm90_fp32.sh [BUILD_DIR] [tgemm-tune options ...]
#
# BUILD_DIR defaults to build-h100 and must be configured already (cmake -S . -B build-h100
# -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90a). Without options the sweep runs 4096³, 8192³,
# 1000×776×332 (float4 path with partial edge tiles) and 1000×777×333 (4-byte-copy path).
# Results go to BUILD_DIR/tune/:
# tune_sm90_fp32.txt (the table), tune_sm90_fp32.csv, and sass_summary.txt (per kernel: FFMA,
# FMUL, FADD, LDS, LDGSTS and all instructions, when cuobjdump is on PATH or in CUDA_HOME; the
# kernel's last template argument is its path: 0 4-byte copies, 1 float4, 2 whole tiles).
# bench/sm90_fp32_device_run.sh wraps this script for one call on a lent GPU machine.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build-h100
if [[ $# -gt 0 && $1 != -* ]]; then
    build=$1
    shift
fi
if [[ ! -f $build/CMakeCache.txt ]]; then
    echo "tune_sm90_fp32.sh: $build is not a configured build folder; run" >&2
    echo "  cmake -S . -B $build -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90a" >&2
    exit 1
fi
cmake --build "$build" --target tgemm-tune

out=$build/tune
mkdir -p "$out"
args=("$@")
if [[ ${#args[@]} -eq 0 ]]; then args=(--sizes 4096,8192,1000x776x332,1000x777x333); fi

status=0
"$build/bench/tgemm-tune" "${args[@]}" --csv "$out/tune_sm90_fp32.csv" |
    tee "$out/tune_sm90_fp32.txt" || status=$?

cuobjdump=$(command -v cuobjdump || echo "${CUDA_HOME:-/usr/local/cuda}/bin/cuobjdump")
if [[ -x $cuobjdump ]]; then
    # One line per kernel instantiation; names demangled to their tile_config<...> arguments.
    "$cuobjdump" -sass "$build/bench/tgemm-tune" | awk '
        function flush() {
            if (name != "")
                printf "%-60s %6d %5d %5d %5d %6d %6d\n", name, ffma, fmul, fadd, lds, ldgsts, total
        }
        /Function : / {
            flush()
            cmd = "c++filt " $3; cmd | getline name; close(cmd)
            sub(/^void tgemm::sm90_fp32::sm90_fp32_kernel<tgemm::sm90_fp32::tile_config/, "", name)
            sub(/\(int.*/, "", name)
            ffma = fmul = fadd = lds = ldgsts = total = 0
            next
        }
        /\/\*[0-9a-f]+\*\// && name != "" {
            total++
            if ($0 ~ / FFMA[. ]/) ffma++
            if ($0 ~ / FMUL[. ]/) fmul++
            if ($0 ~ / FADD[. ]/) fadd++
            if ($0 ~ / LDS[. ]/) lds++
            if ($0 ~ / LDGSTS[. ]/) ldgsts++
        }
        END { flush() }' |
        { printf "%-60s %6s %5s %5s %5s %6s %6s\n" "kernel<config, path>" FFMA FMUL FADD LDS LDGSTS instrs; sort; } |
        tee "$out/sass_summary.txt"
else
    echo "tune_sm90_fp32.sh: no cuobjdump; skipping the SASS summary" >&2
fi
echo "results in $out/" >&2
exit "$status"
