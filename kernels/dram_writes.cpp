#include "dram_writes.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "model/rung_model.hpp"

namespace tgemm::kernels {

void set_wave_dram_writes(refined_model& r, const wave_reads& w, double partial_sums_bytes) {
    const double value = w.c_written_bytes;
    const double low = std::min(value, w.c_written_low);
    const double high = std::max(value, w.c_written_high) + partial_sums_bytes;
    r.dram_write_bytes = value;
    const double allowed = model::dram_write_allowance(value);
    const auto mb = [](double v) { return v / 1e6; };
    if (value - low > allowed || high - value > allowed) {
        std::string why =
            "which lines of C are still dirty in L2 when the kernel ends depends on when the L2 "
            "writes a dirty line back: as early as measured (high end, "
            "docs/validation/h100-l2-dirty-capacity.log) or as late as a clean line every SM "
            "reads leaves (low end: all gone by 1.25 x the half, h100-l2-capacity.log)";
        if (w.c_written_low_together)
            why +=
                "; lower still if the CTAs sharing an SM finish together, as they start, or the "
                "last of them dispatched are the ones left at the end, so that only the strips of "
                "later waves come after a tile (low end)";
        if (w.c_written_high_early)
            why +=
                "; higher where the CTAs of a part-filled wave that share their SM with fewer "
                "finish first (up to as many times sooner as the busiest SMs hold CTAs; traced: "
                "blocktiling_2d's CTAs alone on an SM end at 0.70-0.72 of those sharing one) "
                "while the others still read their strips (high end)";
        if (w.c_written_high_drifting)
            why +=
                "; higher where the waves drift apart into groups of one CTA per SM, whose tiles "
                "have the later groups' strips behind them (high end)";
        if (partial_sums_bytes > 0) why += "; stream-K's partial sums may be written back too";
        r.set_band(keys::dram_write_bytes, {low, high, why});
        r.notes.push_back(fmt::format("DRAM write band: between {:.1f} and {:.1f} MB: {}", mb(low),
                                      mb(high), why));
    }
    r.notes.push_back(fmt::format(
        "DRAM writes: {:.1f} MB of the {:.1f} MB of C: a wave's C tiles are written within the "
        "kernel when their partition touches more than half the L2 after them (the later waves' "
        "strips of A and B, 3/4 of their C tiles), and stay dirty past its end otherwise",
        mb(value), mb(w.c_bytes)));
}

void add_dram_write_band(refined_model& r, const shape& s, int c_element_bytes,
                         std::int64_t l2_bytes) {
    if (!r.dram_write_bytes || *r.dram_write_bytes <= 0) return;
    if (!r.l1_global_store_bytes && !r.tma_store_bytes) return;
    const double c = double(c_element_bytes) * double(s.m) * double(s.n);
    const double stored = r.l1_global_store_bytes.value_or(0) + r.tma_store_bytes.value_or(0);
    const double low = std::max(0.0, c - double(l2_bytes));
    const double high = std::max(c, stored);
    r.set_band(keys::dram_write_bytes,
               {low, high,
                "what is still dirty in L2 when the kernel ends (at most the L2) is written "
                "after the counted window; how much that is depends on the L2's replacement"});
    r.notes.push_back(fmt::format(
        "DRAM write band: between {:.1f} MB (C less the L2, which may hold that much of it dirty "
        "at the end) and {:.1f} MB (every stored sector written once)",
        low / 1e6, high / 1e6));
}

}  // namespace tgemm::kernels
