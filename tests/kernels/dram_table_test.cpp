// Every row's DRAM reads and writes beside the model, for any measured profile: the table a model
// change is judged by (docs/models/dram-waves.md names the sets). Runs when TGEMM_DRAM_TABLE lists
// profiles (paths from the source folder, comma-separated); prints one line per row and counter,
// with the value, the band where there is one, the measurement, its ratio to the value and
// whether it lies within the tolerance of the value or the band; for a row not measured (a
// predicted profile), the model's value and band alone. Asserts nothing but that every row has a
// model.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "dram_expectations.hpp"
#include "listed_profiles.hpp"

using namespace tgemm;

TEST(DramRows, Table) {
    const bool listed = test::for_each_listed_row(
        "TGEMM_DRAM_TABLE", [](const profile& p, const measurement& m, const refined_model& pred) {
            if (!m.verified || !m.counters.contains(std::string(keys::dram_read_bytes))) {
                // A predicted profile: the model alone, to commit before a measurement.
                const auto* rb = pred.dram_read_band ? &*pred.dram_read_band : nullptr;
                const double v = pred.dram_read_bytes.value_or(0);
                std::printf("%s %s %s reads: model %.2f MB, band %.2f … %.2f, not measured\n",
                            p.gpu.key.c_str(), m.kernel.c_str(), to_string(m.size).c_str(), v / 1e6,
                            (rb ? rb->low : v) / 1e6, (rb ? rb->high : v) / 1e6);
                return;
            }
            const auto r = test::dram_reads_allowed(pred);
            const auto w = test::dram_writes_allowed(pred);
            const double reads = m.counters.at(std::string(keys::dram_read_bytes));
            const double writes = m.counters.at(std::string(keys::dram_write_bytes));
            const double rv = pred.dram_read_bytes.value_or(0);
            const auto* rb = pred.dram_read_band ? &*pred.dram_read_band : nullptr;
            std::printf("%s %s %s reads: model %.2f MB%s, measured %.2f MB (%.3f) %s\n",
                        p.gpu.key.c_str(), m.kernel.c_str(), to_string(m.size).c_str(), rv / 1e6,
                        rb ? (", band " + std::to_string(rb->low / 1e6) + " … " +
                              std::to_string(rb->high / 1e6))
                                 .c_str()
                           : "",
                        reads / 1e6, rv > 0 ? reads / rv : 0.0,
                        reads >= r.low && reads <= r.high ? "in" : "OUT");
            const double wv = pred.get(keys::dram_write_bytes).value_or(0);
            std::printf("%s %s %s writes: model %.2f MB, band %.2f … %.2f, measured %.2f MB %s\n",
                        p.gpu.key.c_str(), m.kernel.c_str(), to_string(m.size).c_str(), wv / 1e6,
                        w.low / 1e6, w.high / 1e6, writes / 1e6,
                        writes >= w.allowed_low && writes <= w.allowed_high ? "in" : "OUT");
        });
    if (!listed) GTEST_SKIP() << "TGEMM_DRAM_TABLE names no profiles";
}
