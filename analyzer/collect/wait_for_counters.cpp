#include "collect/wait_for_counters.hpp"

#include <chrono>
#include <thread>

namespace tgemm {

wait_clock system_wait_clock() {
    return {[] {
                return std::chrono::duration<double>(
                           std::chrono::steady_clock::now().time_since_epoch())
                    .count();
            },
            [](double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }};
}

}  // namespace tgemm
