#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "collect/metric_table.hpp"
#include "gpu/spec.hpp"
#include "rung.hpp"

namespace tgemm::cli {

namespace {

void list_gpus(bool tsv, std::ostream& out) {
    if (!tsv)
        out << fmt::format("{:<10} {:<28} {:>12} {:>10} {:>8}\n", "key", "name", "FP32 TFLOP/s",
                           "DRAM GB/s", "ridge");
    for (const auto& s : gpu_specs()) {
        const auto p = derive_peaks(s);
        const auto fmt_str = tsv ? "{}\t{}\t{:.2f}\t{:.0f}\t{:.2f}\n"
                                 : "{:<10} {:<28} {:>12.2f} {:>10.0f} {:>8.2f}\n";
        out << fmt::format(fmt::runtime(fmt_str), s.key, s.name, p.fp32_flops / 1e12,
                           p.dram_bytes_per_s / 1e9, p.ridge());
    }
}

void list_kernels(bool tsv, std::ostream& out) {
    for (const auto* r : rung_registry::get().all()) {
        if (tsv)
            out << fmt::format("{}\t{}\t{}\t{}\t{}\n", r->id, r->display_name, r->kernel_symbol,
                               r->seed, r->params);
        else
            out << fmt::format("{:<20} {:<40} {}\n", r->id, r->display_name, r->seed);
    }
}

void list_metrics(bool tsv, std::ostream& out) {
    for (const auto& t : metric_table()) {
        if (tsv)
            out << fmt::format("{}\t{}\t{}\t{}\n", t.key, t.metric, t.scale, t.description);
        else
            out << fmt::format("{:<26} {:<58} {}\n", t.key, t.metric, t.description);
    }
}

}  // namespace

int run_list(const list_options& o, std::ostream& out) {
    if (o.what == "gpus")
        list_gpus(o.tsv, out);
    else if (o.what == "kernels")
        list_kernels(o.tsv, out);
    else
        list_metrics(o.tsv, out);
    return 0;
}

}  // namespace tgemm::cli
