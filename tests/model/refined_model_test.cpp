// The typed refined model: each key of the table reaches its own field, and a key no field
// holds is refused rather than dropped.
#include <gtest/gtest.h>

#include <set>

#include "core/error.hpp"
#include "model/refined_model.hpp"

using namespace tgemm;

TEST(RefinedModel, EveryKeyReachesItsOwnField) {
    refined_model r;
    double v = 1;
    for (const auto& f : refined_fields) r.set(f.key, v++);
    v = 1;
    std::set<double> seen;
    for (const auto& f : refined_fields) {
        EXPECT_EQ(r.get(f.key), v) << f.key;
        EXPECT_EQ(r.*(f.member), v) << f.key;
        seen.insert(v++);
    }
    EXPECT_EQ(seen.size(), refined_fields.size());
}

TEST(RefinedModel, TypedFieldsAndKeysAreTheSameValues) {
    refined_model r;
    r.dram_read_bytes = 12;
    r.set(keys::smem_ldsm_wavefronts, 7);
    EXPECT_EQ(r.get(keys::dram_read_bytes), 12);
    EXPECT_EQ(r.smem_ldsm_wavefronts, 7);
    EXPECT_FALSE(r.get(keys::dram_write_bytes));  // not predicted: empty, never 0
}

TEST(RefinedModel, AKeyNoFieldHoldsIsRefused) {
    refined_model r;
    EXPECT_THROW(r.set("dram_read_byte", 1), error);
    EXPECT_FALSE(r.get("dram_read_byte"));
    // Timing is not a count, and dram_bytes is read + write, derived where it is used.
    for (const auto k : {keys::duration_ns, keys::sm_clock_hz, keys::dram_bytes}) {
        EXPECT_FALSE(refined_model::holds(k)) << k;
        EXPECT_THROW(r.set(k, 1), error) << k;
    }
    EXPECT_TRUE(refined_model::holds(keys::tensor_flops));
}

// Bands: one setter for the keys that have one, each reaching its own member; any other key is
// refused (a typo in a model).
TEST(RefinedModel, SetBandReachesItsKeysMemberAndRefusesOthers) {
    refined_model r;
    for (const auto k :
         {keys::dram_read_bytes, keys::dram_write_bytes, keys::l2_write_bytes,
          keys::l2_fabric_bytes, keys::l2_requested_bytes, keys::l2_read_bytes, keys::l2_bytes}) {
        EXPECT_EQ(r.band(k), nullptr) << k;
        r.set_band(k, {1, 2, std::string(k)});
        ASSERT_NE(r.band(k), nullptr) << k;
        EXPECT_EQ(r.band(k)->reason, k);
    }
    EXPECT_EQ(r.dram_write_band->reason, keys::dram_write_bytes);
    EXPECT_EQ(r.l2_band->reason, keys::l2_bytes);
    EXPECT_THROW(r.set_band(keys::l2_coalesced_bytes, {1, 2, "no band for the merges"}), error);
    EXPECT_EQ(r.band(keys::l2_coalesced_bytes), nullptr);
}
