#pragma once
#include <iosfwd>

#include "collect/measure.hpp"

namespace tgemm::cli {

// Progress of a measure run on stderr: one redrawn line on a terminal, plain lines otherwise
// (so logs stay readable).
class progress_bar {
  public:
    explicit progress_bar(std::ostream& err);
    ~progress_bar();
    void update(const progress_event& e);

  private:
    std::ostream& m_err;
    bool m_tty;
    bool m_dirty = false;
};

}  // namespace tgemm::cli
