#include "collect/stop_request.hpp"

#include <atomic>
#include <csignal>

namespace tgemm {

namespace {

// Lock-free, so the handler may store to it (an async-signal-safe operation only then).
std::atomic<int> g_stop_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void on_stop_signal(int sig) {
    g_stop_signal.store(sig, std::memory_order_relaxed);
}

}  // namespace

int stop_signal() noexcept {
    return g_stop_signal.load(std::memory_order_relaxed);
}

void request_stop(int signal) noexcept {
    g_stop_signal.store(signal, std::memory_order_relaxed);
}

void clear_stop_request() noexcept {
    g_stop_signal.store(0, std::memory_order_relaxed);
}

struct stop_on_signals::saved {
    struct sigaction int_action {};
    struct sigaction term_action {};
};

stop_on_signals::stop_on_signals() : m_saved(std::make_unique<saved>()) {
    clear_stop_request();
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;  // the second signal takes its default action: the process ends
    sigaction(SIGINT, &sa, &m_saved->int_action);
    sigaction(SIGTERM, &sa, &m_saved->term_action);
}

stop_on_signals::~stop_on_signals() {
    sigaction(SIGINT, &m_saved->int_action, nullptr);
    sigaction(SIGTERM, &m_saved->term_action, nullptr);
}

}  // namespace tgemm
