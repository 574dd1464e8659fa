#pragma once
// The tile shape of the wgmma + TMA kernel (bf16_wgmma.cuh), apart from the kernel so that host
// code (the refined model, kernels/tensor/tensor_wgmma_model.cpp) compiles it too.
namespace tgemm::bf16_wgmma {

template <int BM, int BN, int Stages>
struct config {
    static constexpr int bm = BM;
    static constexpr int bn = BN;
    static constexpr int bk = 64;
    static constexpr int stages = Stages;
    static constexpr int threads = 128;
    static_assert(BM == 64 || BM == 128, "one or two m64 wgmma per k step");
    static_assert(BN == 128 || BN == 256, "n = 128 or 256");
    static constexpr int m_blocks = BM / 64;
    static constexpr int a_stage_bytes = BM * bk * 2;
    static constexpr int b_box_bytes = bk * 64 * 2;
    static constexpr int b_boxes = BN / 64;
    static constexpr int b_stage_bytes = b_boxes * b_box_bytes;
    static constexpr int smem_bytes = 1024 + Stages * (a_stage_bytes + b_stage_bytes) + 8 * Stages;
    static_assert(smem_bytes <= 227 * 1024, "more shared memory than a Hopper CTA may have");
};

}  // namespace tgemm::bf16_wgmma
