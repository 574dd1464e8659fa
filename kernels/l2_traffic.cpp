#include "l2_traffic.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "model/rung_model.hpp"
#include "one_wave_fabric.hpp"
#include "tensor/tma_l2_promotion.hpp"

namespace tgemm::kernels {
namespace {

std::string mb(double bytes) {
    return fmt::format("{:.1f} MB", bytes / 1e6);
}

// A band only where its ends differ by more than rounding.
bool differs(double low, double high) {
    return high > low * (1 + 1e-9);
}

// The share of A's and B's bytes read on one side where the launch fits in one wave and its
// GPU's first waves were logged for the CTAs it deals each SM; nothing otherwise.
std::optional<one_sided> one_wave_share(const shape& s, const l2_operands& e,
                                        const l2_placement& where) {
    if (!e.one_tile_per_cta || e.tile_m <= 0 || e.tile_n <= 0 || where.sm_count <= 0 ||
        where.ctas_per_sm <= 0)
        return std::nullopt;
    const one_wave_grid grid{e.tile_m, e.tile_n, e.grid_x_down_m};
    const std::int64_t ctas = grid_ctas(s, grid);
    if (ctas > std::int64_t(where.ctas_per_sm) * where.sm_count) return std::nullopt;
    if (ctas <= where.sm_count && where.small_launches.known())
        return small_launch_share(s, grid, where.small_launches);
    const std::int64_t dealt = (ctas + where.sm_count - 1) / where.sm_count;
    if (dealt >= std::int64_t(where.first_wave.size())) return std::nullopt;
    const auto runs = where.first_wave[std::size_t(dealt)];
    if (runs.empty()) return std::nullopt;
    return one_sided_share(s, grid, runs);
}

}  // namespace

void add_l2_traffic(refined_model& r, const shape& s, const l2_operands& e, int partitions,
                    const l2_placement& where) {
    if (partitions <= 0) {
        r.notes.emplace_back(
            "L2 traffic: not modelled: how this GPU's L2 is partitioned is not known");
        return;
    }
    if (!r.dram_read_bytes || !(r.l1_global_store_bytes || r.tma_store_bytes)) return;

    const double far = double(partitions - 1) / partitions;
    const double c = double(e.c_element_bytes) * double(s.m) * double(s.n);
    const double stored = r.l1_global_store_bytes.value_or(0) + r.tma_store_bytes.value_or(0);
    // Partial-sector stores: L2 sees at least each distinct sector once, at most every request.
    const double stored_low = std::min(stored, r.distinct_store_bytes.value_or(c));

    r.l2_write_bytes = (1 + far) * stored;
    if (differs(stored_low, stored)) {
        r.set_band(
            keys::l2_write_bytes,
            {(1 + far) * stored_low, (1 + far) * stored,
             "stores write parts of a sector in separate requests; how many of them the SM's L1 "
             "merges before forwarding them (measured: there or nowhere) depends on the timing "
             "of its epilogue"});
        r.notes.push_back(fmt::format(
            "L2 band: writes between {} (each distinct sector once) and {} (each store request's "
            "sectors), × {:.2f} for the home partition",
            mb((1 + far) * stored_low), mb((1 + far) * stored), 1 + far));
    } else {
        r.notes.push_back(fmt::format(
            "L2 writes: the {} stored, counted at the SM's partition and again at the line's home "
            "when that is another one ({} of {} lines): × {:.2f}",
            mb(stored), partitions - 1, partitions, 1 + far));
    }

    // Fabric: C's lines cross when homed away from their one SM, A's and B's once per partition
    // that did not bring them from DRAM, for each time they are brought.
    const double reads = *r.dram_read_bytes;
    const double c_read = std::min(c, reads);
    const auto ab_part = [&](double dram_reads) { return std::max(0.0, dram_reads - c_read); };
    const double ab = ab_part(reads);
    const double ab_compulsory =
        double(e.ab_element_bytes) * (double(s.m) * double(s.k) + double(s.k) * double(s.n));
    const double c_cross = far * (c_read + stored);
    // TMA loads through maps that promote L2 fills to 256 bytes: each line of A and B the L2
    // brings from DRAM crosses once more with probability (P-1)/P (measured against the same
    // kernels with promotion off, docs/models/l2.md "TMA loads"; 128 bytes or none adds nothing).
    const bool promoted = r.tma_load_bytes.value_or(0) > 0 && tensor::tma_l2_promotion_bytes == 256;
    const auto promotion = [&](double ab_reads) { return promoted ? far * ab_reads : 0.0; };
    // A launch of one wave: the share of A and B read on one side crosses (P-1)/P times. TMA
    // loads too, the promotion's share unchanged: measured on bf16_wgmma at 1024³ and the one-wave
    // and small-launch shapes (docs/models/l2.md, "A launch of one wave").
    const auto one_wave = one_wave_share(s, e, where);
    const auto crossings_at = [&](double ab_reads, double one_sided) {
        return (partitions - 1) * ab_reads * (1 - one_sided) + far * ab_reads * one_sided;
    };
    const double one_sided_mean = one_wave ? one_wave->mean : 0;
    const auto crossings = [&](double ab_reads) { return crossings_at(ab_reads, one_sided_mean); };
    r.l2_fabric_bytes = crossings(ab) + c_cross + promotion(ab);

    double low = *r.l2_fabric_bytes;
    double high = low;
    std::string reason;
    const auto add_reason = [&](const std::string& why) {
        reason += (reason.empty() ? "" : "; ") + why;
    };
    const double ab_low = r.dram_read_band ? ab_part(r.dram_read_band->low) : ab;
    const double ab_high = r.dram_read_band ? ab_part(r.dram_read_band->high) : ab;
    if (ab_high > ab_compulsory * 1.001) {
        // A line brought from DRAM again may be needed by one partition only at that time.
        low = far * ab_low + far * (c_read + stored_low) + promotion(ab_low);
        add_reason(
            "A and B are read from DRAM more than once, and a refill may serve only the "
            "partition that missed");
    } else if (differs(stored_low, stored)) {
        low = crossings(ab_low) + far * (c_read + stored_low) + promotion(ab_low);
    }
    high = std::max(high, crossings(ab_high) + c_cross + promotion(ab_high));
    const std::int64_t grid_n = e.tile_n > 0 ? model::ceil_div(s.n, e.tile_n) : 0;
    if (one_wave) {
        // Where the start moves the fabric beyond the tolerance, the value alone would not do:
        // from the most one-sided start to every strip on both sides (as Nsight Compute's launch
        // of sm90_fp32's 32 CTAs at 1024³ on the H100 crossed, docs/models/l2.md).
        const auto at = [&](double share) {
            return crossings_at(ab, share) + c_cross + promotion(ab);
        };
        const double value = *r.l2_fabric_bytes;
        if (at(one_wave->least) > value * (1 + model::l2_tolerance) ||
            at(one_wave->most) < value * (1 - model::l2_tolerance)) {
            low = std::min(low, crossings_at(ab_low, one_wave->most) + far * (c_read + stored_low) +
                                    promotion(ab_low));
            high = std::max(high, crossings_at(ab_high, 0) + c_cross + promotion(ab_high));
            add_reason(fmt::format(
                "a launch of few CTAs: where in the logged order its first CTA lands moves "
                "{:.0f} … {:.0f} % of A's and B's bytes into strips read on one side (the "
                "value: {:.0f} %, the mean of every start), and every strip may be read on both",
                100 * one_wave->least, 100 * one_wave->most, 100 * one_wave->mean));
        }
    }
    if (!one_wave && grid_n > 0 && grid_n < shortest_one_side_run) {
        // A's share of the A and B lines brought from DRAM crosses (P-1)/P instead of P-1 times.
        const double a = double(s.m) * double(s.k);
        const double a_share = a / (a + double(s.k) * double(s.n));
        const double narrow = (partitions - 1) * ab_low -
                              (partitions - 1 - far) * a_share * ab_low +
                              far * (c_read + stored_low) + promotion(ab_low);
        if (narrow < low) {
            low = narrow;
            add_reason(fmt::format(
                "the grid is {} tiles wide: the CTAs reading one strip of A, consecutive in "
                "launch order, may all run on one L2 partition's SMs, and A then crosses only "
                "for the lines homed on the other (low end)",
                grid_n));
        }
    }
    if (differs(stored_low, stored))
        add_reason("partial-sector stores may merge in L1 before they reach the L2");
    if (r.tma_multicast_bytes.value_or(0) > 0) {
        // Never kept: every request for a far line crosses (what the SMs request of L2, C's
        // reads included, and the stores).
        const double requested = r.l2_requested_bytes.value_or(*r.tma_load_bytes);
        high = std::max(high, far * (requested + stored) + promotion(ab_high));
        add_reason(
            "TMA multicast loads: whether the partition of each SM a box is delivered to keeps "
            "a copy of a line homed in the other one is not known");
    }
    // What the collector's window holds besides the kernel, in the count the model predicts.
    const double window = where.window_fabric_bytes;
    *r.l2_fabric_bytes += window;
    low += window;
    high += window;
    if (one_wave)
        r.notes.push_back(fmt::format(
            "L2 fabric, one wave: {:.1f} % of A's and B's bytes lie in strips whose readers all "
            "run on one partition's SMs (as the GPU deals a launch of this many CTAs, logged; "
            "every start averaged), and cross only for the lines homed on the other",
            100 * one_sided_mean));
    if (window > 0)
        r.notes.push_back(fmt::format(
            "L2 fabric, the collector's window: {} of it, what a count holds on this GPU with no "
            "kernel (measured)",
            mb(window)));
    if (differs(low, high)) {
        r.set_band(keys::l2_fabric_bytes, {low, high, reason});
        r.notes.push_back(
            fmt::format("L2 fabric band: between {} and {}: {}", mb(low), mb(high), reason));
    } else {
        r.notes.push_back(fmt::format(
            "L2 fabric: A and B cross to the other partition once per DRAM read ({}); C's "
            "reads and stores when homed there ({} of {}){}: {}",
            mb(ab), partitions - 1, partitions,
            promoted
                ? fmt::format("; the TMA maps' 256-byte L2 promotion, {} more", mb(promotion(ab)))
                : std::string(),
            mb(*r.l2_fabric_bytes)));
    }
}

}  // namespace tgemm::kernels
