// The measuring loop (collect/pair_loop.hpp) with a fake pair measurer, no GPU: a stopped run
// resumed equals one whole run row for row; a device error at pair k keeps k rows in the partial
// profile and says which pair was in flight; a checkpoint of another run is refused; a folder
// that cannot be written fails before anything is measured; Ctrl-C through the real handler
// stops after the pair in flight; --repeat keeps the first run's values and the spread;
// --counter-batch measures pairs of one size together and checkpoints each batch.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>

#include "cli/resume.hpp"
#include "collect/pair_loop.hpp"
#include "collect/stop_request.hpp"
#include "core/error.hpp"
#include "gpu/peaks.hpp"
#include "profile/profile_file.hpp"
#include "scratch_dir.hpp"

using namespace tgemm;
using tgemm::cli::stopped_run_to_resume;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kernel_ids = {"naive", "smem_tiling", "cublas"};
const std::vector<shape> shapes = {{256, 256, 256}, {512, 512, 512}};

run_identity identity() {
    run_identity id;
    id.kernels = kernel_ids;
    id.sizes = shapes;
    id.min_runs = 20;
    id.noise_target = 0.005;
    id.max_time_s = 10;
    id.gpu = "h100";
    id.gpu_uuid = "GPU-00000000-0000-0000-0000-000000000001";
    id.tool_version = "0.1.0";
    return id;
}

// A readable profile header: what measure.cpp writes before the first pair.
profile header() {
    profile p;
    p.gpu.key = "h100";
    p.gpu.name = "NVIDIA H100 80GB HBM3";
    p.gpu.cc = "9.0";
    p.gpu.sm_count = 132;
    p.gpu.fp32_lanes_per_sm = 128;
    p.gpu.sm_clock_mhz = 1980;
    p.gpu.mem_clock_mhz = 2619;
    p.gpu.bus_width_bits = 5120;
    p.gpu.l2_bytes = 50LL << 20;
    p.gpu.limits = sm_limits_cc90;
    p.gpu.limits.smem_per_cta_optin = 232448;
    p.env.tool_version = "0.1.0";
    p.env.command = "tgemm-roofline --kernels naive,smem_tiling,cublas --sizes 256,512";
    p.env.date = "2026-11-30T10:00:00Z";
    p.env.work_list = work_list_record{6, {}};
    p.peaks = theoretical_roofs(p.gpu);
    return p;
}

// The same canned row for a pair and a run, whatever the process that measures it.
measurement canned(const std::string& kernel, const shape& s, int run) {
    measurement m;
    m.kernel = kernel;
    m.size = s;
    m.verified = true;
    const double base = static_cast<double>(s.m) / 256 + static_cast<double>(kernel.size());
    timing t;
    t.median_ms = base * (1 + 0.02 * run);
    t.min_ms = t.median_ms * 0.99;
    t.max_ms = t.median_ms * 1.05;
    t.runs = 20;
    t.noise = 0.001;
    t.noise_target = 0.005;
    t.noise_met = true;
    m.time = t;
    m.counters["dram_read_bytes"] = 1e6 * base;
    m.counters["l2_read_bytes"] = 3e6 * base * (1 + 0.001 * run);
    return m;
}

struct fake_measurer {
    int calls = 0;
    int fail_at = -1;  // the call that throws a lost GPU
    int stop_at = -1;  // the call after which the user presses Ctrl-C
    bool raise_sigint = false;
    int stop = 0;

    std::vector<std::size_t> batches;  // the length of each batch measured

    pair_measurer one() {
        return [this](const work_item& item, int r) {
            const int call = calls++;
            if (call == fail_at)
                throw error(error_kind::device,
                            "the GPU failed: cudaErrorIllegalAddress (an illegal memory access "
                            "was encountered) in cudaEventSynchronize(stop.get())");
            if (call == stop_at) {
                if (raise_sigint)
                    std::raise(SIGINT);  // the real handler records it
                else
                    stop = SIGINT;
            }
            return canned(kernel_ids[item.kernel], item.size, r);
        };
    }

