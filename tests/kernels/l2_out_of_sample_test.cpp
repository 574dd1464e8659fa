// The L2 traffic model (docs/models/l2.md: writes, fabric, read requests and the totals) at the
// out-of-sample shapes of the DRAM studies, which until 2026-11-28 only their DRAM rows were
// asserted on: the readers, walks, sweep and drifting shapes (docs/validation/<gpu>-<set>.json,
// measured by the tool on the H100 and the H200 on 2026-11-27, every row verified; commands in
// docs/reproduce.md); and the sm-sharing shapes, predicted and then measured on 2026-11-28. Each
// counter within the L2 tolerance (10 %, or 1 MB) of the model or its band, as on the shipped
// profiles; the fabric and the totals carry the DRAM read model's own miss (what the reads lie
// outside their allowance, asserted by the DRAM tests of these shapes), as on the new shapes. The
// rows outside are named, so that a change that brings one in, or sends another out, shows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "dram_expectations.hpp"
#include "l2_expectations.hpp"
#include "model/levels.hpp"
#include "profile/profile_file.hpp"
#include "rung.hpp"

using namespace tgemm;

namespace {

// The rows outside, as measured on 2026-11-27 (the value's multiple in the comments). Until the
// request model's band for CTAs in step sharing an SM (kernels/l2_requests.hpp, 2026-11-28) also
// naive's read requests at four of the widest grids, 0.81-0.90 of the value on both GPUs (7 rows).
// - naive's read requests at four of the widest grids, 0.81-0.90 of the value on both GPUs: its
// CTAs
//   sharing an SM read one strip of A, and L1 serves the later one's reads, which the model (each
//   CTA misses each sector once) leaves out;
// - the fabric of naive and smem_tiling at wide grids whose strips of B one or two CTAs of a wave
//   read, 1.12-1.86 of the value, beyond what their DRAM reads carry: lines fetched from the
//   other partition again while their home still holds them (docs/models/l2.md, "What it
//   shows", point 3), which the fabric model counts once per DRAM read; blocktiling_1d's at
//   3072×4608×1024 on the H100 (1.22), whose DRAM reads are a named miss;
// - the fabric under the value with no band: thread_tiling at 2304×1536×2048 on the H200 (0.88,
//   more than one wave).
// Since the fabric of launches of one wave (strips read on one partition, from the logged first
// waves) and the H100 collector's window (1.69 MB of fabric in every count) entered the model,
// 2026-11-28, 18 fabric rows came in: thread_tiling at 2560×1024×3072 and vectorized or
// warptiling at 512×8192×2048 on each GPU (0.77-0.81 until then), and of the odd shapes below 14
// (ten at 2216×1112×3336, 0.77-0.88; four on the H100 at 1000×3000×704, 1.10-1.13).
const std::set<std::string> known_misses = {
    "h100 naive at 1536×5120×1280 l2_fabric_bytes",           // 1.13 of the value
    "h100 smem_tiling at 1536×5120×1280 l2_fabric_bytes",     // 1.86 of the value
    "h100 blocktiling_1d at 3072×4608×1024 l2_fabric_bytes",  // 1.22 of the value
    "h200 naive at 768×8448×1024 l2_fabric_bytes",            // 1.28 of the value
    "h200 smem_tiling at 768×8448×1024 l2_fabric_bytes",      // 1.22 of the value
    "h200 naive at 2048×4224×1536 l2_fabric_bytes",           // 1.14 of the value
    "h200 smem_tiling at 2048×4224×1536 l2_fabric_bytes",     // 1.12 of the value
    "h200 naive at 1536×5120×1280 l2_fabric_bytes",           // 1.15 of the value
    "h200 smem_tiling at 1536×5120×1280 l2_fabric_bytes",     // 1.29 of the value
    "h200 naive at 1152×4608×1536 l2_fabric_bytes",           // 1.20 of the value
    "h200 smem_tiling at 1152×4608×1536 l2_fabric_bytes",     // 1.41 of the value
    "h200 naive at 1280×7168×1152 l2_fabric_bytes",           // 1.27 of the value
    "h200 smem_tiling at 1280×7168×1152 l2_fabric_bytes",     // 1.53 of the value
    "h200 naive at 1664×5632×1408 l2_fabric_bytes",           // 1.21 of the value
    "h200 smem_tiling at 1664×5632×1408 l2_fabric_bytes",     // 1.85 of the value
    "h200 naive at 3072×3840×1920 l2_fabric_bytes",           // 1.34 of the value
    "h200 smem_tiling at 3072×3840×1920 l2_fabric_bytes",     // 1.20 of the value
    "h200 thread_tiling at 2304×1536×2048 l2_fabric_bytes",   // 0.88 of the value
    // The shapes of "CTAs in step sharing an SM and a strip" (docs/models/l2.md), predicted
    // before they were measured (docs/validation/sm-sharing-shapes-README.txt).
    "h200 naive at 1664×6656×1280 l2_fabric_bytes",        // 1.24 of the value
    "h200 smem_tiling at 1664×6656×1280 l2_fabric_bytes",  // 1.80 of the value
    // Four odd shapes, every rung but cuBLAS, predicted before they were measured
    // (docs/validation/odd-shapes-README.txt): the fabric at 2216×1112×3336, a grid 9 tiles of 128
    // wide, of bf16_wgmma (more than a wave; 0.80 of the value) and of bf16_mma on the H200 (one
    // wave; 0.88 of the value before the one-wave rule, 1.10 with it), and above the value at
    // 776×9992×552. Until the request band for a CTA and the one that next
    // takes its SM reading one strip of A (kernels/l2_requests.hpp, successor_shared_bytes), also
    // smem_tiling's requests at 776×9992×552 (0.77 of the value on both GPUs).
    "h100 naive at 776×9992×552 l2_fabric_bytes",           // 1.36 of the value
    "h100 smem_tiling at 776×9992×552 l2_fabric_bytes",     // 1.35 of the value
    "h100 blocktiling_1d at 776×9992×552 l2_fabric_bytes",  // 1.18 of the value
    "h200 bf16_mma at 2216×1112×3336 l2_fabric_bytes",      // 1.10 of the value
    "h200 bf16_wgmma at 2216×1112×3336 l2_fabric_bytes",    // 0.80 of the value
    "h200 naive at 776×9992×552 l2_fabric_bytes",           // 1.11 of the value
    "h200 smem_tiling at 776×9992×552 l2_fabric_bytes",     // 1.11 of the value
    "h200 blocktiling_1d at 776×9992×552 l2_fabric_bytes",  // 1.12 of the value
    // Six shapes most rungs launch in one wave, predicted before they were measured
    // (docs/validation/one-wave-shapes-README.txt): on the H100 bf16_wgmma at 1408×1664×2048
    // (143 CTAs, one more wave of 11) and blocktiling_1d at 3840×640×1792 (2.3 waves of a grid 10
    // wide), under the value with the window (0.89, 0.87; 0.96 and 0.91 of it without), and
    // bf16_wgmma at 2560×768×3000 (one wave, 0.87: more strips on one side than the mean start
    // gives); on the H200 naive and smem_tiling at 640×5120×1536 above it (1.10, 1.48: the wide
    // grids above).
    "h100 bf16_wgmma at 1408×1664×2048 l2_fabric_bytes",
    "h100 blocktiling_1d at 3840×640×1792 l2_fabric_bytes",
    "h100 bf16_wgmma at 2560×768×3000 l2_fabric_bytes",
    "h200 naive at 640×5120×1536 l2_fabric_bytes",
    "h200 smem_tiling at 640×5120×1536 l2_fabric_bytes",
    // Six shapes eight rungs launch with no more CTAs than SMs, predicted before they were
    // measured (docs/validation/small-launch-shapes-README.txt): of the 48 rows per GPU that
    // take the small-launch rule, bf16_wgmma at 2816×512×2048 (0.90 and 0.88 of the value, 88
    // CTAs); the others not small launches: above the value where A and B are read again
    // (naive, smem_tiling and thread_tiling at 1024×1664×3072 on the H100, 1.11-1.15,
    // thread_tiling at 640×1280×4096 there, 1.14, their DRAM reads above the model too), under
    // it on grids of more than a wave (blocktiling_1d at 2816×512×2048 on the H200, 0.81) and
    // under bf16_cluster's multicast band at 384×4864×2048 (0.87 and 0.81 of its low end).
    "h100 thread_tiling at 640×1280×4096 l2_fabric_bytes",
    "h100 bf16_cluster at 384×4864×2048 l2_fabric_bytes",
    "h100 bf16_wgmma at 2816×512×2048 l2_fabric_bytes",
    "h100 naive at 1024×1664×3072 l2_fabric_bytes",
    "h100 smem_tiling at 1024×1664×3072 l2_fabric_bytes",
    "h100 thread_tiling at 1024×1664×3072 l2_fabric_bytes",
    "h200 bf16_cluster at 384×4864×2048 l2_fabric_bytes",
    "h200 blocktiling_1d at 2816×512×2048 l2_fabric_bytes",
    "h200 bf16_wgmma at 2816×512×2048 l2_fabric_bytes",
};

struct counts {
    int compared = 0;
    int missed = 0;
};

// Every L2 counter of every row of `<gpu>-<set>.json` but cuBLAS's (only its compulsory traffic
// is modelled).
counts check_set(const std::string& gpu, const std::string& set) {
    const auto p = read_profile(std::string(TGEMM_SOURCE_DIR) + "/docs/validation/" + gpu + "-" +
                                set + ".json");
    const auto mc = model_context_for(p.gpu);
    counts n;
    for (const auto& m : p.measurements) {
        if (m.skipped || m.kernel.starts_with("cublas")) continue;
        const auto pred = rung_registry::get().find(m.kernel).model(m.size, mc).refined;
        const auto where = gpu + " " + m.kernel + " at " + to_string(m.size);
        const double reads = m.counters.at(std::string(keys::dram_read_bytes));
        const auto allowed = test::dram_reads_allowed(pred);
        const double dram_miss =
            std::max(0.0, reads - allowed.high) + std::max(0.0, allowed.low - reads);
        for (const auto key : {keys::l2_write_bytes, keys::l2_fabric_bytes,
                               keys::l2_requested_bytes, keys::l2_read_bytes, keys::l2_bytes}) {
            const auto it = m.counters.find(std::string(key));
            if (it == m.counters.end() || !pred.get(key)) continue;
            const bool carries =
                key == keys::l2_fabric_bytes || key == keys::l2_read_bytes || key == keys::l2_bytes;
            const auto in =
                test::within_l2_model(pred, it->second, key, carries ? dram_miss : 0, where);
            const std::string name = where + " " + std::string(key);
            const bool named = known_misses.contains(name);
            EXPECT_EQ(bool(in), !named)
                << (named ? name + ": a named miss, now inside" : "") << in.message();
            ++n.compared;
            n.missed += named;
        }
    }
    return n;
}

}  // namespace

class L2OutOfSample : public ::testing::TestWithParam<std::string> {};

TEST_P(L2OutOfSample, WithinTheModelOrItsBandButTheNamed) {
    int compared = 0, missed = 0;
    for (const auto* set :
         {"readers-shapes", "walks-shapes", "sweep-shapes", "drifting-shapes", "sm-sharing-shapes",
          "odd-shapes", "one-wave-shapes", "small-launch-shapes"}) {
        const auto n = check_set(GetParam(), set);
        compared += n.compared;
        missed += n.missed;
    }
    // 442 rows (80, 28, 24, 20, 18, 68, 102 and 102), five counters each (the writes and fabric
    // of every row; the requests and totals where the rung models them).
    EXPECT_EQ(compared, 2210);
    // 17 and 29 before the one-wave rule; the one-wave shapes add 3 and 2, the small-launch
    // shapes 6 and 3.
    EXPECT_EQ(missed, GetParam() == "h100" ? 15 : 27);
}

INSTANTIATE_TEST_SUITE_P(Gpus, L2OutOfSample, ::testing::Values("h100", "h200"),
                         [](const auto& info) { return info.param; });
