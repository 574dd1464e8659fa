#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace tgemm::cli {

// Parses and runs; returns the process exit code. Every error becomes one line on `err`.
int run_main(int argc, char** argv);
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace tgemm::cli
