// The shipped profiles (measured by the tool; docs/reproduce.md) and, for every registered rung,
// its rows there: verified, and its refined model, as the code computes it now, against the
// counters. Runs in CI without a GPU. A rung the profile predates has no rows: its checks skip
// and say so (tests/kernels/shipped_profiles.hpp), they do not pass silently.
//
// Tolerances (issue 3): L1 global load bytes 5 %; shared-memory wavefronts 5 %, loads and
// stores together (stores carry timing-dependent extra conflicts, docs/models/01_03...);
// FLOPs exactly. L2 writes and fabric bytes (the L2 traffic model, docs/models/l2.md) within 10 %
// or 1 MB of the model or its band, the fabric also within the DRAM read tolerance of its A and B
// part, which it takes from the DRAM read model. DRAM reads on every row, no row excepted: within
// 10 % of the model, or of its read band's ends where it gives one (an effect it does not derive,
// bounded by its two limiting cases). DRAM writes on every row: within 10 % or 1 MB of the
// model's value, or of its typed band's ends where it gives one (the wave model's C tiles pushed
// out of L2 within the kernel, kernels/wave_dram.hpp; tests/kernels/dram_expectations.hpp).
// cuBLAS rows: only their compulsory traffic is modelled, so only the lower ends are asserted
// (and the FP32 FLOPs are not). Tensor rungs (docs/models/13_17_tensor.md) add: tensor FLOPs,
// wgmma, ldmatrix and stmatrix wavefronts exactly;
// TMA load bytes exactly, but bf16_cluster's at ragged shapes within 10 % (its multicast boxes'
// count: +4.6 % at 1000×776×328, +6.9 % at 3000×1992×1000, not derived); where the epilogue stages
// C through shared memory with stmatrix, LSU shared wavefronts between the model and 20 % above it
// (the timing-dependent excess measured at +0.3 … +15.7 %); L2 read requests (measured for the
// tensor rungs only) within 10 %.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "dram_expectations.hpp"
#include "l2_expectations.hpp"
#include "model/levels.hpp"
#include "shipped_profiles.hpp"

using namespace tgemm;

namespace {

double get(const std::map<std::string, double, std::less<>>& m, std::string_view k) {
    const auto it = m.find(k);
    return it == m.end() ? NAN : it->second;
}
double get(const refined_model& r, std::string_view k) {
    return r.get(k).value_or(NAN);
}

// measured / model within [1 - below, 1 + above]; a model of zero requires a measured zero.
void expect_ratio(double measured, double model, double below, double above,
                  const std::string& what) {
    if (model == 0) {
        EXPECT_EQ(measured, 0) << what;
        return;
    }
    const double r = measured / model;
    EXPECT_TRUE(r >= 1 - below && r <= 1 + above)
        << what << ": measured " << measured << " against " << model << " (ratio " << r
        << ", allowed " << 1 - below << " … " << 1 + above << ")";
}

class ShippedProfile : public ::testing::TestWithParam<std::string> {};
class ShippedRung : public ::testing::TestWithParam<test::gpu_rung> {};

// The rung's rows in the shipped profile, or the test skips with the reason.
#define ROWS_OR_SKIP(rows)                                                                     \
    const auto& gr_ = GetParam();                                                              \
    if (const auto why_ = test::not_measured_reason(gr_.gpu, gr_.rung)) GTEST_SKIP() << *why_; \
    std::vector<const measurement*> rows;                                                      \
    for (const auto& m_ : test::shipped(gr_.gpu).measurements)                                 \
        if (m_.kernel == gr_.rung) rows.push_back(&m_);

}  // namespace

