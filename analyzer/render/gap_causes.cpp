#include "render/gap_causes.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/strings.hpp"
#include "profile/profile.hpp"
#include "render/format.hpp"
#include "render/names.hpp"

namespace tgemm::render {

namespace {

// DRAM traffic below this share of the textbook count: L2 serves the re-reads.
constexpr double l2_serves_below = 0.5;
// DRAM reads within this multiple of the compulsory A + B + C: the operands stay in L2 ...
constexpr double fits_l2_up_to = 1.5;
// ... and at least this multiple: they are re-read from DRAM.
constexpr double spills_from = 3.0;
// DRAM writes below this share of C: C was still in L2 when the kernel ended.
constexpr double writes_stay_below = 0.5;
// L1 global loads at or above this multiple of the textbook's element loads: uncoalesced.
constexpr double uncoalesced_from = 2.0;
// Bank conflicts below this factor on the wavefronts are not worth a sentence.
constexpr double conflicts_from = 1.1;

// "1/64 of the textbook count", "0.50× the textbook count".
std::string share_of(double r, std::string_view what) {
    return fmt::format("{}{}{}", times(r), r < 0.1 ? " of " : " ", what);
}

// "DRAM", "DRAM and L2", "DRAM, L2 and shared-memory".
std::string and_list(const std::vector<std::string>& items) {
    if (items.size() < 2) return items.empty() ? std::string() : items.front();
    std::vector<std::string> head(items.begin(), items.end() - 1);
    return join(head, ", ") + " and " + items.back();
}

std::string bytes(double v) {
    return format_si(v, "B");
}

}  // namespace

bool outside_band(double ratio) {
    return ratio < gap_band_lo || ratio > gap_band_hi;
}

std::string times(double r) {
    if (r > 0 && r < 0.1) return format_ratio(r);
    if (r >= 9.995) return fmt::format("{:.0f}×", r);
    return fmt::format("{:.2f}×", r);
}

std::string bound_sentence(const bound_inputs& in) {
    const double pct = in.attainable > 0 ? in.achieved / in.attainable : 0;
    std::string s;
    if (in.compute || !in.ai) {
        std::vector<std::string> memory;
        for (const auto& r : in.roofs_checked)
            if (r != in.roof) memory.push_back(r);
        s = fmt::format("Bound by the {} roof ({} TFLOP/s)", in.roof,
                        format_tflops_value(in.attainable));
        if (!memory.empty())
            s += fmt::format(": at its AI{} the {} roof{} more", memory.size() > 1 ? "s" : "",
                             and_list(memory), memory.size() > 1 ? "s allow" : " allows");
    } else {
        s = fmt::format("Bound by the {} roof: at {}{} it allows {} TFLOP/s", in.roof,
                        format_ai(*in.ai), in.model_ai ? " (the refined model's AI)" : "",
                        format_tflops_value(in.attainable));
        if (!in.tensor_roof.empty() && in.tensor_roof_value > 0)
            s += fmt::format(", {} of the {} roof ({} TFLOP/s)",
                             format_percent(in.attainable / in.tensor_roof_value), in.tensor_roof,
                             format_tflops_value(in.tensor_roof_value));
    }
    const double gap = in.attainable - in.achieved;
    if (pct > 1)
        return s + fmt::format(
                       "; the kernel runs at {} of the bound, {} TFLOP/s above it, so that roof is "
                       "too low.",
                       format_percent(pct), format_tflops_value(-gap));
    if (pct >= far_below_roof)
        return s + fmt::format("; the kernel reaches {} of the bound, {} TFLOP/s short.",
                               format_percent(pct), format_tflops_value(gap));
    s += fmt::format(
        "; the kernel reaches only {} of the bound, {} TFLOP/s short, so none of the roofs "
        "checked "
        "({}) is what holds it back",
        format_percent(pct), format_tflops_value(gap), join(in.roofs_checked, ", "));
    if (!in.inside_sm.empty()) s += ": inside the SM it moves " + in.inside_sm;
    return s + ".";
}

std::optional<std::string> dram_against_textbook(double measured, double textbook,
                                                 std::string_view then) {
    if (measured <= 0 || textbook <= 0) return std::nullopt;
    const double r = measured / textbook;
    const auto values = fmt::format("({} measured, {} on paper)", bytes(measured), bytes(textbook));
    const auto tail = then.empty() ? std::string(".") : fmt::format("; {}.", then);
    if (r < l2_serves_below)
        return fmt::format("L2 serves the re-reads: DRAM traffic is {} {}{}",
                           share_of(r, "the textbook count"), values, tail);
    if (r > gap_band_hi)
        return fmt::format(
            "DRAM traffic is {} the textbook count {}: operands are read from DRAM more than "
            "once, their re-reads miss L2{}",
            times(r), values, tail);
    return std::nullopt;
}

std::optional<std::string> l2_spill_clause(const shape& small, double small_ratio, const shape& big,
                                           double big_ratio) {
    if (small_ratio > fits_l2_up_to || big_ratio < spills_from) return std::nullopt;
    return fmt::format(
        "at {} DRAM reads are {} the compulsory A + B + C (the operands stay in L2), at {} "
        "they are {}",
        to_string(small), times(small_ratio), to_string(big), times(big_ratio));
}

std::optional<std::string> dram_writes(double measured, double compulsory, const shape& s) {
    if (measured < 0 || compulsory <= 0 || measured >= writes_stay_below * compulsory)
        return std::nullopt;
    return fmt::format(
        "C stays in L2: DRAM writes are {} at {} against the {} of C (M·N·4 B), so the L2 still "
        "holds {} of C when the kernel ends.",
        bytes(measured), to_string(s), bytes(compulsory),
        measured == 0 ? std::string("all") : format_percent(1 - measured / compulsory));
}

std::optional<std::string> l1_against_textbook(double measured, double textbook, bool uses_shared) {
    if (measured <= 0 || textbook <= 0) return std::nullopt;
    const double r = measured / textbook;
    const auto per_load = format_ai_value(4 * r);
    if (r >= uncoalesced_from)
        return fmt::format(
            "Uncoalesced loads: L1 moves {} B per 4-byte element load ({}, {} the textbook's "
            "{}): the lanes of a warp read floats in separate 32-byte sectors, so a warp load "
            "of 32 floats fetches up to 32 sectors instead of one 128 B request.",
            per_load, bytes(measured), times(r), bytes(textbook));
    if (r < gap_band_lo && uses_shared)
        return fmt::format(
            "L1 global loads are {} the textbook's element loads ({} against {}): the textbook "
            "counts every operand load of every output, and this rung serves most of them from "
            "shared memory and registers.",
            times(r), bytes(measured), bytes(textbook));
    if (r < gap_band_lo)
        return fmt::format(
            "Broadcast: L1 moves {} B per 4-byte element load ({} against the textbook's {}): "
            "lanes that read the same float share one 32-byte sector (1 B per lane), while a "
            "coalesced warp load of 32 floats is one 128 B request (4 B per lane).",
            per_load, bytes(measured), bytes(textbook));
    if (r > gap_band_hi)
        return fmt::format(
            "L1 moves {} B per 4-byte element load ({}, {} the textbook's {}): some warp loads "
            "touch more 32-byte sectors than their floats fill.",
            per_load, bytes(measured), times(r), bytes(textbook));
    return std::nullopt;
}

std::optional<std::string> bank_conflicts(double wf, double conflicts) {
    if (conflicts <= 0 || wf <= conflicts) return std::nullopt;
    // Conflicts are the extra wavefronts replayed on top of the conflict-free ones.
    const double factor = wf / (wf - conflicts);
    if (factor < conflicts_from) return std::nullopt;
    const auto share =
        fmt::format("{} of {}", format_count(conflicts, ""), format_count(wf, "wavefronts"));
    const long ways = std::lround(factor);
    if (ways >= 2 && std::fabs(factor - double(ways)) < 0.05 * double(ways)) {
        const auto verb = ways == 2   ? std::string("double")
                          : ways == 3 ? std::string("triple")
                                      : fmt::format("multiply by {}", ways);
        return fmt::format("{}-way bank conflicts {} the shared load wavefronts ({} are replays).",
                           ways, verb, share);
    }
    return fmt::format(
        "Bank conflicts add {} to the shared load wavefronts, {} for each conflict-free one ({} "
        "are replays).",
        format_percent(factor - 1), format_ai_value(factor), share);
}

std::optional<std::string> shared_against_textbook(double measured, double textbook) {
    if (measured <= 0 || textbook <= 0) return std::nullopt;
    const double r = measured / textbook;
    const auto head = fmt::format(
        "Shared memory moves {} in 128 B wavefronts, {} the textbook's element accesses × 4 B "
        "({})",
        bytes(measured), times(r), bytes(textbook));
    if (r < gap_band_lo)
        return head +
               ": lanes that read the same word share it (broadcast), so a wavefront serves "
               "more than 32 accesses.";
    if (r > gap_band_hi) return head + ": its wavefronts carry fewer than 32 useful words each.";
    return std::nullopt;
}

std::optional<std::string> refined_miss(const refined_miss_inputs& in) {
    if (!outside_band(in.ratio)) return std::nullopt;
    return fmt::format(
        "The refined model misses {}: measured {} its prediction ({} against {}){}.", in.what,
        times(in.ratio), in.measured, in.refined,
        in.cause.empty() ? std::string("; the counters do not say why") : "; " + in.cause);
}

}  // namespace tgemm::render
