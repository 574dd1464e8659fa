// `tgemm-roofline peaks`: runs the peak micro-benchmarks on this machine's GPU and prints each
// roof's theoretical and measured values (docs/peaks.md). Needs a GPU; writes nothing.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/peak_checks.hpp"
#include "cli/commands.hpp"
#include "collect/device.hpp"
#include "collect/peaks_bench.hpp"
#include "gpu/peaks.hpp"
#include "profile/profile_json.hpp"
#include "render/format.hpp"
#include "render/md_table.hpp"

namespace tgemm::cli {

namespace {

// Compute roofs first, then memory from DRAM inwards; anything else after, by key.
std::vector<std::string> roof_order(const profile& p) {
    std::vector<std::string> keys;
    for (const auto k : {roofs::fp32, roofs::tensor_fp16, roofs::tensor_bf16, roofs::tensor_tf32,
                         roofs::dram, roofs::dram_copy, roofs::l2, roofs::smem})
        if (p.peaks.contains(k)) keys.emplace_back(k);
    for (const auto& [k, r] : p.peaks)
        if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    return keys;
}

std::string peaks_table(const profile& p) {
    using render::align;
    render::md_table t({"roof", "theoretical", "theoretical at clock", "measured",
                        "measured / reference", "SM clock", "how measured"},
                       {align::left, align::right, align::right, align::right, align::right,
                        align::right, align::left});
    std::string notes;
    for (const auto& key : roof_order(p)) {
        const auto& r = p.peaks.at(key);
        t.add_row({key, render::format_si(r.theoretical, r.unit),
                   render::format_si(r.theoretical_at_clock, r.unit),
                   render::format_si(r.measured, r.unit), render::format_percent(r.ratio()),
                   r.clock_mhz ? fmt::format("{:.0f} MHz", *r.clock_mhz)
                               : std::string(render::missing_mark),
                   r.measured_by.empty() ? std::string(render::missing_mark) : r.measured_by});
        if (!r.note.empty()) notes += fmt::format("- {}: {}\n", key, r.note);
    }
    auto s = fmt::format(
        "Peaks of {} ({} SMs, maximum SM clock {:.0f} MHz). The reference of the ratio is the "
        "theoretical value at the measured clock where there is one, else at the maximum "
        "clock.\n\n",
        p.gpu.name, p.gpu.sm_count, p.gpu.sm_clock_mhz);
    s += t.str();
    if (!notes.empty()) s += "\nNotes:\n" + notes;
    return s;
}

}  // namespace

int run_peaks(const peaks_options& o, std::ostream& out, std::ostream& err) {
    const auto dev = require_local_device();  // one line naming why, when there is no GPU
    profile p;
    p.gpu = dev.info;
    p.peaks = theoretical_roofs(dev.info);
    err << "tgemm-roofline: measuring the peaks of this machine's " << dev.info.name << "\n";
    const auto measured = measure_peaks(dev, dev.info, [&](const std::string& what) {
        err << "tgemm-roofline: peaks: " << what << "\n";
    });
    for (const auto& w : merge_measured_peaks(p, measured)) err << "tgemm-roofline: " << w << "\n";
    for (const auto& w : peak_consistency_problems(p)) err << "tgemm-roofline: " << w << "\n";
    if (o.json) {
        nlohmann::json j;
        to_json(j, p);
        out << j.at("peaks").dump(2) << "\n";
    } else {
        out << peaks_table(p);
    }
    return 0;
}

}  // namespace tgemm::cli
