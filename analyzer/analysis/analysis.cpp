#include "analysis/analysis.hpp"

#include <algorithm>

#include "core/element_type.hpp"
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

// The levels the report compares, in hierarchy order. The tensor-core counters come after the
// FP32 ones at each level; a row has a level only where a model or a counter gives it, so the
// FP32 rungs' tables do not list them.
constexpr std::string_view compared_levels[] = {
    keys::flops,
    keys::tensor_flops,
    keys::dram_bytes,
    keys::dram_read_bytes,
    keys::dram_write_bytes,
    keys::l2_bytes,
    keys::l2_write_bytes,
    keys::l2_fabric_bytes,
    keys::l2_requested_bytes,
    keys::l2_coalesced_bytes,
    keys::l1_global_load_bytes,
    keys::l1_global_store_bytes,
    keys::smem_load_wavefronts,
    keys::smem_store_wavefronts,
    keys::smem_load_bank_conflicts,
    keys::smem_ldsm_wavefronts,
    keys::smem_ldsm_bank_conflicts,
    keys::smem_stsm_wavefronts,
    keys::smem_gmma_wavefronts,
    keys::tma_load_bytes,
    keys::tma_multicast_bytes,
    keys::tma_store_bytes,
};

// Shared-memory traffic as the bandwidth roof sees it: every wavefront occupies the 128 B/clk
// data path, whether its lanes use all 128 B or a bank conflict split it (the ld and st
// wavefronts include ldmatrix and stmatrix; wgmma's operand reads are wavefronts of their
// own); cp.async (LDGSTS) and TMA write shared memory without a store wavefront and are added
// as bytes. `get` reads one key from the counters or from the refined model.
template <class Get>
std::optional<double> smem_bytes(Get&& get) {
    const auto ld = get(keys::smem_load_wavefronts);
    const auto st = get(keys::smem_store_wavefronts);
    const auto gmma = get(keys::smem_gmma_wavefronts);
    if (!ld && !st && !gmma) return std::nullopt;
    return (ld.value_or(0) + st.value_or(0) + gmma.value_or(0)) * smem_wavefront_bytes +
           get(keys::smem_ldgsts_bytes).value_or(0) + get(keys::tma_load_bytes).value_or(0);
}

// The executed FLOPs: FP32 (2·FFMA + FADD + FMUL) plus tensor-core FLOPs where there are any.
std::optional<double> executed(std::optional<double> fp32, std::optional<double> tensor) {
    if (!fp32 && !tensor) return std::nullopt;
    return fp32.value_or(0) + tensor.value_or(0);
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
    const auto refined_flops =
        executed(m.model.refined.get(keys::flops), m.model.refined.get(keys::tensor_flops));
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
        p.bytes_measured = smem_bytes([&](std::string_view k) { return m.counter(k); });
        p.bytes_refined = smem_bytes([&](std::string_view k) { return m.model.refined.get(k); });
        if (m.model.textbook.smem_accesses)
            p.bytes_textbook = *m.model.textbook.smem_accesses * r.element_bytes;
        // A kernel that never touches shared memory has no point on the shared roof.
        if (p.bytes_measured && *p.bytes_measured <= 0) p.bytes_measured.reset();
        if (p.bytes_refined && *p.bytes_refined <= 0) p.bytes_refined.reset();
        pts.push_back(p);
    }
    const auto compute = a.roof_value(r.compute_roof);
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
    r.bound_roof = r.compute_roof;
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

std::string_view compute_roof_key(std::string_view dtype) {
    if (dtype == "bf16") return roofs::tensor_bf16;
    if (dtype == "fp16") return roofs::tensor_fp16;
    if (dtype == "tf32") return roofs::tensor_tf32;
    return roofs::fp32;
}

std::string reference_kernel(std::string_view dtype) {
    if (dtype == "fp32" || dtype.empty()) return "cublas";
    return "cublas_" + std::string(dtype);
}

bool is_reference_kernel(std::string_view kernel) {
    return kernel == "cublas" || kernel.starts_with("cublas_");
}

const level_point* row_analysis::level(std::string_view roof_key) const {
    for (const auto& p : hierarchy)
        if (p.roof_key == roof_key) return &p;
    return nullptr;
}

