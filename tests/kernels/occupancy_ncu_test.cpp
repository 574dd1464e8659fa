// Theoretical occupancy of every rung against Nsight Compute: the launch limits and
// sm__maximum_warps_per_active_cycle_pct it reported for the compiled kernels on the H100
// (docs/validation/occupancy-h100.csv, made by scripts/validate_occupancy.sh).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "gpu_context.hpp"
#include "rung.hpp"

using namespace tgemm;

namespace {

struct ncu_launch {
    std::string kernel;
    int threads = 0, registers = 0, limit_warps = 0, limit_blocks = 0, limit_registers = 0,
        limit_smem = 0;
    double max_warps_pct = 0;
};

std::vector<ncu_launch> read_occupancy_csv() {
    std::ifstream in(std::string(TGEMM_SOURCE_DIR) + "/docs/validation/occupancy-h100.csv");
    std::vector<ncu_launch> out;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#' || line.starts_with("kernel,")) continue;
        std::replace(line.begin(), line.end(), ',', ' ');
        std::istringstream f(line);
        ncu_launch l;
        f >> l.kernel >> l.threads >> l.registers >> l.limit_warps >> l.limit_blocks >>
            l.limit_registers >> l.limit_smem >> l.max_warps_pct;
        if (f) out.push_back(l);
    }
    return out;
}

}  // namespace

TEST(Occupancy, EveryRungMatchesNsightCompute) {
    const auto launches = read_occupancy_csv();
    ASSERT_GE(launches.size(), 17u) << "docs/validation/occupancy-h100.csv unreadable";
    const auto mc = test::h100();
    int compared = 0;
    for (const auto& l : launches) {
        const auto* r = rung_registry::get().try_find(l.kernel);
        if (!r || !r->config) continue;  // cuBLAS: the library's kernels
        SCOPED_TRACE(l.kernel);
        EXPECT_EQ(r->config->threads, l.threads);
        EXPECT_EQ(r->config->registers, l.registers);
        const auto lim = limits_of(mc.limits, r->config->cta());
        EXPECT_EQ(lim.threads, std::min(l.limit_warps, l.limit_blocks));
        EXPECT_EQ(lim.registers, l.limit_registers);
        // The driver picks the smallest shared-memory carveout that keeps the occupancy, and
        // ncu reports the CTAs that carveout allows; the calculator counts the largest, so the
        // two agree where shared memory is the limit and ncu's is never the larger otherwise.
        if (std::string(lim.limiter()) == "shared memory")
            EXPECT_EQ(lim.shared_memory, l.limit_smem);
        else
            EXPECT_GE(lim.shared_memory, l.limit_smem);
        const auto m = r->model(shape{2048, 2048, 2048}, mc);
        ASSERT_TRUE(m.occupancy);
        EXPECT_DOUBLE_EQ(m.occupancy->pct(), l.max_warps_pct);
        ++compared;
    }
    EXPECT_EQ(compared, 17);
}
