#pragma once
// Runs the command line in-process and keeps what it printed, for the CLI tests.
#include <sstream>
#include <string>
#include <vector>

#include "cli/app.hpp"

namespace tgemm::test {

struct cli_result {
    int code;
    std::string out;
    std::string err;
};

inline cli_result run_cli(std::vector<std::string> args) {
    std::ostringstream out, err;
    const int code = tgemm::cli::run(args, out, err);
    return {code, out.str(), err.str()};
}

inline int count_lines(const std::string& s) {
    int n = 0;
    for (char c : s) n += c == '\n';
    return n;
}

}  // namespace tgemm::test
