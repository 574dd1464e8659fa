#include "cli/progress_bar.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <iostream>

namespace tgemm::cli {

progress_bar::progress_bar(std::ostream& err)
    : m_err(err), m_tty(&err == &std::cerr && ::isatty(STDERR_FILENO)) {}

progress_bar::~progress_bar() {
    if (m_dirty) m_err << "\n";
}

void progress_bar::update(const progress_event& e) {
    constexpr int width = 30;
    const int filled = e.total ? width * e.done / e.total : 0;
    const auto line = fmt::format("[{}{}] {:>3}/{} {}", std::string(filled, '#'),
                                  std::string(width - filled, '.'), e.done, e.total, e.what);
    if (m_tty) {
        m_err << "\r\033[K" << line << std::flush;
        m_dirty = true;
    } else {
        m_err << line << "\n";
    }
}

}  // namespace tgemm::cli