TEST_P(ShippedProfile, IsAMeasuredProfileAtTheLadderSizes) {
    const auto& p = test::shipped(GetParam());
    EXPECT_EQ(p.source, profile_source::measured);
    EXPECT_EQ(p.gpu.key, GetParam());
    const auto shapes = p.shapes();
    for (const auto s : {shape{1024, 1024, 1024}, shape{2048, 2048, 2048}, shape{4096, 4096, 4096}})
        EXPECT_NE(std::find(shapes.begin(), shapes.end(), s), shapes.end()) << to_arg(s);
    EXPECT_TRUE(
        std::any_of(shapes.begin(), shapes.end(), [](const shape& s) { return !s.square(); }));
    // Every row belongs to a rung of this build: a renamed or removed rung would leave rows that
    // no model or report line describes.
    for (const auto& id : p.kernels()) EXPECT_NE(rung_registry::get().try_find(id), nullptr) << id;
}

TEST_P(ShippedRung, IsMeasuredAndVerified) {
    ROWS_OR_SKIP(rows);
    for (const auto* m : rows) {
        EXPECT_FALSE(m->skipped) << m->kernel << " " << to_arg(m->size) << ": "
                                 << m->skipped.value_or("");
        EXPECT_TRUE(m->verified) << m->kernel << " " << to_arg(m->size);
    }
    // The FP32 ladder is measured at the three square sizes at least.
    for (const auto s : {shape{1024, 1024, 1024}, shape{2048, 2048, 2048}, shape{4096, 4096, 4096}})
        EXPECT_TRUE(
            std::any_of(rows.begin(), rows.end(), [&](const auto* m) { return m->size == s; }))
            << gr_.rung << " at " << to_arg(s);
}

TEST_P(ShippedRung, RefinedModelPredictsTheCounters) {
    ROWS_OR_SKIP(rows);
    const bool library = gr_.rung.starts_with("cublas");
    const auto mc = model_context_for(test::shipped(gr_.gpu).gpu);
    const auto& r = rung_registry::get().find(gr_.rung);
    int compared = 0;
    for (const auto* m : rows) {
        if (m->skipped) continue;
        const auto model = r.model(m->size, mc);
        const auto& pred = model.refined;
        const auto where = m->kernel + " at " + to_arg(m->size);

        const double reads_measured = get(m->counters, keys::dram_read_bytes);
        const double writes_measured = get(m->counters, keys::dram_write_bytes);
        const auto band = pred.dram_read_band;
        const auto allowed = test::dram_reads_allowed(pred);
        EXPECT_GE(reads_measured, allowed.low)
            << where << ": DRAM reads " << reads_measured << " below the model's " << allowed.low;
        test::expect_dram_writes(pred, writes_measured, double(mc.l2_bytes), library, where);
        ++compared;
        if (library) continue;
        const double c_bytes = double(m->size.m) * double(m->size.n) * element_bytes(r.types.c);
        EXPECT_LE(reads_measured, allowed.high)
            << where << ": DRAM reads " << reads_measured << " above the model's " << allowed.high
            << (band ? " (band: " + band->reason + ")" : std::string());

        // L2 writes and fabric bytes: the one L2 traffic model (kernels/l2_traffic.hpp).
        test::expect_l2_traffic(pred, get(m->counters, keys::l2_write_bytes),
                                get(m->counters, keys::l2_fabric_bytes), c_bytes, where);

        // FLOPs: the instrumented counters are exact, so is the model.
        EXPECT_EQ(get(m->counters, keys::flops), get(pred, keys::flops)) << where;

        const double l1 = get(m->counters, keys::l1_global_load_bytes);
        const double l1_model = get(pred, keys::l1_global_load_bytes);
        expect_ratio(l1, l1_model, 0, 0.05, where + ": L1 global load bytes");

        const double smem = get(m->counters, keys::smem_load_wavefronts) +
                            get(m->counters, keys::smem_store_wavefronts);
        const double smem_model =
            get(pred, keys::smem_load_wavefronts) + get(pred, keys::smem_store_wavefronts);
        const bool staged_epilogue = get(pred, keys::smem_stsm_wavefronts) > 0;
        if (staged_epilogue)
            expect_ratio(smem, smem_model, 0, 0.20, where + ": shared wavefronts");
        else
            expect_ratio(smem, smem_model, 0.05, 0.05, where + ": shared wavefronts");

        if (pred.tensor_flops) {
            for (const auto key : {keys::tensor_flops, keys::smem_gmma_wavefronts,
                                   keys::smem_ldsm_wavefronts, keys::smem_stsm_wavefronts})
                if (pred.get(key)) {
                    EXPECT_EQ(get(m->counters, key), get(pred, key)) << where << ": " << key;
                }
            const bool ragged = m->size.m % 256 != 0 || m->size.n % 256 != 0 || m->size.k % 64 != 0;
            const bool multicast = pred.tma_multicast_bytes.value_or(0) > 0;
            const double tma_band = ragged && multicast ? 0.10 : 0;
            if (pred.tma_load_bytes)
                expect_ratio(get(m->counters, keys::tma_load_bytes), *pred.tma_load_bytes, tma_band,
                             tma_band, where + ": TMA load bytes");
        }

        // L2 read requests where the profile measured them (the tensor rungs).
        test::expect_l2_requests(pred, get(m->counters, keys::l2_requested_bytes), where);
        // The L2's totals (kernels/l2_totals.hpp).
        test::expect_l2_totals(
            pred, [&](std::string_view k) { return get(m->counters, k); }, where);
    }
    EXPECT_GE(compared, 4) << gr_.rung;
}

