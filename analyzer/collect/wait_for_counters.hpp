#pragma once
// --wait-for-counters: open the counter session, and while another process holds the GPU's
// counters (counters_busy) try again every second until the time given has passed. The clock
// and the sleep are parameters so that a test can run the policy without a GPU or a wait.
#include <cmath>
#include <functional>
#include <string>

#include "collect/counter_session.hpp"

namespace tgemm {

struct wait_clock {
    std::function<double()> now_s;        // seconds since any fixed point
    std::function<void(double)> sleep_s;  // sleep this many seconds
};

// Steady time and std::this_thread::sleep_for.
[[nodiscard]] wait_clock system_wait_clock();

// `open()` once, or, while it throws counters_busy, again every `every_s` until `limit_s` have
// passed; then the last counters_busy is rethrown with how long it waited. `say` gets one line
// when the waiting starts. limit_s = 0: no retry.
template <class Open>
auto open_when_counters_free(Open&& open, double limit_s, const wait_clock& clock,
                             const std::function<void(const std::string&)>& say,
                             double every_s = 1.0) -> decltype(open()) {
    const double start = clock.now_s();
    bool said = false;
    for (;;) {
        try {
            return open();
        } catch (const counters_busy& busy) {
            const double waited = clock.now_s() - start;
            if (waited + every_s > limit_s) {
                if (limit_s <= 0) throw;
                throw counters_busy(
                    error_kind::device,
                    "the GPU's performance counters stayed busy for " +
                        std::to_string(static_cast<long long>(std::lround(waited))) +
                        " s (--wait-for-counters " +
                        std::to_string(static_cast<long long>(std::lround(limit_s))) +
                        "): another process is profiling this GPU; try later, or use "
                        "--no-counters to time without counters");
            }
            if (!said && say) {
                say("the GPU's performance counters are busy (another process is profiling "
                    "this GPU); waiting up to " +
                    std::to_string(static_cast<long long>(std::lround(limit_s))) + " s");
                said = true;
            }
            clock.sleep_s(every_s);
        }
    }
}

}  // namespace tgemm
