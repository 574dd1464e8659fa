#include "render/tensor_steps.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "core/strings.hpp"
#include "model/levels.hpp"
#include "render/format.hpp"
#include "render/names.hpp"
#include "render/rung_colours.hpp"
#include "render/why_words.hpp"

namespace tgemm::render {

namespace {

// One counter on both sides of a step.
struct both {
    double from = 0;
    double to = 0;
};

bool changed(const both& v, double within = step_same_within) {
    if ((v.from == 0) != (v.to == 0)) return true;
    return std::fabs(v.to - v.from) > within * std::max(std::fabs(v.from), std::fabs(v.to));
}

std::string bytes(double v) {
    return format_si(v, "B");
}
std::string count(double v) {
    return format_count(v, "");
}

// "9.83 M → 4.19 M (−57.3 %)"; no percentage where either side is 0.
std::string arrow(const both& v, std::string (*fmt_value)(double)) {
    auto s = fmt::format("{} → {}", fmt_value(v.from), fmt_value(v.to));
    if (v.from > 0 && v.to > 0) {
        const double c = v.to / v.from - 1;
        s += fmt::format(" ({}{})", c < 0 ? "−" : "+", format_percent(std::fabs(c)));
    }
    return s;
}

// Reads a counter from both rows and keeps the names of those either row lacks.
class step_reader {
  public:
    step_reader(const step_row& from, const step_row& to)
        : m_from(from),
          m_to(to),
          m_tensor(from.counters.contains(keys::tensor_flops) ||
                   to.counters.contains(keys::tensor_flops) ||
                   from.counters.contains(keys::smem_gmma_wavefronts) ||
                   to.counters.contains(keys::smem_gmma_wavefronts)) {}

    std::optional<both> get(std::string_view key) {
        const auto f = m_from.counters.find(key);
        const auto t = m_to.counters.find(key);
        if (f != m_from.counters.end() && t != m_to.counters.end())
            return both{f->second, t->second};
        // Two FP32 rungs lack the tensor counters by design (they are not collected for them):
        // nothing to report.
        if (f == m_from.counters.end() && t == m_to.counters.end() && !m_tensor)
            return std::nullopt;
        auto name = level_display_name(key);
        if (f != m_from.counters.end()) name += " of " + m_to.kernel;
        if (t != m_to.counters.end()) name += " of " + m_from.kernel;
        if (std::find(m_missing.begin(), m_missing.end(), name) == m_missing.end())
            m_missing.push_back(std::move(name));
        return std::nullopt;
    }
    // a + b on each side; absent when either counter is.
    std::optional<both> sum(std::string_view a, std::string_view b) {
        const auto x = get(a);
        const auto y = get(b);
        if (!x || !y) return std::nullopt;
        return both{x->from + y->from, x->to + y->to};
    }
    [[nodiscard]] const step_row& from() const { return m_from; }
    [[nodiscard]] const std::vector<std::string>& missing() const { return m_missing; }