INSTANTIATE_TEST_SUITE_P(Gpus, ShippedProfile, ::testing::ValuesIn(test::shipped_gpus()),
                         [](const auto& info) { return info.param; });
INSTANTIATE_TEST_SUITE_P(Gpus, ShippedRung, ::testing::ValuesIn(test::shipped_gpu_rungs()),
                         [](const auto& info) { return info.param.gpu + "_" + info.param.rung; });

namespace {

// Every value the models predict on the shipped profiles that the profile measured (a prediction
// with no counter is asserted nowhere: not a row), with its row and model.
template <class Visit>
void for_each_predicted_and_measured(const Visit& visit) {
    for (const auto& g : test::shipped_gpus()) {
        const auto& p = test::shipped(g);
        const auto mc = model_context_for(p.gpu);
        for (const auto& m : p.measurements) {
            const auto pred = rung_registry::get().find(m.kernel).model(m.size, mc).refined;
            for (const auto& f : refined_fields)
                if (pred.get(f.key) && m.counters.contains(f.key)) visit(g, m, pred, f.key);
        }
    }
}

}  // namespace

// How many predicted values carry a band instead of a point (issue 10 asks for at most 5 % of
// (rung, shape, counter) rows). Counted over both shipped profiles, against the values the models
// predict there that the profile measured: 823 of 3382 (24.3 %, the goal not met): 60 DRAM reads,
// 96 DRAM writes, 68 L2 writes, 143 L2 fabric, 28 L2 read requests, and since 2026-11-27 the
// L2's totals, 214 L2 reads and 214 L2 bytes, every one banded (the request coalescer's merges,
// kernels/l2_totals.hpp). 825 before the fabric of a launch of no more CTAs than SMs followed the
// logged dispatch of such launches (2026-11-28, kernels/one_wave_fabric.hpp: sm90_fp32's 32 CTAs at
// 1024³ on both GPUs, whose narrow-grid band became a value). 823 before the request model let CTAs
// in step that share an SM read a strip from L1 (2026-11-28, kernels/l2_requests.hpp: naive at
// 4096³ on both GPUs, whose band reaches 0.899 of the value, measured 0.92; it brought in naive's
// requests at four wide grids out of sample, tests/kernels/l2_out_of_sample_test.cpp). 827 before a
// strip was found again after any number of waves, as far as what lies between allows
// (kernels/wave_dram.cpp; until then only after the previous wave), which leaves thread_tiling's
// waves reading A and B once at 3000×1992×1000 and 4096×2048×1024. 828 before thread_tiling's
// waves, traced in step, crossed K together with its four walks of B (2026-11-27,
// kernels/04_thread_tiling.cu): 3 DRAM read and 2 write bands gone, 4 fabric bands new (its in-step
// waves re-read 0.2-0.4 MB of A and B at 3000×1992×1000 and 4096×2048×1024, which the fabric's
// re-read band takes up). 838 (108 DRAM writes) before the write band's low end lost its "strips
// held at their home only" (refuted: a partition holds 1 − (1/2)^(r+1) of a strip r CTAs read,
// kernels/wave_dram.hpp), for dirty lines that stay as long as clean ones (14 bands gone) and, for
// the drifting rungs, the last resident wave left at the end (4 new, thread_tiling and
// outer_product at 4096³). 826 (55 DRAM reads, 141 fabric) before the drifting rungs' read band
// took the groups running at once as its high end (2026-11-27, kernels/reg_tiling_model.hpp: it
// covers H200 smem_tiling at 1536×1536×4096, a named miss until then, and bands 8 shipped rows'
// reads, and 4 rows' fabric with them, whose measurement lies at the value). 790 of 3346 (23.6 %)
// before thread_tiling's requests had a value (a band: its warps walk B four times,
// kernels/l2_requests.hpp), and with them its totals; 386 of 2942 (13.1 %) before the totals had
// one: a counter with no model was no row at all. 424 of 2810 before 2026-11-26, when rungs 14-16's
// epilogue began writing whole sectors (42 L2 write bands gone) and the profiles, measured again,
// gained the L2 request counters of the FP32 rows (132 values, 14 of them banded: CTAs sharing an
// SM read one strip of B) and a fabric band for grids fewer tiles wide than one partition's
// shortest run of CTAs. 483 before 2026-11-25's DRAM write model. The bound is today's count, so a
// new band shows.
TEST(ShippedProfileBands, AtMostTodaysShare) {
    int values = 0;
    int bands = 0;
    for_each_predicted_and_measured([&](const std::string&, const measurement&,
                                        const refined_model& pred, std::string_view key) {
        ++values;
        if (pred.band(key)) ++bands;
    });
    EXPECT_EQ(values, 3382);
    EXPECT_LE(bands, 823);
}

