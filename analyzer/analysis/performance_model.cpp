#include "analysis/performance_model.hpp"

#include <algorithm>

#include "analysis/analysis.hpp"
#include "analysis/execution.hpp"
#include "model/levels.hpp"

namespace tgemm {

namespace {

std::optional<double> theoretical_warps(const measurement& m) {
    if (!m.model.occupancy || m.model.occupancy->warps_per_sm <= 0) return std::nullopt;
    return m.model.occupancy->warps_per_sm;
}

std::optional<double> sum_of(std::optional<double> a, std::optional<double> b) {
    if (!a || !b) return std::nullopt;
    return *a + *b;
}

// measured ÷ theoretical of a calibration roof; 1 where it was not measured.
double efficiency(const profile& p, std::string_view key) {
    const auto it = p.peaks.find(key);
    if (it == p.peaks.end() || !it->second.measured || it->second.theoretical <= 0) return 1;
    return std::min(1.0, *it->second.measured / it->second.theoretical);
}

std::optional<double> peak(const profile& p, std::string_view key) {
    const auto it = p.peaks.find(key);
    if (it == p.peaks.end() || it->second.theoretical <= 0) return std::nullopt;
    return it->second.theoretical;
}

}  // namespace

std::optional<time_prediction> predict_time(const measurement& cal, const profile& calibration,
                                            const measurement& target,
                                            const profile& target_profile) {
    if (!cal.time || cal.time->median_ms <= 0) return std::nullopt;
    const auto& cg = calibration.gpu;
    const auto& tg = target_profile.gpu;
    if (cg.sm_count <= 0 || tg.sm_count <= 0 || tg.sm_clock_mhz <= 0) return std::nullopt;
    const double t_cal = cal.time->median_ms * 1e-3;
    // Both GPUs' maximum clocks: a kernel that runs the calibration GPU below its maximum (the
    // tensor rungs draw the H100 down to about 1.75 GHz) is taken to do the same on the target.
    const double f_cal = cg.sm_clock_mhz * 1e6;
    const double f_tgt = tg.sm_clock_mhz * 1e6;

    // W on the target: the calibration's, scaled by the theoretical occupancies.
    const auto w_cal_theory = theoretical_warps(cal);
    const auto w_tgt_theory = theoretical_warps(target);
    const double w_ratio = w_cal_theory && w_tgt_theory ? *w_tgt_theory / *w_cal_theory : 1.0;
    time_prediction out;
    double rate_ratio = w_ratio;  // r_tgt / r_cal when latency-bound
    const auto ex = execution_of(cal, cg, std::nullopt);
    if (const auto r_cal = ex.issue_rate()) {
        const double r_tgt =
            std::min(1.0, *ex.warps_per_scheduler * w_ratio / *ex.cycles_per_instruction);
        rate_ratio = r_tgt / *r_cal;
        out.used_execution_counters = true;
        out.bound = r_tgt >= 0.8 ? "issue" : "latency";
    } else {
        out.bound = "latency";
    }
    const double t_exec = t_cal * (cg.sm_count * f_cal) / (tg.sm_count * f_tgt) / rate_ratio;
    out.seconds = t_exec;

    const auto consider = [&](double t, std::string bound) {
        if (t > out.seconds) {
            out.seconds = t;
            out.bound = std::move(bound);
        }
    };
    // DRAM: the target model's bytes (its L2), else the calibration's measured bytes.
    std::optional<double> dram =
        sum_of(target.model.refined.dram_read_bytes, target.model.refined.dram_write_bytes);
    if (!dram)
        dram = sum_of(cal.counter(keys::dram_read_bytes), cal.counter(keys::dram_write_bytes));
    if (const auto bw = peak(target_profile, roofs::dram); dram && bw)
        consider(*dram / (*bw * efficiency(calibration, roofs::dram)), "DRAM");
    const auto roof = compute_roof_key(cal.dtype);
    const auto flops = cal.counter(roof == roofs::fp32 ? keys::flops : keys::tensor_flops);
    if (const auto p = peak(target_profile, roof); flops && p)
        consider(*flops / (*p * efficiency(calibration, roof)), std::string(roof));
    out.tflops = 2.0 * double(cal.size.m) * cal.size.n * cal.size.k / out.seconds / 1e12;
    return out;
}

}  // namespace tgemm