  private:
    const step_row& m_from;
    const step_row& m_to;
    bool m_tensor;  // either row is a tensor rung's
    std::vector<std::string> m_missing;
};

// Bank conflicts below this share of their wavefronts on both sides are left out: a few
// hundred replays among millions of wavefronts are timing, not the step.
constexpr double conflicts_worth_from = 0.01;

// "store bank conflicts 1.18 M (34.6 % of the store wavefronts) → 0".
std::optional<std::string> conflicts_clause(step_reader& r, std::string_view conflicts_key,
                                            std::string_view wavefronts_key,
                                            std::string_view word) {
    const auto c = r.get(conflicts_key);
    const auto w = r.get(wavefronts_key);
    if (!c || !w || !changed(*c)) return std::nullopt;
    const auto share = [](double conflicts, double wavefronts) {
        return wavefronts > 0 ? conflicts / wavefronts : 0.0;
    };
    const double from = share(c->from, w->from);
    const double to = share(c->to, w->to);
    if (std::max(from, to) < conflicts_worth_from) return std::nullopt;
    const auto side = [&](double v, double sh) {
        return v > 0
                   ? fmt::format("{} ({} of the {} wavefronts)", count(v), format_percent(sh), word)
                   : count(v);
    };
    return fmt::format("{} bank conflicts {} → {}", word, side(c->from, from), side(c->to, to));
}

// "ldmatrix wavefronts 0 → 4.19 M, none of them a bank conflict".
std::optional<std::string> ldmatrix_clause(step_reader& r) {
    const auto w = r.get(keys::smem_ldsm_wavefronts);
    if (!w || !changed(*w)) return std::nullopt;
    auto s = "ldmatrix wavefronts " + arrow(*w, count);
    if (const auto c = r.get(keys::smem_ldsm_bank_conflicts); c && w->to > 0)
        s += c->to == 0 ? std::string(", none of them a bank conflict")
                        : fmt::format(", {} of them bank conflicts", count(c->to));
    return s;
}

std::vector<std::string> shared_clauses(step_reader& r) {
    std::vector<std::string> out;
    const auto add = [&](std::optional<std::string> s) {
        if (s) out.push_back(std::move(*s));
    };
    if (const auto w = r.sum(keys::smem_load_wavefronts, keys::smem_store_wavefronts);
        w && changed(*w))
        out.push_back("load + store wavefronts through the LSU " + arrow(*w, count));
    add(conflicts_clause(r, keys::smem_load_bank_conflicts, keys::smem_load_wavefronts, "load"));
    add(conflicts_clause(r, keys::smem_store_bank_conflicts, keys::smem_store_wavefronts, "store"));
    add(ldmatrix_clause(r));
    if (const auto w = r.get(keys::smem_stsm_wavefronts); w && changed(*w))
        out.push_back("stmatrix wavefronts " + arrow(*w, count));
    if (const auto w = r.get(keys::smem_gmma_wavefronts); w && changed(*w))
        out.push_back(fmt::format("wgmma operand wavefronts {}, {} read by the tensor cores",
                                  arrow(*w, count), bytes(w->to * smem_wavefront_bytes)));
    if (const auto b = r.get(keys::smem_ldgsts_bytes); b && changed(*b))
        out.push_back("cp.async writes " + arrow(*b, bytes));
    return out;
}

std::vector<std::string> tma_clauses(step_reader& r) {
    std::vector<std::string> out;
    const auto loads = r.get(keys::tma_load_bytes);
    if (loads && changed(*loads)) out.push_back("loads " + arrow(*loads, bytes));
    if (const auto mc = r.get(keys::tma_multicast_bytes); mc && changed(*mc)) {
        auto s = "multicast " + arrow(*mc, bytes);
        if (loads && loads->to > 0 && mc->to > 0)
            s += fmt::format(" ({} of the TMA loads)", format_percent(mc->to / loads->to));
        out.push_back(std::move(s));
    }
    if (const auto st = r.get(keys::tma_store_bytes); st && changed(*st))
        out.push_back("stores " + arrow(*st, bytes));
    return out;
}

std::vector<std::string> l1_clauses(step_reader& r) {
    std::vector<std::string> out;
    if (const auto v = r.get(keys::l1_global_load_bytes); v && changed(*v))
        out.push_back("global loads " + arrow(*v, bytes));
    if (const auto v = r.get(keys::l1_global_store_bytes); v && changed(*v))
        out.push_back("global stores " + arrow(*v, bytes));
    return out;
}

// Requests, what the L2 request coalescer merged among them, and what L2 served after merging.
std::vector<std::string> l2_clauses(step_reader& r) {
    std::vector<std::string> out;
    const auto req = r.get(keys::l2_requested_bytes);
    const auto merged = r.get(keys::l2_coalesced_bytes);
    if (req && changed(*req)) out.push_back("read requests " + arrow(*req, bytes));
    if (merged && changed(*merged))
        out.push_back("merged by the request coalescer " + arrow(*merged, bytes));
    if (req && merged) {
        const both served{req->from - merged->from, req->to - merged->to};
        if (changed(served)) out.push_back("left after merging " + arrow(served, bytes));
    }
    return out;
}

std::vector<std::string> dram_clauses(step_reader& r) {
    const auto v = r.sum(keys::dram_read_bytes, keys::dram_write_bytes);
    if (!v || !changed(*v, step_dram_same_within)) return {};
    return {"read + write " + arrow(*v, bytes)};
}

std::string rate_line(const step_row& from, const step_row& to) {
    if (!from.tflops || !to.tflops || !(*from.tflops > 0)) {
        const auto& untimed = from.tflops ? to : from;
        return fmt::format("Rate: not measured ({} was not timed).", untimed.kernel);
    }
    auto s =
        fmt::format("Rate: {} → {} TFLOP/s ({:.2f}×)", format_tflops_value(*from.tflops * 1e12),
                    format_tflops_value(*to.tflops * 1e12), *to.tflops / *from.tflops);
    if (from.median_ms && to.median_ms)
        s += fmt::format("; median time {} → {} ms", format_ms(*from.median_ms),
                         format_ms(*to.median_ms));
    return s + ".";
}

// Where the rate rose by more than any counter's traffic fell, fewer bytes alone do not
// account for the step: "TFLOP/s rose 1.65×, more than the traffic of any level fell (at most
// 1.33×: TMA load bytes)."
std::optional<std::string> gain_line(const step_row& from, const step_row& to) {
    if (!from.tflops || !to.tflops || !(*from.tflops > 0)) return std::nullopt;
    const double rate = *to.tflops / *from.tflops;
    static constexpr std::array<std::string_view, 8> traffic = {
        keys::smem_ldsm_wavefronts, keys::smem_gmma_wavefronts, keys::smem_ldgsts_bytes,
        keys::tma_load_bytes,       keys::l1_global_load_bytes, keys::l1_global_store_bytes,
        keys::l2_requested_bytes,   keys::dram_read_bytes};
    double best = 0;
    std::string_view best_key;
    const auto consider = [&](std::string_view name, double f, double t) {
        if (f > 0 && t > 0 && f / t > best) best = f / t, best_key = name;
    };
    const auto value = [](const step_row& r, std::string_view k) {
        const auto it = r.counters.find(k);
        return it == r.counters.end() ? 0.0 : it->second;
    };
    const auto lsu = [&](const step_row& r) {
        return value(r, keys::smem_load_wavefronts) + value(r, keys::smem_store_wavefronts);
    };
    consider("shared load + store wavefronts", lsu(from), lsu(to));
    for (const auto k : traffic) consider(k, value(from, k), value(to, k));
    if (best_key.empty() || rate <= 1 + step_same_within || rate <= best * (1 + step_same_within))
        return std::nullopt;
    const auto name =
        best_key.starts_with("shared") ? std::string(best_key) : level_display_name(best_key);
    return fmt::format(
        "TFLOP/s rose {:.2f}×, more than the traffic of any counter fell (at most {:.2f}×: {}).",
        rate, best, name);
}

// The factors of Little's law that made a step slower (against) and those that made it faster
// (offset), each "fewer warps in flight (W ×0.50)"; a factor within 10 % of 1 is neither.
struct factor_clauses {
    std::vector<std::string> against, offset;
};

factor_clauses clauses_of(const little_factors& f) {
    factor_clauses c;
    const auto add = [&](double x, bool more_is_slower, const char* more, const char* fewer,
                         const char* symbol) {
        if (std::fabs(x - 1) <= 0.1) return;
        const bool slower = (x > 1) == more_is_slower;
        (slower ? c.against : c.offset)
            .push_back(fmt::format("{} ({}×{:.2f})", x > 1 ? more : fewer, symbol, x));
    };
    add(f.instructions, true, "more instructions", "fewer instructions", "");
    add(f.warps, false, "more warps in flight", "fewer warps in flight", "W ");
    add(f.latency, true, "longer waits per instruction", "shorter waits per instruction", "L ");
    return c;
}

// A step that moves fewer bytes at every level and still runs slower: the traffic did not set
// its time, and Little's law's factors say what did.
std::optional<std::string> slower_with_fewer_bytes(const step_row& from, const step_row& to) {
    if (!from.tflops || !to.tflops || *to.tflops >= *from.tflops * (1 - step_same_within))
        return std::nullopt;
    const auto value = [](const step_row& r, std::string_view k) -> std::optional<double> {
        const auto it = r.counters.find(k);
        if (it == r.counters.end()) return std::nullopt;
        return it->second;
    };
    const auto lsu = [&](const step_row& r) -> std::optional<double> {
        const auto ld = value(r, keys::smem_load_wavefronts);
        const auto st = value(r, keys::smem_store_wavefronts);
        if (!ld || !st) return std::nullopt;
        return *ld + *st;
    };
    // DRAM first: its slack differs (below).
    const auto traffic = [&](const step_row& r) {
        return std::array<std::optional<double>, 8>{value(r, keys::dram_read_bytes),
                                                    value(r, keys::l2_bytes),
                                                    value(r, keys::l1_global_load_bytes),
                                                    value(r, keys::l1_global_store_bytes),
                                                    lsu(r),
                                                    value(r, keys::smem_ldgsts_bytes),
                                                    value(r, keys::tma_load_bytes),
                                                    value(r, keys::smem_gmma_wavefronts)};
    };
    const auto before = traffic(from);
    const auto after = traffic(to);
    for (std::size_t i = 0; i < before.size(); ++i) {
        if (before[i].has_value() != after[i].has_value()) return std::nullopt;
        // DRAM moves with what stays in L2 between launches: only a clear rise counts.
        const double slack = i == 0 ? step_dram_same_within : step_same_within;
        if (before[i] && *after[i] > *before[i] * (1 + slack)) return std::nullopt;
    }
    const auto f = little_factors_between(from.exec, to.exec);
    auto s = fmt::format(
        "{} moves no more bytes than {} at any level and still runs {:.2f}× "
        "slower",
        to.kernel, from.kernel, *from.tflops / *to.tflops);
    if (!f) return s + ": the execution counters were not measured, so the cause is not named.";
    const auto causes = clauses_of(*f).against;
    if (causes.empty())
        return s + fmt::format(
                       ": instructions, warps and latency each moved by less than 10 %, "
                       "together cycles ×{:.2f}.",
                       f->cycles);
    return s + ": the time is not the traffic's but " + join(causes, " and ") + ".";
}

// Which factors of Little's law made the later rung slower, and which one offset them: "The
// time is set by more instructions (×1.41) and fewer warps in flight (W ×0.52), which shorter
// waits per instruction (L ×0.50) only partly offset."
std::optional<std::string> cause_line(const execution_view& from, const execution_view& to) {
    const auto f = little_factors_between(from, to);
    if (!f) return std::nullopt;
    const auto [against, offset] = clauses_of(*f);
    if (against.empty()) return std::nullopt;
    auto s = "The time is set by " + join(against, " and ");
    if (!offset.empty()) s += ", which " + join(offset, " and ") + " only partly offset";
    return s + ".";
}

}  // namespace

std::vector<std::string> ladder_step_lines(const step_row& from, const step_row& to) {
    std::vector<std::string> out = {rate_line(from, to)};
    step_reader r(from, to);
    const std::array<std::pair<std::string_view, std::vector<std::string>>, 5> levels = {{
        {"Shared memory", shared_clauses(r)},
        {"TMA", tma_clauses(r)},
        {"L1", l1_clauses(r)},
        {"L2", l2_clauses(r)},
        {"DRAM", dram_clauses(r)},
    }};
    for (const auto& [level, clauses] : levels)
        if (!clauses.empty()) out.push_back(fmt::format("{}: {}.", level, join(clauses, "; ")));
    if (auto g = gain_line(from, to)) out.push_back(std::move(*g));
    if (auto w = little_step_line(from.exec, to.exec)) out.push_back(std::move(*w));
    if (auto c = slower_with_fewer_bytes(from, to)) out.push_back(std::move(*c));
    if (!r.missing().empty())
        out.push_back(fmt::format("Not measured: {}.", join(r.missing(), ", ")));
    return out;
}

namespace {

step_row step_side(const analysis& a, const row_analysis& r) {
    step_row s{r.row->kernel, r.tflops, std::nullopt, r.row->counters,
               execution_of(*r.row, a.source->gpu, r.executed_flops)};
    if (r.row->time) s.median_ms = r.row->time->median_ms;
    return s;
}

std::vector<finding_group> steps_of(const analysis& a, bool tensor) {
    std::vector<finding_group> out;
    const auto focus = a.focus_size();
    if (!focus || !a.source) return out;
    std::vector<const row_analysis*> rungs;
    for (const auto* r : rows_at(a, *focus))
        if (!is_reference_kernel(r->row->kernel) &&
            (compute_roof_key(r->row->dtype) != roofs::fp32) == tensor)
            rungs.push_back(r);
    const auto side = [&](const row_analysis& r) { return step_side(a, r); };
    for (std::size_t i = 1; i < rungs.size(); ++i) {
        const auto& from = *rungs[i - 1];
        const auto& to = *rungs[i];
        if (from.row->dtype != to.row->dtype) continue;
        out.push_back(
            {fmt::format("{} → {} at {}", from.row->kernel, to.row->kernel, to_string(*focus)),
             ladder_step_lines(side(from), side(to)),
             {},
             {}});
    }
    return out;
}

}  // namespace

std::vector<finding_group> tensor_ladder_steps(const analysis& a) {
    return steps_of(a, true);
}

std::vector<finding_group> fewer_bytes_yet_slower(const analysis& a) {
    std::vector<finding_group> out;
    const auto focus = a.focus_size();
    if (!focus || !a.source) return out;
    std::vector<const row_analysis*> rungs;
    for (const auto* r : rows_at(a, *focus))
        if (!is_reference_kernel(r->row->kernel) && r->tflops) rungs.push_back(r);
    const auto bytes = [](const row_analysis& r, std::string_view k) { return r.row->counter(k); };
    const auto side = [&](const row_analysis& r) { return step_side(a, r); };
    for (std::size_t j = 1; j < rungs.size(); ++j) {
        const auto& later = *rungs[j];
        const row_analysis* best = nullptr;
        for (std::size_t i = 0; i < j; ++i) {
            const auto& earlier = *rungs[i];
            if (earlier.row->dtype != later.row->dtype) continue;
            if (*later.tflops >= *earlier.tflops * (1 - contradiction_from)) continue;
            const auto l1a = bytes(earlier, keys::l1_global_load_bytes);
            const auto l1b = bytes(later, keys::l1_global_load_bytes);
            const auto da = bytes(earlier, keys::dram_read_bytes);
            const auto db = bytes(later, keys::dram_read_bytes);
            if (!l1a || !l1b || !da || !db) continue;
            if (*l1b > *l1a * (1 + step_same_within) || *db > *da * (1 + step_dram_same_within))
                continue;
            if (!best || *earlier.tflops > *best->tflops) best = &earlier;
        }
        if (!best) continue;
        auto lines = ladder_step_lines(side(*best), side(later));
        if (auto c = cause_line(side(*best).exec, side(later).exec)) lines.push_back(std::move(*c));
        lines.insert(
            lines.begin(),
            fmt::format("{} is a later rung than {}, moves no more L1 global-load and "
                        "DRAM bytes, and runs {:.2f}× slower.",
                        later.row->kernel, best->row->kernel, *best->tflops / *later.tflops));
        out.push_back({fmt::format("{} against {} at {}", later.row->kernel, best->row->kernel,
                                   to_string(*focus)),
                       std::move(lines),
                       {},
                       {}});
    }
    return out;
}

std::vector<finding_group> fp32_ladder_steps(const analysis& a) {
    return steps_of(a, false);
}

}  // namespace tgemm::render
