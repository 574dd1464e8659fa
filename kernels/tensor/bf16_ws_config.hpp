#pragma once
// The configuration of the warp-specialized kernel (bf16_ws.cuh) and the shared-memory layout of
// its TMA epilogue, apart from the kernel so that host code compiles them too: the refined model
// (kernels/tensor/tensor_ws_model.cpp) walks the same configuration and counts ldmatrix/stmatrix
// wavefronts through these very functions.
#include <cstdint>

#include "tensor/host_device.hpp"
#include "tensor/ws_schedule.hpp"

namespace tgemm::bf16_ws {

using tensor::raster;
enum class epilogue { direct, tma };

template <int BM, int BN, int Stages, int Consumers, int ClusterM, raster Raster, epilogue Epi,
          int GroupM = 8, int WaitDepth = 0, bool Multicast = true, bool StreamK = true,
          bool OwnCLoader = true>
struct config {
    static constexpr int bm = BM;
    static constexpr int bn = BN;
    static constexpr int bk = 64;  // one 128-byte swizzled row of bf16
    static constexpr int stages = Stages;
    static constexpr int consumers = Consumers;
    static constexpr int cluster_m = ClusterM;
    static constexpr raster order = Raster;
    static constexpr epilogue epi = Epi;
    static constexpr int group_m = GroupM;
    static constexpr int wait_depth = WaitDepth;
    static_assert(BM == 64 * Consumers, "each consumer warpgroup owns 64 rows: one m64 wgmma");
    static_assert(BN == 128 || BN == 256, "wgmma_ops.cuh wraps n = 128 and n = 256 here");
    static_assert(BM <= 256, "one TMA box of A per stage");
    static_assert(ClusterM == 1 || ClusterM == 2, "clusters of one or two CTAs along M");
    static_assert((BN / 64) % ClusterM == 0, "B's boxes split evenly among the cluster");
    static_assert(WaitDepth == 0 || WaitDepth == 1, "wgmma groups left in flight");
    // Without Multicast a cluster only shapes the launch (each CTA loads all of B): the
    // tuning sweep's control for what multicast itself buys.
    static constexpr bool multicast = ClusterM > 1 && Multicast;
    static constexpr int b_loaders = multicast ? ClusterM : 1;
    // Split the last, partial wave of tiles along K (kernels/tensor/ws_schedule.hpp).
    static constexpr bool stream_k = StreamK;
    // The TMA epilogue's C tile is loaded by a thread of its own (thread 64), which may wait for
    // the last store to free the buffer without holding up the A/B copies; else the A/B producer
    // loads it between its copies (the tuning sweep's control).
    static constexpr bool own_c_loader = OwnCLoader;
    // Floats of one consumer's partial sums in the stream-K workspace.
    static constexpr int partial_floats = 128 * (BN / 2);

    static constexpr int threads = 128 * (Consumers + 1);
    static constexpr int a_stage_bytes = BM * bk * 2;
    static constexpr int b_box_bytes = bk * 64 * 2;  // BK rows × 64 columns
    static constexpr int b_boxes = BN / 64;
    static constexpr int b_stage_bytes = b_boxes * b_box_bytes;
    static constexpr int c_box_bytes = 64 * 64 * 2;  // 64 rows × 64 columns
    static constexpr int c_boxes = Consumers * b_boxes;
    static constexpr int c_bytes = Epi == epilogue::tma ? BM * BN * 2 : 0;
    static constexpr int barrier_bytes = 8 * (2 * Stages + 3);
    // 1024-byte alignment of every 128-byte-swizzled buffer: the swizzle pattern repeats every
    // 1024 bytes and is taken from the address bits.
    static constexpr int smem_bytes =
        1024 + Stages * (a_stage_bytes + b_stage_bytes) + c_bytes + barrier_bytes;
    static_assert(smem_bytes <= 227 * 1024, "more shared memory than a Hopper CTA may have");
    static constexpr int producer_registers = 40;
    static constexpr int consumer_registers = Consumers == 1 ? 256 : 232;
    static_assert(producer_registers * 128 + consumer_registers * 128 * Consumers <= 65536,
                  "the register file is 64 K registers");
};

// Shared-memory address of row r, 16-byte column unit `unit` (8 bf16) of a consumer's part of
// the C buffer: 64×64 boxes along N, each row's units XORed with the row index modulo 8 (the
// 128-byte swizzle TMA reads and writes).
template <class Cfg>
TGEMM_HD constexpr std::uint32_t c_unit_addr(std::uint32_t part, int r, int unit) {
    return part + (unit / 8) * Cfg::c_box_bytes + r * 128 + (((unit % 8) ^ (r & 7)) << 4);
}

// The row (of a consumer's 64) whose address lane `lane` of warp `warp` hands ldmatrix/stmatrix
// .x4 in the TMA epilogue: lanes 0-7 and 8-15 give rows 0-7 and 8-15 of the warp's 16 for column
// unit j, lanes 16-31 the same rows for unit j + epilogue_unit_step = j + 1.
TGEMM_HD constexpr int epilogue_row(int warp, int lane) {
    return warp * 16 + (lane % 8) + 8 * ((lane / 8) % 2);
}
TGEMM_HD constexpr int epilogue_unit_step(int lane) {
    return lane / 16;
}

}  // namespace tgemm::bf16_ws