    pair_run make(int repeat = 1, std::size_t batch = 1) {
        pair_run run;
        std::vector<work_kernel> ks;
        for (const auto& k : kernel_ids) ks.push_back({k, false});
        run.items = make_work_list(ks, shapes, {});
        run.kernels = kernel_ids;
        run.repeat = repeat;
        run.batch = batch;
        run.measure = [this, each = pair_by_pair(one())](std::span<const work_item> items, int r) {
            batches.push_back(items.size());
            return each(items, r);
        };
        if (!raise_sigint) run.stop_signal = [this] { return stop; };
        return run;
    }
};

checkpoint fresh(const fs::path& path) {
    checkpoint cp;
    cp.path = path;
    cp.content.done = header();
    cp.content.identity = identity();
    return cp;
}

std::string message_of(const std::function<void()>& f, error_kind kind) {
    try {
        f();
    } catch (const error& e) {
        EXPECT_EQ(e.kind(), kind) << e.what();
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "did not throw";
    return {};
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

class PairLoop : public test::scratch_dir_test {
  protected:
    PairLoop() : scratch_dir_test("tgemm-pair-loop-") {}
    void TearDown() override {
        clear_stop_request();
        scratch_dir_test::TearDown();
    }
    fs::path partial() const { return m_dir / "h100.json.partial"; }
};

}  // namespace

TEST_F(PairLoop, ResumeAfterAStopEqualsOneWholeRun) {
    for (const int repeat : {1, 2}) {
        fake_measurer whole_m;
        auto whole_cp = fresh(m_dir / "whole.json.partial");
        const auto whole = run_pairs(whole_m.make(repeat), whole_cp);
        EXPECT_EQ(whole.result.measurements.size(), 6u);
        EXPECT_EQ(whole_m.calls, 6 * repeat);

        // Ctrl-C during the third pair (or, with --repeat 2, the ninth): it finishes, then stops.
        fake_measurer first;
        first.stop_at = repeat == 1 ? 2 : 8;
        auto cp = fresh(partial());
        const auto why =
            message_of([&] { (void)run_pairs(first.make(repeat), cp); }, error_kind::interrupted);
        const int kept = first.stop_at + 1;
        EXPECT_TRUE(has(why, "stopped by SIGINT (Ctrl-C)")) << why;
        EXPECT_TRUE(has(why, std::to_string(kept) + " of ")) << why;
        EXPECT_TRUE(has(why, partial().string())) << why;
        EXPECT_TRUE(has(why, "--resume")) << why;
        EXPECT_EQ(first.calls, kept);

        // A new process: the checkpoint from the file, the remaining pairs only.
        auto stored = stopped_run_to_resume(partial(), true, identity());
        ASSERT_TRUE(stored);
        std::size_t rows = stored->done.measurements.size();
        for (const auto& r : stored->later_runs) rows += r.size();
        EXPECT_EQ(rows, static_cast<std::size_t>(kept));
        fake_measurer second;
        checkpoint resumed{partial(), *stored};
        const auto done = run_pairs(second.make(repeat), resumed);
        EXPECT_EQ(second.calls, 6 * repeat - kept);
        EXPECT_EQ(dump_profile(done.result), dump_profile(whole.result)) << "repeat " << repeat;
        fs::remove(partial());
    }
}

TEST_F(PairLoop, ADeviceErrorAtPairKKeepsKRows) {
    fake_measurer m;
    m.fail_at = 3;  // the fourth pair: naive at 512³
    auto cp = fresh(partial());
    const auto why = message_of([&] { (void)run_pairs(m.make(), cp); }, error_kind::device);
    EXPECT_TRUE(has(why, "the GPU failed: cudaErrorIllegalAddress")) << why;
    EXPECT_TRUE(has(why, "while measuring naive 512³, pair 4 of 6")) << why;
    EXPECT_TRUE(has(why, "3 of 6 pair(s) are kept in " + partial().string())) << why;
    EXPECT_TRUE(has(why, "run the same command with --resume to measure the other 3")) << why;
    const auto kept = read_partial(partial());
    ASSERT_EQ(kept.done.measurements.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(kept.done.measurements[i].kernel, kernel_ids[i]);
        EXPECT_EQ(kept.done.measurements[i].size, shapes[0]);
    }
    EXPECT_EQ(kept.identity, identity());
}

TEST_F(PairLoop, APartialOfAnotherRunIsRefused) {
    fake_measurer m;
    m.stop_at = 0;
    auto cp = fresh(partial());
    (void)message_of([&] { (void)run_pairs(m.make(), cp); }, error_kind::interrupted);

    auto other = identity();
    other.kernels = {"naive"};
    auto why =
        message_of([&] { (void)stopped_run_to_resume(partial(), true, other); }, error_kind::usage);
    EXPECT_TRUE(has(why, "--kernels: naive,smem_tiling,cublas in the file, naive in this command"))
        << why;
    EXPECT_TRUE(has(why, "`tgemm-roofline --kernels naive,smem_tiling,cublas --sizes 256,512`"))
        << why;
    other = identity();
    other.gpu_uuid = "GPU-ffffffff-0000-0000-0000-000000000002";
    EXPECT_TRUE(has(
        message_of([&] { (void)stopped_run_to_resume(partial(), true, other); }, error_kind::usage),
        "the GPU card"));
    other = identity();
    other.tool_version = "0.2.0";
    EXPECT_TRUE(has(
        message_of([&] { (void)stopped_run_to_resume(partial(), true, other); }, error_kind::usage),
        "the tool version: 0.1.0 in the file, 0.2.0 in this command"));

    // Without --resume a stopped run is not overwritten; --resume with none is a mistake too.
    why = message_of([&] { (void)stopped_run_to_resume(partial(), false, identity()); },
                     error_kind::usage);
    EXPECT_TRUE(has(why, "1 of 6 pair(s)")) << why;
    EXPECT_TRUE(has(why, "add --resume")) << why;
    EXPECT_FALSE(stopped_run_to_resume(m_dir / "none.partial", false, identity()));
    EXPECT_TRUE(
        has(message_of([&] { (void)stopped_run_to_resume(m_dir / "none", true, identity()); },
                       error_kind::usage),
            "no stopped run"));

    // Rows that are not this run's pairs, whatever the identity says.
    auto stored = read_partial(partial());
    stored.done.measurements[0].kernel = "cublas";
    checkpoint wrong{partial(), stored};
    fake_measurer again;
    why = message_of([&] { (void)run_pairs(again.make(), wrong); }, error_kind::input);
    EXPECT_TRUE(has(why, "row 0 of run 1 is cublas at 256³")) << why;
    EXPECT_EQ(again.calls, 0);
}

TEST_F(PairLoop, AnUnwritableFolderFailsBeforeMeasuring) {
    std::ofstream(m_dir / "a-file") << "not a folder";
    fake_measurer m;
    auto cp = fresh(m_dir / "a-file" / "h100.json.partial");
    const auto why = message_of([&] { (void)run_pairs(m.make(), cp); }, error_kind::usage);
    EXPECT_TRUE(has(why, "cannot write")) << why;
    EXPECT_EQ(m.calls, 0);
}

// The real handler: SIGINT during a pair lets it finish, then the loop stops.
TEST_F(PairLoop, CtrlCStopsAfterThePairInFlight) {
    struct sigaction before {};
    sigaction(SIGINT, nullptr, &before);
    {
        const stop_on_signals guard;
        fake_measurer m;
        m.stop_at = 1;
        m.raise_sigint = true;
        auto cp = fresh(partial());
        const auto why =
            message_of([&] { (void)run_pairs(m.make(), cp); }, error_kind::interrupted);
        EXPECT_TRUE(has(why, "stopped by SIGINT (Ctrl-C): 2 of 6 pair(s) are kept")) << why;
        EXPECT_EQ(m.calls, 2);
        EXPECT_EQ(read_partial(partial()).done.measurements.size(), 2u);
    }
    struct sigaction after {};
    sigaction(SIGINT, nullptr, &after);
    EXPECT_EQ(after.sa_handler, before.sa_handler);  // the previous handler is back
}

TEST_F(PairLoop, RepeatKeepsTheFirstRunAndTheSpread) {
    fake_measurer m;
    auto cp = fresh(partial());
    const auto done = run_pairs(m.make(3), cp);
    ASSERT_EQ(done.result.measurements.size(), 6u);
    const auto& row = done.result.measurements[0];
    EXPECT_EQ(row.time->median_ms, canned("naive", shapes[0], 0).time->median_ms);
    ASSERT_TRUE(row.repeats);
    EXPECT_EQ(row.repeats->n, 3);
    ASSERT_TRUE(row.repeats->median_ms);
    EXPECT_NEAR(row.repeats->median_ms->relative(), 0.04 / 1.02, 1e-12);
    EXPECT_EQ(row.repeats->counters.at("dram_read_bytes").relative(), 0);
}

TEST_F(PairLoop, VerificationFailuresAreRowsAndLines) {
    fake_measurer m;
    auto run = m.make();
    run.measure = pair_by_pair([&, inner = m.one()](const work_item& item, int r) {
        auto row = inner(item, r);
        if (row.kernel == "smem_tiling" && row.size == shapes[1]) {
            const auto kernel = row.kernel;
            row = measurement{};
            row.kernel = kernel;
            row.size = item.size;
            row.skipped = "verification failed: kernel 'smem_tiling' differs from cuBLAS";
        }
        return row;
    });
    auto cp = fresh(partial());
    const auto done = run_pairs(run, cp);
    ASSERT_EQ(done.failures.size(), 1u);
    EXPECT_EQ(done.failures[0], "kernel 'smem_tiling' differs from cuBLAS at 512³");
}

// --counter-batch: a batch never spans two sizes, the checkpoint follows each batch, a failure
// names the batch's pairs and keeps the batches before it, and the rows are the pair-by-pair
// run's.
TEST_F(PairLoop, BatchesStayWithinASizeAndAreCheckpointedWhole) {
    fake_measurer single;
    auto single_cp = fresh(m_dir / "single.json.partial");
    const auto by_pair = run_pairs(single.make(), single_cp);
    EXPECT_EQ(single.batches, (std::vector<std::size_t>{1, 1, 1, 1, 1, 1}));

    for (const std::size_t batch : {2u, 32u}) {
        fake_measurer m;
        auto cp = fresh(m_dir / ("batch-" + std::to_string(batch) + ".json.partial"));
        const auto done = run_pairs(m.make(1, batch), cp);
        const std::vector<std::size_t> expected =
            batch == 2 ? std::vector<std::size_t>{2, 1, 2, 1} : std::vector<std::size_t>{3, 3};
        EXPECT_EQ(m.batches, expected);
        EXPECT_EQ(dump_profile(done.result), dump_profile(by_pair.result)) << batch;
    }

    fake_measurer m;
    m.fail_at = 4;  // the fifth pair, smem_tiling at 512³, in the batch of pairs 4-5
    auto cp = fresh(partial());
    const auto why = message_of([&] { (void)run_pairs(m.make(1, 2), cp); }, error_kind::device);
    EXPECT_TRUE(has(why, "while measuring naive .. smem_tiling 512³ (2 pairs), pairs 4-5 of 6"))
        << why;
    EXPECT_TRUE(has(why, "3 of 6 pair(s) are kept in " + partial().string())) << why;
    EXPECT_EQ(read_partial(partial()).done.measurements.size(), 3u);
}
