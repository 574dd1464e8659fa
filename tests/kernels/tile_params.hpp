#pragma once
// The tile parameters a rung states in words (rung::params), as numbers, so a model test can
// check the seed's identities against what the rung says it runs.
#include <map>
#include <regex>
#include <string>

namespace tgemm::test {

// "BM=128 BN=128 …, 128 threads" → {"BM": 128, …, "threads": 128}
inline std::map<std::string, int> tile_params(const std::string& text) {
    std::map<std::string, int> out;
    const std::regex kv(R"(([A-Z]+)=(\d+))");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), kv); it != std::sregex_iterator();
         ++it)
        out[(*it)[1]] = std::stoi((*it)[2]);
    std::smatch t;
    if (std::regex_search(text, t, std::regex(R"((\d+) threads)")))
        out["threads"] = std::stoi(t[1]);
    return out;
}

}  // namespace tgemm::test