// TGEMM_BAND_TABLE=1 prints every banded value of the count above, one line each: GPU, rung,
// shape, counter, the model's value, its band and the measurement in MB, and the band's reason;
// TGEMM_BAND_TABLE=all prints the values without a band too (model and measured, to compare a
// change of a model against every row).
TEST(ShippedProfileBands, Table) {
    const char* which = std::getenv("TGEMM_BAND_TABLE");
    if (!which) GTEST_SKIP() << "set TGEMM_BAND_TABLE=1 (banded values) or =all to print";
    const bool all = std::string_view(which) == "all";
    for_each_predicted_and_measured([all](const std::string& g, const measurement& m,
                                          const refined_model& pred, std::string_view key) {
        const auto* b = pred.band(key);
        const std::string k(key);
        if (!b) {
            if (all)
                std::printf("%s %s %s %s: model %.2f MB, measured %.2f MB\n", g.c_str(),
                            m.kernel.c_str(), to_arg(m.size).c_str(), k.c_str(),
                            *pred.get(key) / 1e6, m.counters.at(k) / 1e6);
            return;
        }
        std::printf("%s %s %s %s: model %.2f MB, band %.2f ... %.2f MB, measured %.2f MB | %s\n",
                    g.c_str(), m.kernel.c_str(), to_arg(m.size).c_str(), k.c_str(),
                    *pred.get(key) / 1e6, b->low / 1e6, b->high / 1e6, m.counters.at(k) / 1e6,
                    b->reason.c_str());
    });
}
