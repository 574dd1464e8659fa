#include "cli/app.hpp"

int main(int argc, char** argv) {
    return tgemm::cli::run_main(argc, argv);
}
