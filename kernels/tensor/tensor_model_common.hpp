#pragma once
// Pieces the tensor-core rungs' model files share (tensor_*_model.cpp): memoised per-tile
// counts, the seeds' textbook count of a tiled kernel, the guarded epilogue's FP32 count, and the
// DRAM notes. Internal to the models; tensor_models.hpp is the interface.
#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <string>

#include "core/shape.hpp"
#include "tensor/tensor_models.hpp"
#include "tensor/tensor_traffic.hpp"

namespace tgemm::kernels::tensor_model {

// A tile's count depends only on how much of it lies inside the matrix and on the phase of its
// first byte (in a sector or a line): computed once per key.
using key3 = std::array<std::int64_t, 3>;
using memo3 = std::map<key3, std::int64_t>;

template <class V, class F>
V memoised(std::map<key3, V>& memo, const key3& key, F f) {
    if (const auto it = memo.find(key); it != memo.end()) return it->second;
    const V v = f();
    memo.emplace(key, v);
    return v;
}

// The key of the tile_rows × tile_cols tile whose first element is (r0, c0) of a rows × cols
// bf16 matrix: the rows and columns of it inside the matrix, and the phase of its first byte
// modulo `align` (32: in a sector; 128: in a line).
[[nodiscard]] inline key3 tile_key(std::int64_t rows, std::int64_t cols, std::int64_t r0,
                                   std::int64_t c0, int tile_rows, int tile_cols, int align) {
    return {std::clamp<std::int64_t>(rows - r0, 0, tile_rows),
            std::clamp<std::int64_t>(cols - c0, 0, tile_cols), (r0 * cols + c0) * bf16 % align};
}

[[nodiscard]] inline std::int64_t ceil_div(std::int64_t x, std::int64_t d) {
    return (x + d - 1) / d;
}

// An integral count as text, for the notes.
[[nodiscard]] inline std::string str(double v) {
    return std::to_string(static_cast<long long>(v));
}

// (MNK/BN + MNK/BM)·2 B for A and B, C read and written once; shared-memory operand bytes of
// warp (or warpgroup) tiles wm × wn: MNK·(1/wn + 1/wm)·2 B.
[[nodiscard]] tensor_textbook textbook(const shape& s, int bm, int bn, int wm, int wn,
                                       const std::string& what);

// The epilogue's FP32 instructions and the FLOPs they make, 2·FFMA + FADD + FMUL.
inline void set_fp32(refined_model& r, double ffma, double fmul, double fadd) {
    r.ffma = ffma;
    r.fmul = fmul;
    r.fadd = fadd;
    r.flops = 2 * ffma + fadd + fmul;
}

// The guarded epilogue of rungs 13–15: one FMUL and one FFMA per output of C inside the matrix.
inline void set_guarded_epilogue_fp32(refined_model& r, const shape& s) {
    set_fp32(r, double(s.m) * double(s.n), double(s.m) * double(s.n), 0);
}
inline constexpr const char* guarded_epilogue_note =
    "FP32: the guarded epilogue does one FMUL and one FFMA per output of C";

// The DRAM read bands every tensor model adds once its DRAM values are set: where one wave's
// strips exceed half the L2, so that the wave count is a lower bound on the reads, and the L2
// residency band (kernels/wave_dram.hpp).
void add_dram_notes(tensor_counts& r, const wave_reads& w, std::int64_t l2_bytes);

// Sets the DRAM reads and writes of `w` (kernels/dram_writes.hpp), with their notes and bands.
void set_dram(tensor_counts& r, const wave_reads& w, std::int64_t l2_bytes,
              const std::string& residency);

}  // namespace tgemm::kernels::tensor_model
