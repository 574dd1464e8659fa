#include "render/prediction_section.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analysis/performance_model.hpp"
#include "analysis/published.hpp"
#include "render/format.hpp"
#include "render/md_table.hpp"

namespace tgemm::render {

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const auto n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::optional<time_prediction> prediction_for(const profile& cal, const profile& target,
                                              const measurement& target_row) {
    const auto* c = cal.find(target_row.kernel, target_row.size);
    if (!c || c->skipped) return std::nullopt;
    return predict_time(*c, cal, target_row, target);
}

void add_check(prediction_summary& s, const profile& cal, const profile& target,
               const measurement& row, std::optional<double> observed) {
    const auto p = prediction_for(cal, target, row);
    if (!p || p->tflops <= 0) return;
    if (observed && *observed <= 0) observed.reset();
    s.rows.push_back({row.kernel, row.size, observed, p->tflops, p->bound});
}

}  // namespace

std::optional<prediction_summary> check_predictions(const analysis& a, const profile* calibration) {
    if (!calibration || !a.source || calibration->gpu.key == a.source->gpu.key) return std::nullopt;
    const auto& target = *a.source;
    prediction_summary s;
    if (target.source == profile_source::predicted) {
        const auto points = published_points(target.gpu.key);
        for (const auto& row : target.measurements) {
            if (row.skipped) continue;
            std::optional<double> published;
            for (const auto& pt : points)
                if (pt.kernel == row.kernel && pt.size == row.size) published = pt.tflops;
            add_check(s, *calibration, target, row, published);
        }
    } else {
        for (const auto& r : a.rows)
            if (r.tflops) add_check(s, *calibration, target, *r.row, *r.tflops);
    }
    if (s.rows.empty()) return std::nullopt;
    std::vector<double> errors;
    for (const auto& c : s.rows)
        if (const auto e = c.error()) errors.push_back(std::fabs(*e));
    s.compared = static_cast<int>(errors.size());
    if (!errors.empty()) s.median_abs_error = median(errors);
    for (std::size_t i = 0; i < s.rows.size(); ++i)
        for (std::size_t j = i + 1; j < s.rows.size(); ++j) {
            const auto& x = s.rows[i];
            const auto& y = s.rows[j];
            if (x.size != y.size || !x.observed_tflops || !y.observed_tflops) continue;
            ++s.pairs;
            if ((*x.observed_tflops - *y.observed_tflops) *
                    (x.predicted_tflops - y.predicted_tflops) <
                0)
                ++s.swapped_pairs;
        }
    return s;
}

std::string predicted_tflops_table(const analysis& a, const profile* calibration) {
    const auto s = check_predictions(a, calibration);
    if (!s || a.source->source != profile_source::predicted) return {};
    const auto shapes = a.source->shapes();
    auto t = kernel_by_size_table(shapes);
    for (const auto& k : a.source->kernels()) {
        std::vector<std::string> cells = {k};
        for (const auto& sz : shapes) {
            const auto it = std::find_if(s->rows.begin(), s->rows.end(), [&](const auto& c) {
                return c.kernel == k && c.size == sz;
            });
            if (it == s->rows.end()) {
                cells.emplace_back("—");
                continue;
            }
            auto cell = format_tflops_value(it->predicted_tflops * 1e12);
            if (it->observed_tflops)
                cell += fmt::format(" (published {})",
                                    format_tflops_value(*it->observed_tflops * 1e12));
            cells.push_back(std::move(cell));
        }
        t.add_row(std::move(cells));
    }
    return fmt::format(
        "PREDICTED TFLOP/s (2MNK / predicted time) of every rung on {}, from its measurement on "
        "the {} and this GPU's occupancy and roofs (docs/prediction.md); in brackets the "
        "published measurement where there is one; — where the calibration has no row.\n\n{}",
        a.source->gpu.name, calibration->gpu.name, t.str());
}

std::string prediction_summary_line(const analysis& a, const profile* calibration) {
    const auto s = check_predictions(a, calibration);
    if (!s) return {};
    const bool published = a.source->source == profile_source::predicted;
    if (s->compared == 0)
        return fmt::format(
            "TFLOP/s of every rung predicted from the {} calibration (docs/prediction.md); no "
            "published measurement of this GPU to compare with. Table: [details.md](details.md).",
            calibration->gpu.name);
    return fmt::format(
        "Predicted TFLOP/s from the {} calibration (docs/prediction.md) against {}: median "
        "|{} ÷ predicted − 1| = {} over {} rows; the prediction swaps {} of {} pairs of rungs "
        "at one size. Table: [details.md](details.md).",
        calibration->gpu.name, published ? "the published measurements" : "this GPU's measurement",
        published ? "published" : "measured", format_percent(s->median_abs_error), s->compared,
        s->swapped_pairs, s->pairs);
}

std::string prediction_section(const analysis& a, const profile* calibration,
                               const std::string& calibration_label) {
    const auto s = check_predictions(a, calibration);
    if (!s) return {};
    const bool published = a.source->source == profile_source::predicted;
    const std::string observed = published ? "published" : "measured";
    md_table t({"kernel", "size", observed + " TFLOP/s", "predicted TFLOP/s", "error", "bound"},
               {align::left, align::left, align::right, align::right, align::right, align::left});
    for (const auto& c : s->rows) {
        const auto e = c.error();
        t.add_row({c.kernel, to_string(c.size),
                   c.observed_tflops ? format_tflops_value(*c.observed_tflops * 1e12) : "—",
                   format_tflops_value(c.predicted_tflops * 1e12),
                   e ? fmt::format("{:+.1f} %", 100 * *e) : "—", c.bound});
    }
    return fmt::format(
        "## Predicted TFLOP/s from the {} calibration\n\n"
        "Each row's time predicted from its measurement on the {} ({}) with nothing fitted to "
        "this GPU: the calibration's time scaled by SMs × clock × issue rate, the issue rate "
        "from Little's law with this GPU's theoretical occupancy of the launch, and never "
        "below this GPU's DRAM or compute roof (docs/prediction.md). Error = {} ÷ predicted − "
        "1; bound = the term that set the prediction.\n\n{}\n"
        "{}\n\n",
        calibration->gpu.name, calibration->gpu.name, calibration_label, observed, t.str(),
        s->compared == 0
            ? std::string("No row has a " + observed + " figure to compare with.")
            : fmt::format("Median |error| {} over {} rows; the prediction swaps the order of {} "
                          "of the {} pairs of rows at one size.",
                          format_percent(s->median_abs_error), s->compared, s->swapped_pairs,
                          s->pairs));
}

}  // namespace tgemm::render
