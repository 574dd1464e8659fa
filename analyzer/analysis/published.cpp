#include "analysis/published.hpp"

#include <array>

namespace tgemm {

namespace {

constexpr std::string_view seed003 =
    "seed 003 (K. Sucurry, \"CUDA matrix multiplication\", RTX 5070 Ti, M = N = K = 4096, FP32)";
constexpr shape n4096{4096, 4096, 4096};

// Seed 003's final table. Kernel 03 ("2D thread coarsening", BM×BN tiles with TM×TN outputs per
// thread) is our blocktiling_2d; its kernel 04 adds float4 loads, as our vectorized does.
constexpr std::array points{
    published_point{"rtx5070ti", "cublas", "cuBLAS", n4096, 31.66, seed003},
    published_point{"rtx5070ti", "naive", "kernel 01: naive", n4096, 2.05, seed003},
    published_point{"rtx5070ti", "smem_tiling", "kernel 02: block tiling", n4096, 3.49, seed003},
    published_point{"rtx5070ti", "blocktiling_2d", "kernel 03: 2D thread coarsening", n4096, 20.05,
                    seed003},
    published_point{"rtx5070ti", "vectorized", "kernel 04: vectorized memory access", n4096, 26.16,
                    seed003},
    published_point{"rtx5070ti", "warptiling", "kernel 05: warp tiling", n4096, 26.19, seed003},
    published_point{"rtx5070ti", "warptiling_sub", "kernel 06: warp tiling subdivided", n4096,
                    28.70, seed003},
};

}  // namespace

std::vector<published_point> published_points(std::string_view gpu_key) {
    std::vector<published_point> out;
    for (const auto& p : points)
        if (p.gpu == gpu_key) out.push_back(p);
    return out;
}

}  // namespace tgemm
