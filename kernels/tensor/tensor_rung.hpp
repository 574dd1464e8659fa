#pragma once
// What the BF16 tensor-core rung files (kernels/13-17_*.cu) share: their refuse-or-run rule,
// the view of the rung's arguments the kernels take, and the mapping of a tensor model's
// counters onto the profile's keys, as the rung's own fields.
#include <optional>
#include <string>

#include "core/shape.hpp"
#include "gpu/gpu_info.hpp"
#include "model/rung_model.hpp"
#include "rung.hpp"
#include "tensor/problem.hpp"
#include "tensor/tensor_models.hpp"

namespace tgemm::kernels {

// The major compute capability of `gpu` ("9.0" → 9; 0 when unknown).
[[nodiscard]] int cc_major(const gpu_info& gpu);

// The GPU a tensor rung needs: sm_80 or newer for mma.sync/WMMA, the sm_90a code of this very
// build on a compute capability 9.0 GPU for wgmma.
enum class tensor_arch { sm80, sm90a };

// Why this rung cannot run `s` on `gpu`, or nothing. Rows of A, B and C must be whole 16-byte
// units (N and K multiples of 8 bf16): TMA and the 16-byte copies need it; M is free. `tile_m`
// > 0: the kernel maps M to blockIdx.y in tiles of that many rows.
[[nodiscard]] std::optional<std::string> tensor_can_run(const gpu_info& gpu, const shape& s,
                                                        tensor_arch arch, int tile_m);

// The rung's can_run: tensor_can_run with this arch and tile_m.
[[nodiscard]] decltype(rung::can_run) tensor_can_run_on(tensor_arch arch, int tile_m);

// The problem as the tensor kernels take it (bf16 A, B and C).
[[nodiscard]] tensor::problem tensor_problem(const gemm_args& g);

// The refined and textbook models of a rung from its tensor model.
[[nodiscard]] rung_model to_rung_model(const kernels::tensor_model::tensor_counts& c);

// The rung's model field: `model` (tensor_models.hpp) through to_rung_model.
using tensor_model_fn = tensor_model::tensor_counts (*)(const shape&, const model_context&);
[[nodiscard]] decltype(rung::model) rung_model_of(tensor_model_fn model);

}  // namespace tgemm::kernels
