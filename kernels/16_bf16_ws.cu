// BF16 GEMM, warp-specialized and persistent: a producer warpgroup issues the TMA copies (and
// gives its registers away with setmaxnreg), two consumer warpgroups issue m64n256k16 wgmma,
// a 4-stage ring of full/empty mbarriers between them, one CTA per SM walking the tiles.
// Kernel: kernels/tensor/bf16_ws.cuh; model: kernels/tensor/tensor_ws_model.cpp; derivation:
// docs/models/13_17_tensor.md.
#include "rung.hpp"
#include "tensor/tensor_launches.hpp"
#include "tensor/tensor_rung.hpp"
#include "tensor/tensor_rungs.hpp"
#include "tensor/ws_launch.cuh"

namespace tgemm {
namespace {

using cfg = tensor_rungs::ws;

rung make() {
    return {.id = "bf16_ws",
            .display_name = "BF16 warp-specialized persistent, 128×256",
            .order = 160,
            .types = {element_type::bf16, element_type::bf16},
            .seed =
                "seed 003's tensor-core ladder, continued on Hopper: producer/consumer "
                "warpgroups, setmaxnreg, persistent grid",
            .params =
                "BM=128 BN=256 BK=64, 384 threads (1 producer + 2 consumer warpgroups, "
                "setmaxnreg 40/232), 4 stages of 48 KiB, one CTA per SM, row-major tile "
                "order, epilogue from registers",
            .kernel_symbol = "bf16_ws_kernel",
            .config = kernels::with_kernel(tensor_rungs::ws_launch, bf16_ws::bf16_ws_kernel<cfg>),
            .prepare = [](const gemm_args& g, const launch_context& ctx) -> bound_launch {
                return tensor::prepare_ws<cfg>(kernels::tensor_problem(g), ctx.stream);
            },
            .model = kernels::rung_model_of(kernels::tensor_model::model_bf16_ws),
            .can_run = kernels::tensor_can_run_on(kernels::tensor_arch::sm90a, 0)};
}

}  // namespace
}  // namespace tgemm

TGEMM_REGISTER_RUNG(tgemm::make())
