#pragma once
// --device N|all: the run spread over this node's GPUs, one child process per GPU (the
// counters are per device, and a process owns its CUPTI session). Child i of k sees only its GPU
// (CUDA_VISIBLE_DEVICES), measures shard i/k of the work list into a partial profile beside
// --profile and logs to <stem>.device-<N>.log; the parent shows one progress line for all of
// them, merges the shards that were written and renders the report. A child that fails is
// named with its log, and the others' rows are kept. With --each-gpu every child measures the
// whole list into <stem>.device-<N>.json instead, each is rendered on its own, and the fleet
// report compares them (a node's health check: is any GPU slower than its siblings?).
#include <iosfwd>
#include <string>

#include "cli/options.hpp"

namespace tgemm::cli {

int run_on_devices(const main_options& o, const std::string& command_line, std::ostream& out,
                   std::ostream& err);

}  // namespace tgemm::cli
