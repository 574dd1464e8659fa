#include "cli/app.hpp"

#include <iostream>

namespace tgemm::cli {

int run(const std::vector<std::string>&, std::ostream&, std::ostream&) { return 0; }

int run_main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    return run(args, std::cout, std::cerr);
}

}  // namespace tgemm::cli
