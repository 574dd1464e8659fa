#pragma once
// The grid of the non-persistent tensor rungs (13 bf16_wmma, 14 bf16_mma, 15 bf16_wgmma): one CTA
// per bm × bn tile of C in blockIdx order, each stepping K by bk. Their refined models count its
// padded tensor FLOPs and its DRAM waves alike, so they are counted here once. Internal to the
// models; docs/models/13_17_tensor.md.
#include <cstdint>
#include <map>
#include <string>

#include "core/shape.hpp"
#include "launch_info.hpp"
#include "model/rung_model.hpp"
#include "tensor/accumulator_requests.hpp"
#include "tensor/tensor_model_common.hpp"
#include "tensor/tensor_models.hpp"

namespace tgemm::kernels::tensor_model {

struct blockidx_grid {
    int bm = 0;
    int bn = 0;
    int bk = 0;
    std::int64_t gm = 0;  // CTA rows: ⌈M/bm⌉
    std::int64_t gn = 0;  // CTA columns: ⌈N/bn⌉
    std::int64_t kt = 0;  // K tiles: ⌈K/bk⌉
    [[nodiscard]] double ctas() const { return double(gm) * double(gn); }
    // Every CTA multiplies its whole tile over K rounded up to bk, zero-filled parts too:
    // 2·(gm·bm)·(gn·bn)·(kt·bk).
    [[nodiscard]] double padded_tensor_flops() const;
    // The same product as text for the notes: "2·(gm·bm)·(gn·bn)·(kt·bk)" with the numbers.
    [[nodiscard]] std::string padded_product() const;
};

[[nodiscard]] blockidx_grid grid_of(const shape& s, int bm, int bn, int bk);

// What each of their models starts from: the seeds' textbook count of warp (or warpgroup) tiles
// wm × wn (textbook), the grid's padded tensor FLOPs and the guarded epilogue's FP32 count.
[[nodiscard]] tensor_counts blockidx_counts(const shape& s, const blockidx_grid& g, int wm, int wn,
                                            const std::string& what);

// The sectors of an epilogue from the accumulators (accumulator_requests.hpp), summed over the
// grid's tiles: add_blocks(req, m0, n0) adds the store groups of 16×8 blocks
// (accumulator_requests::add_group) of the tile whose first element is (m0, n0). Tiles alike
// (tile_key) are counted once.
template <class AddBlocks>
c_sectors grid_epilogue_sectors(const shape& s, const blockidx_grid& g, AddBlocks add_blocks) {
    std::map<key3, c_sectors> memo;
    c_sectors total;
    for (std::int64_t bi = 0; bi < g.gm; ++bi)
        for (std::int64_t bj = 0; bj < g.gn; ++bj) {
            const std::int64_t m0 = bi * g.bm, n0 = bj * g.bn;
            const c_sectors c = memoised(memo, tile_key(s.m, s.n, m0, n0, g.bm, g.bn, 32), [&] {
                accumulator_requests req(s);
                add_blocks(req, m0, n0);
                return req.totals();
            });
            total.l1 += c.l1;
            total.l2 += c.l2;
        }
    return total;
}

// The DRAM reads of the grid's waves (as many CTAs at a time as `launch` leaves resident on
// every SM, in blockIdx order) and the write-back rule, with their notes (set_dram). `limit`
// says what bounds the CTAs per SM, for the note.
void set_blockidx_dram(tensor_counts& r, const shape& s, const model_context& mc,
                       const blockidx_grid& g, const launch_info& launch, const std::string& limit);

}  // namespace tgemm::kernels::tensor_model
