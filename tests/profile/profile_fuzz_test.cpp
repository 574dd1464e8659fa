// The profile reader under a deterministic corpus of mutated inputs (issue 12): whatever the
// bytes, parse_profile returns a profile or throws one error_kind::input line naming the file;
// a profile it accepts is written back and read again.
#include <gtest/gtest.h>

// GCC 12 at -O2 reports a false -Warray-bounds inside std::map when it inlines the
// nlohmann::json objects this file builds key by key; the code indexes nothing itself.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ == 12
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif

#include <algorithm>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../core/fuzz_corpus.hpp"
#include "profile/partial_profile.hpp"
#include "profile/profile_file.hpp"

using namespace tgemm;
using nlohmann::json;

namespace {

constexpr const char* origin = "fuzzed-profile.json";

// A small valid 1.2 profile, written by hand: one measured row, one skipped row.
const std::string small_profile = R"({
  "schema": "tgemm-roofline/profile/1.2",
  "source": "measured",
  "gpu": { "key": "h100", "name": "NVIDIA H100", "cc": "9.0", "sm_count": 132,
           "fp32_lanes_per_sm": 128, "sm_clock_mhz": 1980.0, "mem_clock_mhz": 2619,
           "bus_width_bits": 5120, "l2_bytes": 52428800, "smem_per_block_optin": 232448,
           "sm_limits": { "threads_per_sm": 2048, "ctas_per_sm": 32, "registers_per_sm": 65536,
                          "registers_per_thread": 255, "register_unit": 256,
                          "register_partitions": 4, "smem_per_sm": 233472,
                          "smem_reserved_per_cta": 1024, "smem_unit": 128, "source": "attrs" } },
  "env": { "tool_version": "0.1.0", "driver": "580", "cuda": "13.0", "command": "x",
           "date": "2026-11-22T13:00:00Z", "host": "h" },
  "peaks": { "fp32": { "theoretical": 6.69e13, "unit": "FLOP/s", "method": "spec",
                       "measured": 5.1e13, "measured_by": "fma", "clock_mhz": 1755,
                       "theoretical_at_clock": 5.93e13, "note": "n" },
             "dram": { "theoretical": 3.35e12, "unit": "B/s", "method": "spec", "measured": null } },
  "measurements": [
    { "kernel": "naive", "dtype": "fp32", "m": 1024, "n": 1024, "k": 1024, "alpha": 1.0,
      "beta": 0.0, "verified": true, "verify_max_error": 0.01,
      "time_ms": { "median": 1.5, "min": 1.4, "max": 1.9, "runs": 20, "l2_flushed": true },
      "counters": { "flops": 2150629376, "dram_read_bytes": 12582912.0, "l2_read_bytes": null },
      "counter_passes": 3,
      "model": { "textbook": { "flops": 2147483648, "global_bytes": 8598323200, "formula": "f",
                               "loads_per_output": 2048, "smem_accesses": 0 },
                 "refined": { "dram_read_bytes": 12582912, "notes": ["a", "b"] } } },
    { "kernel": "smem_tiling", "dtype": "fp32", "m": 4096, "n": 2048, "k": 1024, "alpha": 1,
      "beta": 0, "verified": false, "time_ms": null, "counters": {},
      "model": { "textbook": { "flops": 1, "global_bytes": 1 }, "refined": {} },
      "skipped": "too slow" } ] })";

// The same as a 1.0 profile: no sm_limits, so the reader takes them from the spec database by
// key, else by compute capability.
std::string old_profile(const std::string& key, const std::string& cc) {
    auto j = json::parse(small_profile);
    j["schema"] = "tgemm-roofline/profile/1.0";
    j["gpu"].erase("sm_limits");
    j["gpu"]["key"] = key;
    j["gpu"]["cc"] = cc;
    return j.dump(1);
}

// A 1.3 profile: a shard's work list, the GPU's index and UUID, a merged row's provenance.
std::string fleet_profile() {
    // Edited as text: nlohmann's assignments here trip a false -Warray-bounds in GCC 12.
    auto text = small_profile;
    const auto edit = [&](std::string_view from, std::string_view to) {
        text.replace(text.find(from), from.size(), to);
    };
    edit("profile/1.2", "profile/1.3");
    edit(R"("host": "h" })", R"("host": "h", "gpu_index": 1, "gpu_uuid": "GPU-0123",
           "work_list": { "size": 10, "shard": { "index": 1, "count": 4 } } })");
    edit(R"("counter_passes": 3,)", R"("counter_passes": 3,
      "provenance": { "host": "h", "driver": "580", "date": "2026", "shard": "1/4",
                      "gpu_index": 1, "gpu_uuid": "GPU-0123", "work_index": 3 },)");
    return text;
}

