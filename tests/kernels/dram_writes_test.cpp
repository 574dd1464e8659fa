// The DRAM write value and band (kernels/dram_writes.hpp, docs/models/dram-waves.md) on
// hand-computed cases.
#include <gtest/gtest.h>

#include "dram_writes.hpp"
#include "model/levels.hpp"

using namespace tgemm;
using kernels::add_dram_write_band;

namespace {
constexpr double mib = 1024.0 * 1024.0;
constexpr std::int64_t l2_50mib = 50 * 1024 * 1024;
const shape s4096{4096, 4096, 4096};  // FP32 C: 64 MiB

refined_model writes_c(double writes, double stored) {
    refined_model r;
    r.dram_write_bytes = writes;
    r.l1_global_store_bytes = stored;
    return r;
}
}  // namespace

// C (64 MiB) must leave a 50 MiB L2: between C less the L2 (14 MiB) and C.
TEST(DramWrites, BandFromCLessTheL2ToC) {
    auto r = writes_c(64 * mib, 64 * mib);
    add_dram_write_band(r, s4096, 4, l2_50mib);
    const auto* b = r.band(keys::dram_write_bytes);
    ASSERT_NE(b, nullptr);
    EXPECT_DOUBLE_EQ(b->low, 14 * mib);
    EXPECT_DOUBLE_EQ(b->high, 64 * mib);
    EXPECT_EQ(r.notes.size(), 1u);
}

// Uncoalesced stores (8 × C's sectors at L1): the high end is every stored sector; C smaller
// than the L2: the low end is zero.
TEST(DramWrites, PartialStoresRaiseTheHighEnd) {
    auto r = writes_c(16 * mib, 128 * mib);
    add_dram_write_band(r, shape{2048, 2048, 2048}, 4, l2_50mib);
    ASSERT_TRUE(r.dram_write_band);
    EXPECT_DOUBLE_EQ(r.dram_write_band->low, 0);
    EXPECT_DOUBLE_EQ(r.dram_write_band->high, 128 * mib);
}

// Where the model keeps C in L2 (0 B), or predicts no stores (cuBLAS): a value, no band.
TEST(DramWrites, NoBandWhereCStaysOrStoresAreNotPredicted) {
    auto stays = writes_c(0, 64 * mib);
    add_dram_write_band(stays, s4096, 4, l2_50mib);
    EXPECT_FALSE(stays.dram_write_band);
    EXPECT_TRUE(stays.notes.empty());
    refined_model library;
    library.dram_write_bytes = 64 * mib;
    add_dram_write_band(library, s4096, 4, l2_50mib);
    EXPECT_FALSE(library.dram_write_band);
}

// The wave model's writes (kernels/wave_dram.hpp): the value always; a band only where an end
// lies beyond 10 % or 1 MB of it; stream-K's partial sums raise the high end.
TEST(DramWrites, WaveModelBandOnlyBeyondTheTolerance) {
    kernels::wave_reads w;
    w.c_bytes = 64 * mib;
    w.c_written_bytes = 40 * mib;
    w.c_written_low = 37 * mib;  // 3 MiB below: inside 10 % of 40 MiB
    w.c_written_high = 43 * mib;
    refined_model tight;
    kernels::set_wave_dram_writes(tight, w);
    EXPECT_DOUBLE_EQ(*tight.dram_write_bytes, 40 * mib);
    EXPECT_FALSE(tight.dram_write_band);

    w.c_written_low = 20 * mib;
    refined_model wide;
    kernels::set_wave_dram_writes(wide, w);
    ASSERT_TRUE(wide.dram_write_band);
    EXPECT_DOUBLE_EQ(wide.dram_write_band->low, 20 * mib);
    EXPECT_DOUBLE_EQ(wide.dram_write_band->high, 43 * mib);

    // Partial sums: 8 MiB more may leave, so the high end moves beyond the tolerance.
    w.c_written_low = 40 * mib;
    refined_model stream_k;
    kernels::set_wave_dram_writes(stream_k, w, 8 * mib);
    ASSERT_TRUE(stream_k.dram_write_band);
    EXPECT_DOUBLE_EQ(stream_k.dram_write_band->low, 40 * mib);
    EXPECT_DOUBLE_EQ(stream_k.dram_write_band->high, 51 * mib);
    // Nothing written and nothing that could be (all of C stays): 0, no band.
    kernels::wave_reads stays;
    stays.c_bytes = 4 * mib;
    refined_model none;
    kernels::set_wave_dram_writes(none, stays);
    EXPECT_EQ(*none.dram_write_bytes, 0);
    EXPECT_FALSE(none.dram_write_band);
}
