#include "model/analysis.hpp"

#include "model/levels.hpp"
#include "model/roofline.hpp"

namespace tgemm {

namespace {

std::optional<double> ratio(std::optional<double> num, std::optional<double> den) {
    if (!num || !den || *den <= 0) return std::nullopt;
    return *num / *den;
}

std::optional<double> sum_if_both(std::optional<double> a, std::optional<double> b) {
    if (!a || !b) return std::nullopt;
    return *a + *b;
}

// The levels the report compares, in hierarchy order.
constexpr std::string_view compared_levels[] = {
    keys::flops,
    keys::dram_bytes,
    keys::dram_read_bytes,
    keys::dram_write_bytes,
    keys::l2_bytes,
    keys::l1_global_load_bytes,
    keys::l1_global_store_bytes,
    keys::smem_load_wavefronts,
    keys::smem_store_wavefronts,
    keys::smem_load_bank_conflicts,
};

}  // namespace

std::optional<double> level_comparison::refined_ratio() const {
    return ratio(measured, refined);
}
std::optional<double> level_comparison::textbook_ratio() const {
    return ratio(measured, textbook);
}

const row_analysis* analysis::find(std::string_view kernel, const shape& s) const {
    for (const auto& r : rows)
        if (r.row->kernel == kernel && r.row->size == s) return &r;
    return nullptr;
}

analysis analyze(const profile& p) {
    analysis a;
    a.source = &p;
    const auto& fp32 = p.peaks.at(std::string(roofs::fp32));
    const auto& dram = p.peaks.at(std::string(roofs::dram));
    a.fp32_peak = fp32.theoretical;
    a.dram_peak = dram.theoretical;

    for (const auto& m : p.measurements) {
        if (m.skipped) continue;
        row_analysis r;
        r.row = &m;
        const auto& s = m.size;
        r.useful_flops = 2.0 * s.m * s.n * s.k;
        if (m.time) r.tflops = r.useful_flops / (m.time->median_ms * 1e-3) / 1e12;
        r.executed_flops = m.counter(keys::flops);
        if (!r.executed_flops) r.executed_flops = m.model.refined.get(keys::flops);
        r.dram_bytes =
            sum_if_both(m.counter(keys::dram_read_bytes), m.counter(keys::dram_write_bytes));
        r.ai_textbook = m.model.textbook.ai();
        if (r.ai_textbook > 0)
            r.attainable_textbook = attainable_flops(r.ai_textbook, a.fp32_peak, a.dram_peak);
        if (m.time && r.executed_flops && m.time->median_ms > 0)
            r.achieved_flops_per_s = *r.executed_flops / (m.time->median_ms * 1e-3);
        const auto refined_dram = sum_if_both(m.model.refined.get(keys::dram_read_bytes),
                                              m.model.refined.get(keys::dram_write_bytes));
        r.ai_refined = ratio(m.model.refined.get(keys::flops), refined_dram);
        r.ai_measured = ratio(m.counter(keys::flops), r.dram_bytes);
        const auto ai = r.ai_measured ? r.ai_measured : r.ai_refined;
        if (ai) {
            r.attainable = attainable_flops(*ai, a.fp32_peak, a.dram_peak);
            r.bound = memory_bound(*ai, a.fp32_peak, a.dram_peak) ? "DRAM" : "FP32 compute";
            if (r.achieved_flops_per_s) r.pct_roof = *r.achieved_flops_per_s / *r.attainable;
        }
        for (const auto key : compared_levels) {
            level_comparison lc;
            lc.key = std::string(key);
            lc.refined = m.model.refined.get(key);
            lc.measured = m.counter(key);
            if (key == keys::flops) lc.textbook = m.model.textbook.flops;
            // The seeds count element loads per output (17 / 11 / 9, 2K for naive): that is
            // what L1 sees before coalescing and broadcast merge requests into sectors.
            if (key == keys::l1_global_load_bytes && m.model.textbook.loads_per_output)
                lc.textbook = *m.model.textbook.loads_per_output * double(s.m) * double(s.n) *
                              model::fp32_bytes;
            // DRAM as a whole: the textbook counts every access as global traffic.
            if (key == keys::dram_bytes) {
                if (m.model.textbook.global_bytes > 0) lc.textbook = m.model.textbook.global_bytes;
                lc.refined = refined_dram;
                lc.measured = r.dram_bytes;
            }
            if (lc.refined || lc.measured || lc.textbook) r.levels.push_back(lc);
        }
        a.rows.push_back(std::move(r));
    }
    for (auto& r : a.rows) {
        const auto* ref = a.find("cublas", r.row->size);
        if (ref && ref->tflops && r.tflops) r.pct_cublas = *r.tflops / *ref->tflops;
    }
    return a;
}

}  // namespace tgemm
