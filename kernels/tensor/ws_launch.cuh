#pragma once
// The host launch of the warp-specialized kernel (bf16_ws.cuh) (tensor/launch_common.hpp).
#include <cuda.h>

#include <algorithm>
#include <memory>

#include "tensor/bf16_ws.cuh"
#include "tensor/launch_common.hpp"

namespace tgemm::tensor {

// The clusters of Cfg that are resident at once on this device.
template <class Cfg>
int resident_clusters(cudaStream_t stream) {
    auto* kernel = &bf16_ws::bf16_ws_kernel<Cfg>;
    check_cuda(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::smem_bytes),
        "cudaFuncSetAttribute (warp-specialized shared memory)");
    cudaLaunchAttribute attr{};
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim = {static_cast<unsigned>(Cfg::cluster_m), 1, 1};
    cudaLaunchConfig_t lc{};
    lc.gridDim = dim3(Cfg::cluster_m);
    lc.blockDim = dim3(Cfg::threads);
    lc.dynamicSmemBytes = Cfg::smem_bytes;
    lc.stream = stream;
    lc.attrs = &attr;
    lc.numAttrs = 1;
    int clusters = 0;
    check_cuda(cudaOccupancyMaxActiveClusters(&clusters, kernel, &lc),
               "cudaOccupancyMaxActiveClusters");
    if (clusters < 1)
        throw error(error_kind::device, "no cluster of " + std::to_string(Cfg::cluster_m) +
                                            " CTAs with " + std::to_string(Cfg::smem_bytes) +
                                            " B of shared memory fits this GPU");
    return clusters;
}

// The persistent kernel: the clusters of grid_clusters (ws_schedule.hpp), and, for the
// stream-K tail, a workspace of one partial tile per cluster, CTA and consumer, owned by the
// returned launch.
// `balance`: the grid of grid_clusters (the rungs); false: every resident cluster (the tuning
// sweep's control).
template <class Cfg>
prepared prepare_ws(const problem& p, cudaStream_t stream, bool balance = true) {
    CUtensorMap ma{}, mb{}, mc{};
    check_map(encode_2d(ma, p.a, map_element::bf16, p.m, p.k, p.k, Cfg::bm, 64));
    check_map(encode_2d(mb, p.b, map_element::bf16, p.k, p.n, p.n, 64, 64));
    check_map(encode_2d(mc, p.c, map_element::bf16, p.m, p.n, p.n, 64, 64));
    const long tiles_m = (p.m + Cfg::bm * Cfg::cluster_m - 1) / (Cfg::bm * Cfg::cluster_m);
    const long tiles_n = (p.n + Cfg::bn - 1) / Cfg::bn;
    const int k_tiles = (p.k + Cfg::bk - 1) / Cfg::bk;
    const long clusters =
        balance ? grid_clusters(resident_clusters<Cfg>(stream), static_cast<int>(tiles_m * tiles_n),
                                k_tiles, Cfg::stream_k)
                : std::min<long>(resident_clusters<Cfg>(stream), tiles_m * tiles_n);
    const unsigned grid = static_cast<unsigned>(clusters * Cfg::cluster_m);
    bf16_ws::params prm{p.m, p.n, p.k, p.alpha, p.beta, p.c};
    std::shared_ptr<device_scratch> partials, flags;
    if constexpr (Cfg::stream_k) {
        const std::size_t slots = std::size_t(grid) * Cfg::consumers;
        partials = std::make_shared<device_scratch>(slots * Cfg::partial_floats * sizeof(float));
        flags = std::make_shared<device_scratch>(slots * sizeof(unsigned));
        check_cuda(cudaMemset(flags->get(), 0, slots * sizeof(unsigned)),
                   "cudaMemset of the stream-K flags");
        prm.partials = static_cast<float*>(partials->get());
        prm.flags = static_cast<unsigned*>(flags->get());
    }
    auto* kernel = &bf16_ws::bf16_ws_kernel<Cfg>;
    return [=] {
        cudaLaunchAttribute attr{};
        attr.id = cudaLaunchAttributeClusterDimension;
        attr.val.clusterDim = {static_cast<unsigned>(Cfg::cluster_m), 1, 1};
        cudaLaunchConfig_t lc{};
        lc.gridDim = dim3(grid);
        lc.blockDim = dim3(Cfg::threads);
        lc.dynamicSmemBytes = Cfg::smem_bytes;
        lc.stream = stream;
        lc.attrs = &attr;
        lc.numAttrs = 1;
        (void)partials;  // owned for as long as the launch exists
        (void)flags;
        check_cuda(cudaLaunchKernelEx(&lc, kernel, ma, mb, mc, prm), "cudaLaunchKernelEx");
    };
}

}  // namespace tgemm::tensor
