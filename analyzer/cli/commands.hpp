#pragma once
#include <iosfwd>

#include "cli/options.hpp"

namespace tgemm::cli {

// Each returns an exit code and reports through `out` / `err`; errors are thrown.
int run_main_job(const main_options& o, const std::string& command_line, std::ostream& out,
                 std::ostream& err);
int run_report(const report_options& o, std::ostream& out, std::ostream& err);
int run_list(const list_options& o, std::ostream& out);
int run_kernel_once(const run_kernel_options& o, std::ostream& out);
int run_peaks(const peaks_options& o, std::ostream& out, std::ostream& err);
int run_merge(const merge_options& o, std::ostream& out, std::ostream& err);
int run_fleet(const fleet_options& o, const std::string& command_line, std::ostream& out);

}  // namespace tgemm::cli
