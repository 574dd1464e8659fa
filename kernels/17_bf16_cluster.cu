// BF16 GEMM, the top rung: the warp-specialized persistent kernel of rung 16 in 2-CTA clusters
// that share B through TMA multicast, tiles in groups of 8 rows (L2 reuse), C read and stored
// by TMA through a swizzled shared-memory tile (ldmatrix/stmatrix, stored by a producer thread
// while the consumers go on), and the last partial wave split along K (stream-K). Kernel:
// kernels/tensor/bf16_ws.cuh; model: kernels/tensor/tensor_ws_model.cpp; derivation and tuning:
// docs/models/13_17_tensor.md, docs/tuning.md.
#include "rung.hpp"
#include "tensor/tensor_launches.hpp"
#include "tensor/tensor_rung.hpp"
#include "tensor/tensor_rungs.hpp"
#include "tensor/ws_launch.cuh"

namespace tgemm {
namespace {

using cfg = tensor_rungs::cluster;

rung make() {
    return {
        .id = "bf16_cluster",
        .display_name = "BF16 2-CTA clusters, TMA multicast, TMA-store epilogue",
        .order = 170,
        .types = {element_type::bf16, element_type::bf16},
        .seed =
            "seed 003's tensor-core ladder, continued on Hopper: clusters, TMA "
            "multicast, grouped rasterization, TMA store",
        .params =
            "BM=128 BN=256 BK=64 per CTA, clusters of 2 along M sharing B (multicast), "
            "3 stages of 48 KiB + a 64 KiB C tile, groups of 8 tile rows, stream-K "
            "for a last wave that leaves a quarter of the clusters idle",
        .kernel_symbol = "bf16_ws_kernel",
        .config = kernels::with_kernel(tensor_rungs::cluster_launch, bf16_ws::bf16_ws_kernel<cfg>),
        .prepare = [](const gemm_args& g, const launch_context& ctx) -> bound_launch {
            return tensor::prepare_ws<cfg>(kernels::tensor_problem(g), ctx.stream);
        },
        .model = kernels::rung_model_of(kernels::tensor_model::model_bf16_cluster),
        .can_run = kernels::tensor_can_run_on(kernels::tensor_arch::sm90a, 0)};
}

}  // namespace
}  // namespace tgemm

TGEMM_REGISTER_RUNG(tgemm::make())
