#pragma once
// Ctrl-C (SIGINT) and SIGTERM during a measuring run: the run finishes the batch in flight, keeps
// what it measured and exits 130 (collect/pair_loop.hpp). The handler only records the signal;
// everything else happens in the loop, between batches, where it is safe. The recorded signal is
// the one global of the tool besides the rung registry.
#include <memory>

namespace tgemm {

// The signal that asked the run to stop (SIGINT, SIGTERM), or 0 while none has.
[[nodiscard]] int stop_signal() noexcept;
[[nodiscard]] inline bool stop_requested() noexcept {
    return stop_signal() != 0;
}
// What the handler does; tests and a fake measurer call it to stop a run at a chosen pair.
void request_stop(int signal) noexcept;
void clear_stop_request() noexcept;

// While one lives, SIGINT and SIGTERM request a stop instead of ending the process. Each
// handler is installed with SA_RESETHAND: a second Ctrl-C ends the process at once (the
// checkpoint written after the last finished pair is whole, so it still loses only the pair in
// flight). The previous handlers come back when it is destroyed.
class stop_on_signals {
  public:
    stop_on_signals();
    ~stop_on_signals();
    stop_on_signals(const stop_on_signals&) = delete;
    stop_on_signals& operator=(const stop_on_signals&) = delete;

  private:
    struct saved;
    std::unique_ptr<saved> m_saved;
};

}  // namespace tgemm
