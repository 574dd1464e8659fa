#pragma once
// Many profiles of one GPU model side by side (issue 13's fleet report): each card's measured
// roofs and each rung's TFLOP/s against the median of all the cards, and the cards that fall
// more than a margin below it (a degraded or throttled card).
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "profile/profile.hpp"

namespace tgemm {

struct fleet_input {
    std::string origin;  // the file, as messages name it
    const profile* data = nullptr;
};

// One compared quantity: a roof ("dram") or a rung at a size ("naive 4096³").
struct fleet_value {
    std::string what;
    std::string unit;                             // "B/s", "FLOP/s"
    bool rung = false;                            // a rung's rate, not a roof
    std::vector<std::optional<double>> per_card;  // input order; nullopt: not measured there
    double median = 0;                            // over the cards that measured it
    // (largest − smallest) / median over those cards; empty with fewer than two.
    std::optional<double> spread;
    // A rung's rate from its fastest timed launch (2MNK / min time) on each card, and their
    // median: a card whose median falls behind but whose fastest launch does not can run as fast
    // and ran slower part of the time (clocks, power). Empty for roofs.
    std::vector<std::optional<double>> best_per_card;
    double best_median = 0;
};

struct fleet_flag {
    std::size_t card = 0;
    std::string what;
    std::string unit;
    bool rung = false;
    double value = 0;
    double median = 0;
    std::optional<double> best, best_median;  // a rung's fastest-launch rate and their median
    [[nodiscard]] double below() const { return 1 - value / median; }
    [[nodiscard]] std::optional<double> best_below() const {
        if (!best || !best_median || *best_median <= 0) return std::nullopt;
        return 1 - *best / *best_median;
    }
};

struct fleet_analysis {
    std::vector<std::string> cards;  // "host GPU i (GPU-uuid…)" or the file when unrecorded
    std::string gpu_name;
    double margin = 0;
    std::vector<fleet_value> roofs;  // measured roofs
    std::vector<fleet_value> rungs;  // TFLOP/s = 2MNK / median time, in FLOP/s
    std::vector<fleet_flag> flags;   // every value more than `margin` below its median
};

// The median of `values` (the mean of the middle two for an even count); `values` not empty.
[[nodiscard]] double median_of(std::vector<double> values);

// Throws error_kind::input, one line naming the files, when fewer than two profiles are given,
// one is not measured, or they hold different GPU models (compare each model's cards apart).
[[nodiscard]] fleet_analysis analyze_fleet(std::span<const fleet_input> inputs, double margin);

}  // namespace tgemm
