#include "profile/profile_json.hpp"

#include <cmath>
#include <limits>

#include "core/strings.hpp"
#include "core/throw.hpp"
#include "gpu/spec.hpp"
#include "profile/provenance_json.hpp"
#include "profile/repeats_json.hpp"

namespace tgemm {

using nlohmann::json;

namespace {

template <class Map>
json numbers_to_json(const Map& m) {
    json j = json::object();
    for (const auto& [k, v] : m) j[k] = v;
    return j;
}

json to_json_model(const rung_model& m) {
    json tb = {{"flops", m.textbook.flops},
               {"global_bytes", m.textbook.global_bytes},
               {"formula", m.textbook.formula}};
    if (m.textbook.loads_per_output) tb["loads_per_output"] = *m.textbook.loads_per_output;
    if (m.textbook.smem_accesses) tb["smem_accesses"] = *m.textbook.smem_accesses;
    json rf = json::object();
    for (const auto& f : refined_fields)
        if (const auto& v = m.refined.*(f.member)) rf[std::string(f.key)] = *v;
    rf["notes"] = m.refined.notes;
    return {{"textbook", tb}, {"refined", rf}};
}

}  // namespace

json measurement_to_json(const measurement& m) {
    json j = {{"kernel", m.kernel}, {"dtype", m.dtype}, {"m", m.size.m},  {"n", m.size.n},
              {"k", m.size.k},      {"alpha", m.alpha}, {"beta", m.beta}, {"verified", m.verified}};
    if (m.verify_max_error) j["verify_max_error"] = *m.verify_max_error;
    if (m.time)
        j["time_ms"] = {{"median", m.time->median_ms},
                        {"min", m.time->min_ms},
                        {"max", m.time->max_ms},
                        {"runs", m.time->runs},
                        {"l2_flushed", m.time->l2_flushed}};
    if (m.time) timing_noise_to_json(j["time_ms"], *m.time);
    j["counters"] = numbers_to_json(m.counters);
    if (m.counter_passes) j["counter_passes"] = *m.counter_passes;
    j["model"] = to_json_model(m.model);
    if (m.skipped) j["skipped"] = *m.skipped;
    if (m.provenance) j["provenance"] = to_json(*m.provenance);
    if (m.repeats) j["repeats"] = to_json(*m.repeats);
    return j;
}

namespace {

// ---- reading: every access names where it was ------------------------------------------

[[noreturn]] void bad(const std::string& where, const std::string& what) {
    throw error(error_kind::input, fmt::format("{}: {}", where, what));
}

const json& need(const json& j, const char* key, const std::string& where) {
    if (!j.is_object()) bad(where, "expected an object");
    const auto it = j.find(key);
    if (it == j.end()) bad(where, fmt::format("missing key '{}'", key));
    return *it;
}

double need_number(const json& j, const char* key, const std::string& where) {
    const auto& v = need(j, key, where);
    if (!v.is_number()) bad(where + "." + key, "expected a number");
    const double d = v.get<double>();
    if (!std::isfinite(d)) bad(where + "." + key, "is not finite");
    return d;
}

std::int64_t need_positive_int(const json& j, const char* key, const std::string& where) {
    const auto& v = need(j, key, where);
    if (!v.is_number_integer() || v.get<std::int64_t>() <= 0)
        bad(where + "." + key, "expected a positive integer");
    return v.get<std::int64_t>();
}

// A count held in an int (SMs, lanes, runs, ...): a larger value would wrap.
int need_positive_int32(const json& j, const char* key, const std::string& where) {
    const auto v = need_positive_int(j, key, where);
    if (v > std::numeric_limits<int>::max())
        bad(where + "." + key,
            fmt::format("{} is too large (the limit is {})", v, std::numeric_limits<int>::max()));
    return static_cast<int>(v);
}

// alpha and beta are floats: a larger double does not convert.
float need_float(const json& j, const char* key, const std::string& where) {
    const double d = need_number(j, key, where);
    if (std::abs(d) > std::numeric_limits<float>::max())
        bad(where + "." + key, "does not fit in a 32-bit float");
    return static_cast<float>(d);
}

// A matrix side: positive, and no larger than the command line accepts, so that no product of
// sides overflows downstream.
std::int64_t need_side(const json& j, const char* key, const std::string& where) {
    const auto v = need_positive_int(j, key, where);
    if (v > max_shape_side)
        bad(where + "." + key,
            fmt::format("{} is too large (the limit is {} per dimension)", v, max_shape_side));
    return v;
}

// A key of the file as it goes into a path in a message.
std::string key_text(std::string_view k) {
    return printable(k, 60);
}

std::string need_string(const json& j, const char* key, const std::string& where) {
    const auto& v = need(j, key, where);
    if (!v.is_string()) bad(where + "." + key, "expected a string");
    return v.get<std::string>();
}

std::string opt_string(const json& j, const char* key) {
    const auto it = j.find(key);
    return (it != j.end() && it->is_string()) ? it->get<std::string>() : std::string{};
}

// A counter map: numbers only; null means "not collected" and is dropped.
std::map<std::string, double, std::less<>> read_numbers(const json& j, const std::string& where,
                                                        bool allow_other_types) {
    std::map<std::string, double, std::less<>> out;
    if (!j.is_object()) bad(where, "expected an object");
    for (const auto& [k, v] : j.items()) {
        if (v.is_null()) continue;
        if (!v.is_number()) {
            if (allow_other_types) continue;
            bad(where + "." + key_text(k), "expected a number or null");
        }
        const double d = v.get<double>();
        if (!std::isfinite(d) || d < 0)
            bad(where + "." + key_text(k), "must be a finite, non-negative number");
        out[k] = d;
    }
    return out;
}

rung_model read_model(const json& j, const std::string& where) {
    rung_model m;
    const auto& tb = need(j, "textbook", where);
    m.textbook.flops = need_number(tb, "flops", where + ".textbook");
    m.textbook.global_bytes = need_number(tb, "global_bytes", where + ".textbook");
    m.textbook.formula = opt_string(tb, "formula");
    if (tb.contains("loads_per_output"))
        m.textbook.loads_per_output = need_number(tb, "loads_per_output", where + ".textbook");
    if (tb.contains("smem_accesses"))
        m.textbook.smem_accesses = need_number(tb, "smem_accesses", where + ".textbook");
    const auto& rf = need(j, "refined", where);
    // A key that no field holds (written by a newer tool) is skipped, as unknown fields are.
    for (const auto& [k, v] : read_numbers(rf, where + ".refined", true))
        if (refined_model::holds(k)) m.refined.set(k, v);
    if (const auto it = rf.find("notes"); it != rf.end() && it->is_array())
        for (const auto& n : *it)
            if (n.is_string()) m.refined.notes.push_back(n.get<std::string>());
    return m;
}

}  // namespace

measurement measurement_from_json(const json& j, const std::string& where) {
    measurement m;
    m.kernel = need_string(j, "kernel", where);
    m.dtype = need_string(j, "dtype", where);
    m.size = {need_side(j, "m", where), need_side(j, "n", where), need_side(j, "k", where)};
    m.alpha = need_float(j, "alpha", where);
    m.beta = need_float(j, "beta", where);
    const auto& verified = need(j, "verified", where);
    if (!verified.is_boolean()) bad(where + ".verified", "expected true or false");
    m.verified = verified.get<bool>();
    if (j.contains("verify_max_error"))
        m.verify_max_error = need_number(j, "verify_max_error", where);
    if (const auto it = j.find("time_ms"); it != j.end() && !it->is_null()) {
        const auto w = where + ".time_ms";
        timing t;
        t.median_ms = need_number(*it, "median", w);
        t.min_ms = need_number(*it, "min", w);
        t.max_ms = need_number(*it, "max", w);
        t.runs = need_positive_int32(*it, "runs", w);
        if (const auto f = it->find("l2_flushed"); f != it->end() && f->is_boolean())
            t.l2_flushed = f->get<bool>();
        if (!(t.min_ms > 0 && t.min_ms <= t.median_ms && t.median_ms <= t.max_ms))
            bad(w, "expected 0 < min <= median <= max");
        read_timing_noise(*it, t, w);
        m.time = t;
    }
    m.counters = read_numbers(need(j, "counters", where), where + ".counters", false);
    if (j.contains("counter_passes"))
        m.counter_passes = need_positive_int32(j, "counter_passes", where);
    m.model = read_model(need(j, "model", where), where + ".model");
    if (j.contains("skipped")) m.skipped = need_string(j, "skipped", where);
    if (const auto it = j.find("provenance"); it != j.end() && !it->is_null())
        m.provenance = read_row_provenance(*it, where + ".provenance");
    if (const auto it = j.find("repeats"); it != j.end() && !it->is_null())
        m.repeats = read_repeat_summary(*it, where + ".repeats");
    if (m.verified == false && !m.skipped && (m.time || !m.counters.empty()))
        bad(where, "has timings or counters but is not verified");
    return m;
}

namespace {

json to_json_limits(const gpu_info& g) {
    const auto& l = g.limits;
    return {{"threads_per_sm", l.threads_per_sm},
            {"ctas_per_sm", l.ctas_per_sm},
            {"registers_per_sm", l.registers_per_sm},
            {"registers_per_thread", l.registers_per_thread},
            {"register_unit", l.register_unit},
            {"register_partitions", l.register_partitions},
            {"smem_per_sm", l.smem_per_sm},
            {"smem_reserved_per_cta", l.smem_reserved_per_cta},
            {"smem_unit", l.smem_unit},
            {"source", g.limits_source}};
}

// The SM limits: from the profile (1.2), else (1.0, 1.1) from the spec database, by the GPU's
// key or else its compute capability; left unknown when neither has them. The opt-in shared
// memory per CTA is the profile's own in every version.
void read_sm_limits(const json& g, gpu_info& gpu) {
    const auto optin = need_positive_int(g, "smem_per_block_optin", "gpu");
    if (const auto it = g.find("sm_limits"); it != g.end()) {
        const std::string w = "gpu.sm_limits";
        const auto positive = [&](const char* key) { return need_positive_int32(*it, key, w); };
        auto& l = gpu.limits;
        l.threads_per_sm = positive("threads_per_sm");
        l.ctas_per_sm = positive("ctas_per_sm");
        l.registers_per_sm = positive("registers_per_sm");
        l.registers_per_thread = positive("registers_per_thread");
        l.register_unit = positive("register_unit");
        l.register_partitions = positive("register_partitions");
        l.smem_per_sm = need_positive_int(*it, "smem_per_sm", w);
        const double reserved = need_number(*it, "smem_reserved_per_cta", w);
        if (reserved < 0) bad(w + ".smem_reserved_per_cta", "must not be negative");
        if (reserved > static_cast<double>(l.smem_per_sm))
            bad(w + ".smem_reserved_per_cta", "must not exceed smem_per_sm");
        l.smem_reserved_per_cta = static_cast<std::int64_t>(reserved);
        l.smem_unit = positive("smem_unit");
        l.smem_per_cta_optin = optin;
        gpu.limits_source = opt_string(*it, "source");
        return;
    }
    for (const auto& spec : gpu_specs())
        if (spec.key == gpu.key) {
            gpu.limits = spec.limits;
            gpu.limits_source = "not in the profile: the spec database's, " + spec.limits_source;
        }
    if (!gpu.limits.known()) {
        const auto cc = split(gpu.cc, '.');
        try {
            if (const auto l = sm_limits_for(std::stoi(std::string(cc.at(0))),
                                             std::stoi(std::string(cc.at(1))))) {
                gpu.limits = *l;
                gpu.limits_source = "not in the profile: " + std::string(sm_limits_source) +
                                    "; compute capability " + gpu.cc;
            }
        } catch (const std::exception&) {
            // An unreadable cc leaves the limits unknown, as an unknown one does.
        }
    }
    // Kept when the rest is unknown too: the file records it, and a rewrite writes it back.
    gpu.limits.smem_per_cta_optin = optin;
}

}  // namespace

void to_json(json& j, const profile& p) {
    j = json::object();
    // The layout written is this tool's, whatever version the profile was read from.
    j["schema"] =
        fmt::format("{}{}.{}", profile_schema_prefix, profile_schema_major, profile_schema_minor);
    j["source"] = to_string(p.source);
    const auto& g = p.gpu;
    j["gpu"] = {{"key", g.key},
                {"name", g.name},
                {"cc", g.cc},
                {"sm_count", g.sm_count},
                {"fp32_lanes_per_sm", g.fp32_lanes_per_sm},
                {"sm_clock_mhz", g.sm_clock_mhz},
                {"mem_clock_mhz", g.mem_clock_mhz},
                {"bus_width_bits", g.bus_width_bits},
                {"l2_bytes", g.l2_bytes},
                // Kept beside sm_limits: schema 1.1 readers require it.
                {"smem_per_block_optin", g.limits.smem_per_cta_optin}};
    // Unknown limits (a 1.0 or 1.1 profile of a GPU the spec database does not know) are left
    // out, as that profile had them, rather than written as zeros no reader accepts.
    if (g.limits.known()) j["gpu"]["sm_limits"] = to_json_limits(g);
    const auto& e = p.env;
    j["env"] = {{"tool_version", e.tool_version}, {"driver", e.driver}, {"cuda", e.cuda},
                {"command", e.command},           {"date", e.date},     {"host", e.host}};
    env_fleet_to_json(j["env"], e);
    json peaks = json::object();
    for (const auto& [k, r] : p.peaks) {
        json pj = {{"theoretical", r.theoretical}, {"unit", r.unit}, {"method", r.method}};
        pj["measured"] = r.measured ? json(*r.measured) : json(nullptr);
        if (!r.measured_by.empty()) pj["measured_by"] = r.measured_by;
        if (r.clock_mhz) pj["clock_mhz"] = *r.clock_mhz;
        if (r.theoretical_at_clock) pj["theoretical_at_clock"] = *r.theoretical_at_clock;
        if (!r.note.empty()) pj["note"] = r.note;
        peaks[k] = pj;
    }
    j["peaks"] = peaks;
    json ms = json::array();
    for (const auto& m : p.measurements) ms.push_back(measurement_to_json(m));
    j["measurements"] = ms;
}

profile profile_from_json(const json& j) {
    profile p;
    if (!j.is_object()) bad("profile", "the top level is not a JSON object");
    const auto schema = need_string(j, "schema", "profile");
    if (!schema.starts_with(profile_schema_prefix))
        bad("schema", fmt::format("'{}' is not a tgemm-roofline profile", printable(schema)));
    const auto version = schema.substr(profile_schema_prefix.size());
    const auto parts = split(version, '.');
    try {
        p.schema_major = std::stoi(std::string(parts.at(0)));
        p.schema_minor = parts.size() > 1 ? std::stoi(std::string(parts[1])) : 0;
    } catch (const std::exception&) {
        bad("schema", fmt::format("cannot read the version in '{}'", printable(schema)));
    }
    if (p.schema_major != profile_schema_major)
        bad("schema", fmt::format("version {}.{} is not supported: this tool reads {}.x; "
                                  "re-measure, or render it with the tool version that wrote it",
                                  p.schema_major, p.schema_minor, profile_schema_major));
    const auto src = need_string(j, "source", "profile");
    if (src == "measured")
        p.source = profile_source::measured;
    else if (src == "predicted")
        p.source = profile_source::predicted;
    else
        bad("source", fmt::format("'{}' is neither 'measured' nor 'predicted'", printable(src)));

    const auto& g = need(j, "gpu", "profile");
    p.gpu.key = need_string(g, "key", "gpu");
    p.gpu.name = need_string(g, "name", "gpu");
    p.gpu.cc = need_string(g, "cc", "gpu");
    p.gpu.sm_count = need_positive_int32(g, "sm_count", "gpu");
    p.gpu.fp32_lanes_per_sm = need_positive_int32(g, "fp32_lanes_per_sm", "gpu");
    p.gpu.sm_clock_mhz = need_number(g, "sm_clock_mhz", "gpu");
    p.gpu.mem_clock_mhz = need_number(g, "mem_clock_mhz", "gpu");
    p.gpu.bus_width_bits = need_positive_int32(g, "bus_width_bits", "gpu");
    p.gpu.l2_bytes = need_positive_int(g, "l2_bytes", "gpu");
    read_sm_limits(g, p.gpu);

    const auto& e = need(j, "env", "profile");
    p.env.tool_version = opt_string(e, "tool_version");
    p.env.driver = opt_string(e, "driver");
    p.env.cuda = opt_string(e, "cuda");
    p.env.command = opt_string(e, "command");
    p.env.date = need_string(e, "date", "env");
    p.env.host = opt_string(e, "host");
    read_env_fleet(e, p.env);

    const auto& peaks = need(j, "peaks", "profile");
    if (!peaks.is_object()) bad("peaks", "expected an object");
    for (const auto& [k, v] : peaks.items()) {
        const auto w = "peaks." + key_text(k);
        roof r;
        r.theoretical = need_number(v, "theoretical", w);
        if (r.theoretical <= 0) bad(w + ".theoretical", "must be positive");
        if (const auto it = v.find("measured"); it != v.end() && !it->is_null())
            r.measured = need_number(v, "measured", w);
        r.unit = opt_string(v, "unit");
        r.method = opt_string(v, "method");
        r.measured_by = opt_string(v, "measured_by");
        r.note = opt_string(v, "note");
        for (auto [name, field] : {std::pair{"clock_mhz", &r.clock_mhz},
                                   std::pair{"theoretical_at_clock", &r.theoretical_at_clock}}) {
            if (const auto it = v.find(name); it != v.end() && !it->is_null()) {
                *field = need_number(v, name, w);
                if (**field <= 0) bad(w + "." + name, "must be positive");
            }
        }
        if (r.measured && *r.measured <= 0) bad(w + ".measured", "must be positive");
        p.peaks[k] = r;
    }
    for (const auto key : {roofs::fp32, roofs::dram})
        if (!p.peaks.contains(key)) bad("peaks", fmt::format("missing the '{}' roof", key));

    const auto& ms = need(j, "measurements", "profile");
    if (!ms.is_array()) bad("measurements", "expected an array");
    for (std::size_t i = 0; i < ms.size(); ++i)
        p.measurements.push_back(measurement_from_json(ms[i], fmt::format("measurements[{}]", i)));
    return p;
}

}  // namespace tgemm