// A 1.4 profile: each row's timing noise and, as --repeat 3 writes it, the spread of its values.
std::string repeat_profile() {
    auto text = fleet_profile();
    const auto edit = [&](std::string_view from, std::string_view to) {
        text.replace(text.find(from), from.size(), to);
    };
    edit("profile/1.3", "profile/1.4");
    edit(R"("runs": 20, "l2_flushed": true })",
         R"("runs": 20, "l2_flushed": true,
                   "noise": 0.0031, "noise_target": 0.005, "noise_met": true })");
    edit(R"("counter_passes": 3,)", R"("counter_passes": 3,
      "repeats": { "n": 3, "time_ms_median": { "min": 1.4, "median": 1.5, "max": 1.6, "spread": 0.13 },
                   "counters": { "flops": { "min": 2150629376, "median": 2150629376,
                                            "max": 2150629376, "spread": 0 } } },)");
    return text;
}

// A checkpoint of a stopped --repeat 2 run (profile/partial_profile.hpp): the 1.4 profile, the
// run's identity, and one row of the second run.
std::string partial_text() {
    partial_profile p;
    p.done = parse_profile(repeat_profile(), origin);
    p.identity.kernels = {"naive", "smem_tiling"};
    p.identity.sizes = {{1024, 1024, 1024}, {4096, 2048, 1024}};
    p.identity.repeat = 2;
    p.identity.min_runs = 20;
    p.identity.noise_target = 0.005;
    p.identity.max_time_s = 10;
    p.identity.gpu = "h100";
    p.identity.gpu_uuid = "GPU-0123";
    p.identity.tool_version = "0.1.0";
    p.later_runs = {{p.done.measurements[0]}};
    return dump_partial(p);
}

