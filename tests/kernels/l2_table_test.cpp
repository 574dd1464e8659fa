// The L2 models' rows of any profiles, one line per counter: the model's value and band and, where
// the profile measured it, the measurement and whether it lies within the L2 tolerance of them (the
// check of tests/kernels/l2_out_of_sample_test.cpp, without the DRAM read miss carried). Runs when
// TGEMM_L2_TABLE lists profiles (paths from the source tree, comma-separated); a predicted profile
// (--predict) prints the model alone, to commit before a measurement.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "l2_expectations.hpp"
#include "listed_profiles.hpp"

using namespace tgemm;

TEST(L2Rows, Table) {
    const bool listed = test::for_each_listed_row(
        "TGEMM_L2_TABLE", [](const profile& p, const measurement& m, const refined_model& pred) {
            const auto where = p.gpu.key + " " + m.kernel + " " + to_string(m.size);
            for (const auto key : {keys::l2_requested_bytes, keys::l2_write_bytes,
                                   keys::l2_fabric_bytes, keys::l2_read_bytes, keys::l2_bytes}) {
                const auto value = pred.get(key);
                if (!value) continue;
                const auto* b = pred.band(key);
                std::printf("%s %s: model %.2f MB, band %.2f … %.2f", where.c_str(),
                            std::string(key).c_str(), *value / 1e6, (b ? b->low : *value) / 1e6,
                            (b ? b->high : *value) / 1e6);
                const auto it = m.counters.find(std::string(key));
                if (!m.verified || it == m.counters.end()) {
                    std::printf(", not measured\n");
                    continue;
                }
                const bool in = test::within_l2_model(pred, it->second, key, 0, where);
                std::printf(", measured %.2f MB (%.3f) %s\n", it->second / 1e6, it->second / *value,
                            in ? "in" : "OUT");
            }
        });
    if (!listed) GTEST_SKIP() << "TGEMM_L2_TABLE names no profiles";
}