std::optional<shape> analysis::focus_size() const {
    // Rows per size first: a size only one ladder was measured at (8192³ for the tensor rungs)
    // would leave the other ladder out of every single-size plot.
    const auto rows_at = [&](const shape& s) {
        return std::count_if(rows.begin(), rows.end(),
                             [&](const row_analysis& r) { return r.row->size == s; });
    };
    std::optional<shape> best;
    const auto better = [&](const shape& a, const shape& b) {
        if (const auto na = rows_at(a), nb = rows_at(b); na != nb) return na > nb;
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
std::optional<double> level_comparison::band_ratio() const {
    if (!band || !measured) return std::nullopt;
    if (*measured >= band->low && *measured <= band->high) return 1.0;
    return ratio(measured, *measured < band->low ? band->low : band->high);
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
        r.element_bytes = element_bytes(parse_element_type(m.dtype).value_or(element_type::fp32));
        r.compute_roof = std::string(compute_roof_key(m.dtype));
        // A tensor rung's compute roof is its type's tensor roof; a profile without one judges
        // it against FP32, and the report says so.
        if (!p.peaks.contains(r.compute_roof)) r.compute_roof = std::string(roofs::fp32);
        r.executed_flops = executed(m.counter(keys::flops), m.counter(keys::tensor_flops));
        if (!r.executed_flops)
            r.executed_flops =
                executed(m.model.refined.get(keys::flops), m.model.refined.get(keys::tensor_flops));
        r.dram_bytes =
            sum_if_both(m.counter(keys::dram_read_bytes), m.counter(keys::dram_write_bytes));
        r.ai_textbook = m.model.textbook.ai();
        // The row's own compute roof: a tensor rung's textbook point sits under the tensor roof.
        const double peak =
            r.compute_roof == roofs::fp32 ? a.fp32_peak : p.peaks.at(r.compute_roof).theoretical;
        if (r.ai_textbook > 0)
            r.attainable_textbook = attainable_flops(r.ai_textbook, peak, a.dram_peak);
        if (m.time && r.executed_flops && m.time->median_ms > 0)
            r.achieved_flops_per_s = *r.executed_flops / (m.time->median_ms * 1e-3);
        const auto refined_dram = sum_if_both(m.model.refined.get(keys::dram_read_bytes),
                                              m.model.refined.get(keys::dram_write_bytes));
        r.ai_refined = ratio(
            executed(m.model.refined.get(keys::flops), m.model.refined.get(keys::tensor_flops)),
            refined_dram);
        r.ai_measured =
            ratio(executed(m.counter(keys::flops), m.counter(keys::tensor_flops)), r.dram_bytes);
        const auto ai = r.ai_measured ? r.ai_measured : r.ai_refined;
        if (ai) {
            r.attainable = attainable_flops(*ai, peak, a.dram_peak);
            r.bound = memory_bound(*ai, peak, a.dram_peak)
                          ? "DRAM"
                          : (r.compute_roof == roofs::fp32 ? "FP32 compute" : "tensor compute");
            if (r.achieved_flops_per_s) r.pct_roof = *r.achieved_flops_per_s / *r.attainable;
        }
        for (const auto key : compared_levels) {
            level_comparison lc;
            lc.key = std::string(key);
            lc.refined = m.model.refined.get(key);
            lc.measured = m.counter(key);
            if (const auto* b = m.model.refined.band(key)) lc.band = *b;
            // The seed's 2MNK + 2MN goes with the FLOPs the row's compute roof counts: FP32, or
            // for a tensor rung its tensor FLOPs (its FP32 FLOPs are the epilogue's).
            const bool tensor_rung = compute_roof_key(m.dtype) != roofs::fp32;
            if (key == (tensor_rung ? keys::tensor_flops : keys::flops))
                lc.textbook = m.model.textbook.flops;
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
        const auto* ref = a.find(reference_kernel(r.row->dtype), r.row->size);
        if (ref && ref->tflops && r.tflops) r.pct_cublas = *r.tflops / *ref->tflops;
    }
    return a;
}

}  // namespace tgemm