std::string shipped_h100() {
    std::ifstream in(std::string(TGEMM_SOURCE_DIR) + "/profiles/h100.json", std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Accepted input: written back, it reads again (a failure there is the writer's or the reader's
// bug, not a corrupt file, so it does not pass as one).
void read_it(const std::string& text) {
    const auto p = parse_profile(text, origin);
    const auto again = dump_profile(p);
    try {
        (void)parse_profile(again, origin);
    } catch (const error& e) {
        throw std::logic_error(std::string("accepted, but its dump is rejected: ") + e.what());
    }
}

// The same for a checkpoint: read, written back, read again.
void read_partial_back(const std::string& text) {
    const auto p = parse_partial(text, origin);
    try {
        (void)parse_partial(dump_partial(p), origin);
    } catch (const error& e) {
        throw std::logic_error(std::string("accepted, but its dump is rejected: ") + e.what());
    }
}

std::size_t check(const std::vector<std::string>& corpus, std::string_view label) {
    return fuzz::check_all(corpus, read_it, error_kind::input, origin, label);
}

// Every value's JSON pointer in `j`, objects and arrays included.
void pointers(const json& j, const json::json_pointer& at, std::vector<json::json_pointer>& out) {
    out.push_back(at);
    if (j.is_object())
        for (const auto& [k, v] : j.items()) pointers(v, at / k, out);
    else if (j.is_array())
        for (std::size_t i = 0; i < j.size(); ++i) pointers(j[i], at / i, out);
}

// What each value is swapped for: every JSON type, extremes, and raw text no JSON allows
// (spliced in through a placeholder).
const std::vector<json> swapped_values = {nullptr,
                                          true,
                                          false,
                                          0,
                                          -1,
                                          1,
                                          0.5,
                                          -0.0,
                                          1e308,
                                          -1e308,
                                          4.9e-324,
                                          std::numeric_limits<std::int64_t>::max(),
                                          std::numeric_limits<std::int64_t>::min(),
                                          std::numeric_limits<std::uint64_t>::max(),
                                          2147483648LL,
                                          4294967297LL,
                                          65537,
                                          1LL << 40,
                                          "",
                                          "a string",
                                          "line\nbreak",
                                          std::string(100000, 'w'),
                                          json::array(),
                                          json::array({1, "x"}),
                                          json::object(),
                                          json::object({{"k\n", 1}})};
const std::vector<std::string> raw_values = {"NaN",
                                             "Infinity",
                                             "-Infinity",
                                             "1e999",
                                             "-1e999",
                                             "1e-999",
                                             "123456789012345678901234567890",
                                             "-123456789012345678901234567890",
                                             "\"\xff\xfe\"",
                                             "\"\xc0\xaf\"",
                                             "\"\\ud800\"",
                                             "01",
                                             "1.",
                                             std::string(5000, '[') + std::string(5000, ']')};

std::string with_raw(json j, const json::json_pointer& at, const std::string& raw) {
    static const json placeholder = "@@RAW@@";
    j[at] = placeholder;
    auto text = j.dump();
    text.replace(text.find("\"@@RAW@@\""), 9, raw);
    return text;
}

// Each chosen value swapped for each replacement; each object key dropped, and renamed to one
// with a line break.
std::vector<std::string> structured(const std::string& seed, std::size_t max_pointers,
                                    std::uint32_t rng_seed) {
    const auto root = json::parse(seed);
    std::vector<json::json_pointer> all;
    pointers(root, json::json_pointer{}, all);
    if (all.size() > max_pointers) {
        std::mt19937 rng(rng_seed);
        std::shuffle(all.begin() + 1, all.end(), rng);
        all.resize(max_pointers);
    }
    std::vector<std::string> out;
    for (const auto& at : all) {
        for (const auto& v : swapped_values) {
            auto j = root;
            j[at] = v;
            out.push_back(j.dump());
        }
        for (const auto& raw : raw_values) out.push_back(with_raw(root, at, raw));
        if (at.empty()) continue;
        auto j = root;
        auto& parent = j[at.parent_pointer()];
        if (parent.is_object()) {
            auto moved = parent[at.back()];
            parent.erase(at.back());
            out.push_back(j.dump());
            parent[at.back() + "\n"] = std::move(moved);
            out.push_back(j.dump());
        }
    }
    return out;
}

}  // namespace

TEST(ProfileFuzz, SeedsAreValid) {
    EXPECT_NO_THROW(read_it(small_profile));
    EXPECT_NO_THROW(read_it(old_profile("h100", "9.0")));
    EXPECT_NO_THROW(read_it(fleet_profile()));
    EXPECT_NO_THROW(read_it(repeat_profile()));
    EXPECT_NO_THROW(read_partial_back(partial_text()));
    EXPECT_NO_THROW(read_it(shipped_h100()));
}

// Hand-picked inputs at the edges: nothing, not JSON, deep nesting, huge literals.
TEST(ProfileFuzz, EdgeInputs) {
    std::vector<std::string> corpus = {
        "",
        " ",
        "\n",
        "\xef\xbb\xbf",
        "null",
        "0",
        "\"\"",
        "[]",
        "{}",
        "{\"schema\":1}",
        std::string("\0", 1),
        "\xff\xfe{",
        "{\"schema\": \"tgemm-roofline/profile/\"}",
        "{\"schema\": \"tgemm-roofline/profile/99999999999999999999.0\"}",
        "{\"schema\": \"tgemm-roofline/profile/1.99999999999999999999\"}",
        "{\"schema\": \"tgemm-roofline/profile/\n1.2\"}",
        "{\"schema\": \"x\\ny\"}",
        std::string(200000, '['),
        std::string(100000, '[') + std::string(100000, ']'),
        std::string(100000, '{'),
        "[" + std::string(1 << 20, '1') + "]",
        "\"" + std::string(1 << 20, 'a') + "\"",
        "1e999",
        "-1e999",
        "NaN",
        "Infinity"};
    // A 1.0 profile of a GPU the spec database does not know, with each kind of cc.
    for (const auto* cc :
         {"9.0", "8.6", "", "9", ".", "9.", "x.y", "99999999999.0", "-1.-1", "12.0", "9.0.0", "\n"})
        corpus.push_back(old_profile("nosuch", cc));
    // Nested arrays as a value the reader descends into.
    const auto nest = std::string(50000, '[') + std::string(50000, ']');
    for (const auto& [key, insert] : {std::pair{"\"counters\": {", "\"x\": " + nest + ","},
                                      std::pair{"\"notes\": [", nest + ","}}) {
        auto s = small_profile;
        s.insert(s.find(key) + std::strlen(key), insert);
        corpus.push_back(s);
    }
    check(corpus, "edge");
}

TEST(ProfileFuzz, SwappedValuesAndKeysOfASmallProfile) {
    auto corpus = structured(small_profile, 1000, 1);
    const auto old = structured(old_profile("nosuch", "9.0"), 30, 2);
    corpus.insert(corpus.end(), old.begin(), old.end());
    const auto fleet = structured(fleet_profile(), 1000, 4);
    corpus.insert(corpus.end(), fleet.begin(), fleet.end());
    const auto repeats = structured(repeat_profile(), 1000, 5);
    corpus.insert(corpus.end(), repeats.begin(), repeats.end());
    EXPECT_GT(check(corpus, "swapped"), 1000u);
}

// A checkpoint is read by --resume: the same rule, one line naming the file, whatever the bytes.
TEST(ProfileFuzz, MutatedCheckpoints) {
    const auto seed = partial_text();
    auto corpus = structured(seed, 400, 6);
    fuzz::mutator mut(13);
    const auto bytes = mut.corpus({seed}, 800);
    corpus.insert(corpus.end(), bytes.begin(), bytes.end());
    const auto cuts = fuzz::mutator::truncations(seed, 100);
    corpus.insert(corpus.end(), cuts.begin(), cuts.end());
    EXPECT_GT(fuzz::check_all(corpus, read_partial_back, error_kind::input, origin, "checkpoint"),
              1000u);
}

TEST(ProfileFuzz, ByteMutationsOfASmallProfile) {
    fuzz::mutator mut(12);
    auto corpus = mut.corpus(
        {small_profile, old_profile("a100", "8.0"), fleet_profile(), repeat_profile()}, 3000);
    const auto cuts = fuzz::mutator::truncations(small_profile, 300);
    corpus.insert(corpus.end(), cuts.begin(), cuts.end());
    check(corpus, "bytes");
}

// The shipped profile is 400 KB: fewer cases, each of them larger.
TEST(ProfileFuzz, MutationsOfTheShippedProfile) {
    const auto h100 = shipped_h100();
    fuzz::mutator mut(6);
    auto corpus = mut.corpus({h100}, 80);
    const auto cuts = fuzz::mutator::truncations(h100, 30);
    corpus.insert(corpus.end(), cuts.begin(), cuts.end());
    const auto swapped = structured(h100, 6, 3);
    corpus.insert(corpus.end(), swapped.begin(), swapped.end());
    check(corpus, "shipped");
}

// Values the corpus showed were read silently wrong: an int field beyond 2^31 wrapped (sm_count
// 4294967297 read as 1), a double beyond a float became alpha by an undefined conversion, a
// side beyond what --sizes accepts reached the models. Each is now a line naming the key.
TEST(ProfileFuzz, OutOfRangeValuesAreRejectedNotWrapped) {
    const auto swap = [](const char* pointer, const json& v) {
        auto j = json::parse(small_profile);
        j[json::json_pointer(pointer)] = v;
        return j.dump();
    };
    const std::vector<std::pair<std::string, std::string>> cases = {
        {swap("/gpu/sm_count", 4294967297LL), "gpu.sm_count: 4294967297 is too large"},
        {swap("/gpu/sm_limits/threads_per_sm", 2147483648LL), "threads_per_sm: 2147483648"},
        {swap("/measurements/0/time_ms/runs", 4294967296LL), "time_ms.runs: 4294967296"},
        {swap("/measurements/0/counter_passes", 1LL << 40), "counter_passes"},
        {swap("/measurements/0/alpha", 1e300), "alpha: does not fit in a 32-bit float"},
        {swap("/measurements/0/beta", -1e39), "beta: does not fit"},
        {swap("/measurements/0/m", 65537), "measurements[0].m: 65537 is too large"},
        {swap("/measurements/1/k", 1LL << 62), "measurements[1].k"},
        {swap("/gpu/sm_limits/smem_reserved_per_cta", 1e300), "must not exceed smem_per_sm"},
        {swap("/peaks/fp32\nx", json{{"theoretical", -1}}), "peaks.fp32\\nx.theoretical"},
        {"[1e999]", "not valid JSON (number overflow parsing '1e999')"},
    };
    for (const auto& [text, want] : cases) {
        try {
            (void)parse_profile(text, origin);
            ADD_FAILURE() << "accepted; wanted: " << want;
        } catch (const error& e) {
            EXPECT_EQ(e.kind(), error_kind::input);
            EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
            EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
        }
    }
}

// A 1.0 profile of a GPU the spec database does not know keeps its limits unknown; written
// back, it leaves them out again (it wrote zeros no reader accepted) and keeps the opt-in
// shared memory the file recorded.
TEST(ProfileFuzz, UnknownSmLimitsRoundTrip) {
    const auto p = parse_profile(old_profile("nosuch", "7.5"), origin);
    ASSERT_FALSE(p.gpu.limits.known());
    const auto again = dump_profile(p);
    EXPECT_EQ(again.find("sm_limits"), std::string::npos);
    const auto q = parse_profile(again, origin);
    EXPECT_FALSE(q.gpu.limits.known());
    EXPECT_EQ(q.gpu.limits.smem_per_cta_optin, 232448);
}
