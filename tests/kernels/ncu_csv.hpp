#pragma once
// Reads the Nsight Compute calibration files of docs/tensor/: blocks headed "=== label", each
// followed by `ncu --csv --print-units base` rows (every field quoted, numbers with thousands
// separators) of one kernel launch.
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tgemm::test {

struct ncu_block {
    std::string label;   // the text after "=== "
    std::string kernel;  // "Kernel Name"
    std::map<std::string, double> metrics;
};

// Fields of one row whose every field is quoted: "a","b,c","d".
inline std::vector<std::string> quoted_fields(const std::string& line) {
    std::vector<std::string> fields;
    std::size_t pos = 0;
    while ((pos = line.find('"', pos)) != std::string::npos) {
        const std::size_t end = line.find('"', pos + 1);
        if (end == std::string::npos) break;
        fields.push_back(line.substr(pos + 1, end - pos - 1));
        pos = end + 1;
    }
    return fields;
}

// The value with its thousands separators removed; nullopt when it is not a number.
inline std::optional<double> ncu_number(std::string text) {
    std::erase(text, ',');
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) return std::nullopt;
    return v;
}

// Empty when the file cannot be read.
inline std::vector<ncu_block> read_ncu_blocks(const std::string& path) {
    std::vector<ncu_block> blocks;
    std::ifstream in(path);
    std::string line;
    // Columns of `ncu --csv`: ID, Process ID, Process Name, Host Name, Kernel Name, Context,
    // Stream, Block Size, Grid Size, Device, CC, Section Name, Metric Name, Metric Unit, Value.
    constexpr std::size_t kernel_column = 4, name_column = 12, value_column = 14;
    while (std::getline(in, line)) {
        if (line.rfind("=== ", 0) == 0) {
            blocks.push_back({line.substr(4), {}, {}});
            continue;
        }
        const auto f = quoted_fields(line);
        if (blocks.empty() || f.size() <= value_column || f[0] == "ID") continue;
        blocks.back().kernel = f[kernel_column];
        if (const auto v = ncu_number(f[value_column])) blocks.back().metrics[f[name_column]] = *v;
    }
    return blocks;
}

}  // namespace tgemm::test
