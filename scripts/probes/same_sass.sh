#!/bin/bash
# Whether the FP32 rungs' sm_90a code is the same at two revisions (no GPU, no cuobjdump needed):
# each rung's PTX from both, its compiler-made names (anonymous namespaces, mangled shared-memory
# arrays) replaced by fixed ones, then assembled by ptxas; the cubins compared byte for byte.
# usage: scripts/probes/same_sass.sh <rev-before> [<rev-after>, default: the working tree]
# Needs nvcc and ptxas on PATH and a configured build/ (for the layers' generated headers).
set -euo pipefail
root=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tree_of() {  # rev dir: the kernels/ and analyzer/ of rev (or the working tree) into dir
    if [ "$1" = WORKTREE ]; then cp -r "$root/kernels" "$root/analyzer" "$2/"
    else git -C "$root" archive "$1" kernels analyzer | tar -x -C "$2"; fi
}
rungs="02_naive 03_smem_tiling 04_thread_tiling 05_outer_product 06_smem_register
       07_blocktiling_1d 08_blocktiling_2d 09_vectorized 10_warptiling 11_warptiling_sub"
for side in before after; do
    rev=${1}; [ $side = after ] && rev=${2:-WORKTREE}
    mkdir -p "$work/$side/src"; tree_of "$rev" "$work/$side/src"
    for r in $rungs; do
        nvcc -DTGEMM_HAS_SM90A=1 -DTGEMM_VERSION=\"0\" -I"$work/$side/src/kernels" \
            -I"$root/build/layers/model" -I"$root/build/layers/gpu" -I"$root/build/layers/core" \
            -O3 -DNDEBUG -arch=sm_90a -std=c++20 -ptx "$work/$side/src/kernels/$r.cu" \
            -o "$work/$side/$r.ptx" &
    done
    wait
    for r in $rungs; do
        sed -E 's/_GLOBAL__N__[0-9a-f]+_[0-9]+_[A-Za-z0-9_]+_cu_[0-9a-f]+_[0-9]+/ANON/g;
                s/_ZZN5tgemm7kernels[A-Za-z0-9_]*E([0-9]+[A-Za-z_]+)$/SMEM_\1/;
                s/_ZZN5tgemm7kernels[A-Za-z0-9_]*E([0-9]+[A-Za-z_]+)([^A-Za-z0-9_])/SMEM_\1\2/g' \
            "$work/$side/$r.ptx" > "$work/$side/$r.norm.ptx"
        ptxas -arch=sm_90a -O3 "$work/$side/$r.norm.ptx" -o "$work/$side/$r.cubin"
    done
done
status=0
for r in $rungs; do
    if cmp -s "$work/before/$r.cubin" "$work/after/$r.cubin"; then echo "same  $r"
    else echo "DIFFERENT $r"; status=1; fi
done
exit $status
