#include "profile/merge.hpp"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/strings.hpp"
#include "core/throw.hpp"
#include "profile/profile_json.hpp"

namespace tgemm {

namespace {

std::string name_of(const merge_input& in) {
    return printable(in.origin, 200);
}

// The header checks: every input against the first.
void check_compatible(std::span<const merge_input> inputs) {
    const auto& a = inputs.front();
    for (const auto& b : inputs.subspan(1)) {
        if (b.data.gpu.key != a.data.gpu.key)
            TGEMM_THROW(input,
                        "cannot merge profiles of different GPU models: {} is {} ({}), {} is {} "
                        "({}); merge each model's profiles separately",
                        name_of(a), a.data.gpu.key, a.data.gpu.name, name_of(b), b.data.gpu.key,
                        b.data.gpu.name);
        if (b.data.schema_major != a.data.schema_major ||
            b.data.schema_minor != a.data.schema_minor)
            TGEMM_THROW(input,
                        "cannot merge profiles of different schemas: {} is {}.{}, {} is {}.{}; "
                        "re-measure with one tool version",
                        name_of(a), a.data.schema_major, a.data.schema_minor, name_of(b),
                        b.data.schema_major, b.data.schema_minor);
        if (b.data.env.tool_version != a.data.env.tool_version)
            TGEMM_THROW(input,
                        "cannot merge profiles of different tool versions: {} was written by "
                        "tgemm-roofline {}, {} by {}; re-measure with one tool version",
                        name_of(a), printable(a.data.env.tool_version, 40), name_of(b),
                        printable(b.data.env.tool_version, 40));
        if (b.data.source != a.data.source)
            TGEMM_THROW(input, "cannot merge a {} profile ({}) with a {} one ({})",
                        to_string(a.data.source), name_of(a), to_string(b.data.source), name_of(b));
    }
}

// How many pairs the input's run had: recorded since 1.3; before, a profile is one whole run.
std::int64_t work_list_size(const profile& p) {
    return p.env.work_list ? p.env.work_list->size
                           : static_cast<std::int64_t>(p.measurements.size());
}

shard part_of(const profile& p) {
    return p.env.work_list ? p.env.work_list->part : shard{};
}

// A row as compared for duplicates: everything but where it was measured.
nlohmann::json row_content(const measurement& m) {
    profile one;
    one.measurements.push_back(m);
    one.measurements.back().provenance.reset();
    nlohmann::json j;
    to_json(j, one);
    return j.at("measurements").at(0);
}

nlohmann::json peaks_content(const profile& p) {
    profile only;
    only.peaks = p.peaks;
    nlohmann::json j;
    to_json(j, only);
    return j.at("peaks");
}

std::string pair_name(const measurement& m) {
    return fmt::format("{} at {}", printable(m.kernel, 60), to_string(m.size));
}

struct candidate {
    std::size_t input = 0;
    measurement row;
};

row_provenance provenance_from(const profile& p, shard part, std::int64_t position) {
    row_provenance r;
    r.host = p.env.host;
    r.gpu_index = p.env.gpu_index;
    r.gpu_uuid = p.env.gpu_uuid;
    r.driver = p.env.driver;
    r.date = p.env.date;
    if (!part.whole()) r.shard = to_string(part);
    r.work_index = position;
    return r;
}

}  // namespace

merge_result merge_profiles(std::span<const merge_input> inputs, bool prefer_latest) {
    if (inputs.empty()) TGEMM_THROW(usage, "merge needs at least one profile");
    check_compatible(inputs);
    const auto& first = inputs.front();
    const auto size = work_list_size(first.data);
    for (const auto& in : inputs.subspan(1))
        if (work_list_size(in.data) != size)
            TGEMM_THROW(input,
                        "{} and {} come from different work lists ({} and {} pairs): they were "
                        "run with different --kernels or --sizes",
                        name_of(first), name_of(in), size, work_list_size(in.data));

    merge_result out;
    std::map<std::int64_t, candidate> at;  // position in the work list -> the row kept there
    // Identical rows held by two inputs, counted per pair of inputs so that a file given twice
    // is one note, not one per row.
    std::map<std::pair<std::size_t, std::size_t>, std::pair<int, std::string>> identical;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const auto& in = inputs[i];
        const auto part = part_of(in.data);
        const auto& rows = in.data.measurements;
        // Without provenance a row's position follows from its index: one row per pair of the
        // shard, in order, is what a run writes.
        const bool positioned = !rows.empty() && rows.front().provenance.has_value();
        if (!positioned && rows.size() != part.size_of(static_cast<std::size_t>(size)))
            TGEMM_THROW(input,
                        "{} holds {} rows, but {} of a {}-pair work list holds {}: it is "
                        "incomplete or edited",
                        name_of(in), rows.size(),
                        part.whole() ? std::string("a whole run") : "shard " + to_string(part),
                        size, part.size_of(static_cast<std::size_t>(size)));
        for (std::size_t j = 0; j < rows.size(); ++j) {
            if (rows[j].provenance.has_value() != positioned)
                TGEMM_THROW(input, "{}: some rows have a provenance and some do not", name_of(in));
            const auto position = positioned ? rows[j].provenance->work_index
                                             : static_cast<std::int64_t>(part.position(j));
            if (position >= size)
                TGEMM_THROW(input, "{}: {} is at work-list position {}, beyond its {} pairs",
                            name_of(in), pair_name(rows[j]), position, size);
            candidate c{i, rows[j]};
            if (!c.row.provenance) c.row.provenance = provenance_from(in.data, part, position);
            const auto it = at.find(position);
            if (it == at.end()) {
                at.emplace(position, std::move(c));
                continue;
            }
            const auto& kept = it->second;
            const auto& other = inputs[kept.input];
            if (kept.row.kernel != c.row.kernel || kept.row.size != c.row.size)
                TGEMM_THROW(input,
                            "{} and {} hold different pairs at work-list position {} ({} and "
                            "{}): they were run with different --kernels or --sizes",
                            name_of(other), name_of(in), position, pair_name(kept.row),
                            pair_name(c.row));
            if (row_content(kept.row) == row_content(c.row)) {
                auto& [count, example] = identical[{kept.input, i}];
                if (count++ == 0) example = pair_name(c.row);
                continue;
            }
            if (!prefer_latest)
                TGEMM_THROW(input,
                            "{} and {} hold different results for {}: pass --prefer-latest to "
                            "keep the one measured later",
                            name_of(other), name_of(in), pair_name(c.row));
            // ISO 8601 UTC dates compare as text; on a tie the later file on the command line.
            const bool later = c.row.provenance->date >= kept.row.provenance->date;
            out.notes.push_back(fmt::format(
                "{} and {} hold different results for {}: kept {}'s, measured later ({})",
                name_of(other), name_of(in), pair_name(c.row), later ? name_of(in) : name_of(other),
                later ? c.row.provenance->date : kept.row.provenance->date));
            if (later) it->second = std::move(c);
        }
    }
    for (const auto& [files, what] : identical)
        out.notes.push_back(fmt::format(
            "{} and {} both hold {} identical row(s) (e.g. {}): kept once",
            name_of(inputs[files.first]), name_of(inputs[files.second]), what.first, what.second));

    // The header is the first input's; the rows say where each was measured.
    auto& m = out.merged;
    m.schema_major = first.data.schema_major;
    m.schema_minor = first.data.schema_minor;
    m.source = first.data.source;
    m.gpu = first.data.gpu;
    m.env = first.data.env;
    m.env.work_list = work_list_record{size, {}};
    m.peaks = first.data.peaks;
    const auto peaks = peaks_content(first.data);
    for (const auto& in : inputs.subspan(1))
        if (peaks_content(in.data) != peaks)
            out.notes.push_back(fmt::format(
                "{} measured other peaks than {} (each run measures its own): kept those of {}",
                name_of(in), name_of(first), name_of(first)));
    for (auto& [position, c] : at) m.measurements.push_back(std::move(c.row));
    if (static_cast<std::int64_t>(m.measurements.size()) < size)
        out.notes.push_back(
            fmt::format("the merge holds {} of the work list's {} pairs: a shard is missing",
                        m.measurements.size(), size));
    return out;
}

}  // namespace tgemm
