#pragma once
// The launches of the tensor-core rungs 13–17 as numbers (launch_info.hpp), read by the rung
// files, the refined models and the GPU test of the compiled kernels. Apart from
// tensor_rungs.hpp, which the tuning sweep includes without the layers.
#include "launch_info.hpp"
#include "tensor/tensor_rungs.hpp"

namespace tgemm::tensor_rungs {

// All their shared memory is dynamic (the prepare_* launchers request Cfg::smem_bytes);
// registers are what ptxas of nvcc 13.0 allocates for sm_90a.
inline constexpr kernels::launch_info wmma_launch{.tile_m = wmma::bm,
                                                  .tile_n = wmma::bn,
                                                  .tile_k = wmma::bk,
                                                  .warp_m = wmma::wm,
                                                  .warp_n = wmma::wn,
                                                  .threads = wmma::threads,
                                                  .smem_bytes = wmma::smem_bytes,
                                                  .dynamic_smem_bytes = wmma::smem_bytes,
                                                  .registers = 126};
inline constexpr kernels::launch_info mma_launch{.tile_m = mma::bm,
                                                 .tile_n = mma::bn,
                                                 .tile_k = mma::bk,
                                                 .warp_m = mma::wm,
                                                 .warp_n = mma::wn,
                                                 .threads = mma::threads,
                                                 .stages = mma::stages,
                                                 .smem_bytes = mma::smem_bytes,
                                                 .dynamic_smem_bytes = mma::smem_bytes,
                                                 .registers = 242};
// One warpgroup: its wgmma tile is the CTA tile.
inline constexpr kernels::launch_info wgmma_launch{.tile_m = wgmma::bm,
                                                   .tile_n = wgmma::bn,
                                                   .tile_k = wgmma::bk,
                                                   .threads = wgmma::threads,
                                                   .stages = wgmma::stages,
                                                   .smem_bytes = wgmma::smem_bytes,
                                                   .dynamic_smem_bytes = wgmma::smem_bytes,
                                                   .registers = 154};
// The warp-specialized kernel is compiled under __launch_bounds__(384, 1): ptxas caps it at
// 65536 / 384 = 170 registers rounded down to the allocation's 8, 168; setmaxnreg then moves
// registers between the warpgroups within that total.
template <class Cfg>
constexpr kernels::launch_info ws_launch_of() {
    return {.tile_m = Cfg::bm,
            .tile_n = Cfg::bn,
            .tile_k = Cfg::bk,
            .threads = Cfg::threads,
            .stages = Cfg::stages,
            .smem_bytes = Cfg::smem_bytes,
            .dynamic_smem_bytes = Cfg::smem_bytes,
            .registers = 168,
            .cluster_size = Cfg::cluster_m,
            .persistent = true};
}
inline constexpr kernels::launch_info ws_launch = ws_launch_of<ws>();
inline constexpr kernels::launch_info cluster_launch = ws_launch_of<cluster>();

}  // namespace tgemm::tensor_rungs
