// A rung added after the shipped profiles were measured, as the next real one will be: one file
// with its kernel, launch, launch data, model and registration (docs/adding-a-kernel.md), and
// the proof that the build stays green before any GPU run. This file is compiled into its own
// test binary (tgemm_dummy_rung_tests, with the shipped-profile tests), never into
// tgemm-roofline or the other test binaries: CliExecutable.HasNoTestRung checks the
// executable.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/analysis.hpp"
#include "can_run.hpp"
#include "cli/render_stored.hpp"
#include "common.cuh"
#include "render/markdown_report.hpp"
#include "rung.hpp"
#include "shipped_profiles.hpp"

namespace tgemm {
namespace {

// ---- the rung --------------------------------------------------------------------------------

constexpr int block = 16;

// One output per thread, K walked an element at a time.
__global__ void dummy_kernel(int m, int n, int k, float alpha, const float* a, const float* b,
                             float beta, float* c) {
    const int row = blockIdx.y * block + threadIdx.y;
    const int col = blockIdx.x * block + threadIdx.x;
    if (row >= m || col >= n) return;
    float acc = 0.0f;
    for (int i = 0; i < k; ++i) acc += a[long(row) * k + i] * b[long(i) * n + col];
    c[long(row) * n + col] = alpha * acc + beta * c[long(row) * n + col];
}

// Registers: what ptxas would say; the GPU test (LaunchInfo) is not part of this binary.
constexpr kernels::launch_info info{
    .tile_m = block, .tile_n = block, .tile_k = 1, .threads = block * block, .registers = 32};

void launch(const gemm_args& g, const launch_context& ctx) {
    const dim3 grid(static_cast<unsigned>(model::ceil_div(g.size.n, block)),
                    static_cast<unsigned>(model::ceil_div(g.size.m, block)));
    dummy_kernel<<<grid, dim3(block, block), info.dynamic_smem_bytes, ctx.stream>>>(
        static_cast<int>(g.size.m), static_cast<int>(g.size.n), static_cast<int>(g.size.k), g.alpha,
        g.a_as<float>(), g.b_as<float>(), g.beta, g.c_as<float>());
}

rung_model model_fn(const shape& s, const model_context& mc) {
    rung_model m;
    m.textbook.flops = model::seed_flops(s);
    m.textbook.global_bytes = (2.0 * s.m * s.n * s.k + 2.0 * s.m * s.n) * model::fp32_bytes;
    m.textbook.formula = "(2MNK + 2MN)·4 B";
    m.refined.flops = model::executed_flops(s, s.k);
    m.refined.dram_read_bytes = model::compulsory_read_bytes(s);
    m.refined.dram_write_bytes = model::dram_write_bytes(s, mc);
    m.refined.notes.push_back("DRAM: compulsory, a test rung");
    return m;
}

rung make() {
    return {.id = "dummy",
            .display_name = "Dummy rung (test only)",
            .order = 999,
            .seed = "none: tests/dummy_rung/dummy_rung_test.cu",
            .params = "16×16 threads, one output each",
            .kernel_symbol = "dummy_kernel",
            .config = kernels::with_kernel(info, dummy_kernel),
            .launch = launch,
            .model = model_fn,
            .can_run = kernels::runs_any_shape()};
}

}  // namespace
}  // namespace tgemm

TGEMM_REGISTER_RUNG(tgemm::make())

// ---- what it proves ----------------------------------------------------------------------------

using namespace tgemm;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

// Registered beside the real ladder, with its model usable on the shipped GPUs.
TEST(DummyRung, IsRegisteredAfterTheLadder) {
    const auto ids = rung_registry::get().ids();
    ASSERT_FALSE(ids.empty());
    EXPECT_EQ(ids.back(), "dummy");
    EXPECT_NE(rung_registry::get().try_find("naive"), nullptr);
    const auto m = rung_registry::get().find("dummy").model(
        {1024, 1024, 1024}, model_context_for(test::shipped("h100").gpu));
    EXPECT_GT(*m.refined.flops, 0);
}

// The shipped-profile checks of this binary (tests/kernels/shipped_profile_test.cpp) skip for
// it, with this reason, on both GPUs.
TEST(DummyRung, ShippedProfileChecksSkipItAsNotMeasured) {
    for (const auto& gpu : test::shipped_gpus()) {
        const auto why = test::not_measured_reason(gpu, "dummy");
        ASSERT_TRUE(why) << gpu;
        EXPECT_TRUE(why->starts_with("not measured: profiles/" + gpu +
                                     ".json has no row of rung "
                                     "'dummy'"))
            << *why;
        EXPECT_FALSE(test::not_measured_reason(gpu, "naive")) << gpu;
    }
}

// The shipped profile renders as before, plus one line naming the dummy as not measured.
TEST(DummyRung, TheReportListsItAsNotMeasured) {
    const auto dir = fs::temp_directory_path() / ("tgemm-dummy-rung-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    cli::render_stored(test::shipped("h100"), dir, "profiles/h100.json");
    const auto md = slurp(dir / "details.md");
    fs::remove_all(dir);
    EXPECT_NE(md.find("\n## Not measured\n"), std::string::npos);
    EXPECT_NE(md.find("\n- `dummy` (Dummy rung (test only)): not measured.\n"), std::string::npos)
        << md.substr(0, 400);
    EXPECT_EQ(md.find("`naive` (Naive (coalesced B)): not measured"), std::string::npos);

    // Without the ladder the same report has no such section: the lines are all it adds.
    render::report_options plain;
    plain.profile_label = "profiles/h100.json";
    render::report_options with_ladder = plain;
    with_ladder.ladder = cli::registered_ladder();
    const auto a = analyze(test::shipped("h100"));
    auto listed = render::markdown_report(a, with_ladder);
    const auto from = listed.find("## Not measured\n");
    ASSERT_NE(from, std::string::npos);
    listed.erase(from, listed.find("\n## ", from + 1) + 1 - from);
    EXPECT_EQ(listed, render::markdown_report(a, plain));
}
