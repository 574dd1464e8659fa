#include "analysis/analysis.hpp"

#include <algorithm>

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

// Shared-memory traffic as the bandwidth roof sees it: every wavefront occupies the 128 B/clk
// data path, whether its lanes use all 128 B or a bank conflict split it; cp.async writes
// (LDGSTS) reach shared memory without a store wavefront and are added as bytes.
std::optional<double> smem_bytes(std::optional<double> ld_wavefronts,
                                 std::optional<double> st_wavefronts,
                                 std::optional<double> ldgsts_bytes) {
    if (!ld_wavefronts && !st_wavefronts) return std::nullopt;
    return (ld_wavefronts.value_or(0) + st_wavefronts.value_or(0)) * smem_wavefront_bytes +
           ldgsts_bytes.value_or(0);
}

level_point make_point(std::string_view roof_key, std::string_view name) {
    level_point p;
    p.roof_key = std::string(roof_key);
    p.name = std::string(name);
    return p;
}

void add_hierarchy(row_analysis& r, const analysis& a, std::optional<double> refined_dram) {
    const auto& m = *r.row;
    const auto exec = r.executed_flops;
    const auto refined_flops = m.model.refined.get(keys::flops);
    const double tb_flops = m.model.textbook.flops;
    const auto tb = [&](std::optional<double> bytes) {
        return bytes && tb_flops > 0 ? ratio(tb_flops, bytes) : std::nullopt;
    };
    std::vector<level_point> pts;
    {
        auto p = make_point(roofs::dram, "DRAM");
        p.bytes_measured = r.dram_bytes;
        if (m.model.textbook.global_bytes > 0) p.bytes_textbook = m.model.textbook.global_bytes;
        p.bytes_refined = refined_dram;
        pts.push_back(p);
    }
    {
        auto p = make_point(roofs::l2, "L2");
        p.bytes_measured = m.counter(keys::l2_bytes);
        p.bytes_refined = m.model.refined.get(keys::l2_bytes);
        pts.push_back(p);
    }
    {
        auto p = make_point(roofs::smem, "shared");
        p.bytes_measured =
            smem_bytes(m.counter(keys::smem_load_wavefronts),
                       m.counter(keys::smem_store_wavefronts), m.counter(keys::smem_ldgsts_bytes));
        p.bytes_refined = smem_bytes(m.model.refined.get(keys::smem_load_wavefronts),
                                     m.model.refined.get(keys::smem_store_wavefronts),
                                     m.model.refined.get(keys::smem_ldgsts_bytes));
        if (m.model.textbook.smem_accesses)
            p.bytes_textbook = *m.model.textbook.smem_accesses * model::fp32_bytes;
        // A kernel that never touches shared memory has no point on the shared roof.
        if (p.bytes_measured && *p.bytes_measured <= 0) p.bytes_measured.reset();
        if (p.bytes_refined && *p.bytes_refined <= 0) p.bytes_refined.reset();
        pts.push_back(p);
    }
    const auto compute = a.roof_value(roofs::fp32);
    for (auto& p : pts) {
        p.ai_measured = ratio(exec, p.bytes_measured);
        p.ai_refined = ratio(refined_flops, p.bytes_refined);
        p.ai_textbook = tb(p.bytes_textbook);
        if (!p.bytes_measured && !p.bytes_refined && !p.bytes_textbook) continue;
        const auto bw = a.roof_value(p.roof_key);
        const auto ai = p.ai_measured ? p.ai_measured : p.ai_refined;
        if (bw && ai && compute) p.attainable = std::min(*compute, *ai * *bw);
        r.hierarchy.push_back(p);
    }
    if (!compute) return;
    r.bound_roof = std::string(roofs::fp32);
    r.bound_attainable = compute;
    for (const auto& p : r.hierarchy) {
        if (p.attainable && *p.attainable < *r.bound_attainable) {
            r.bound_roof = p.roof_key;
            r.bound_attainable = p.attainable;
        }
    }
    if (r.achieved_flops_per_s) r.pct_bound_roof = *r.achieved_flops_per_s / *r.bound_attainable;
}

}  // namespace

const level_point* row_analysis::level(std::string_view roof_key) const {
    for (const auto& p : hierarchy)
        if (p.roof_key == roof_key) return &p;
    return nullptr;
}

std::optional<shape> analysis::focus_size() const {
    std::optional<shape> best;
    const auto better = [](const shape& a, const shape& b) {
        const bool sa = a.m == a.n && a.n == a.k;
        const bool sb = b.m == b.n && b.n == b.k;
        if (sa != sb) return sa;
        return double(a.m) * a.n * a.k > double(b.m) * b.n * b.k;
    };
    for (const auto& r : rows)
        if (!best || better(r.row->size, *best)) best = r.row->size;
    return best;
}

std::optional<double> analysis::roof_value(std::string_view key) const {
    if (!source) return std::nullopt;
    const auto it = source->peaks.find(key);
    if (it == source->peaks.end()) return std::nullopt;
    return it->second.effective();
}

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
        add_hierarchy(r, a, refined_dram);
        a.rows.push_back(std::move(r));
    }
    for (auto& r : a.rows) {
        const auto* ref = a.find("cublas", r.row->size);
        if (ref && ref->tflops && r.tflops) r.pct_cublas = *r.tflops / *ref->tflops;
    }
    return a;
}

}  // namespace tgemm
