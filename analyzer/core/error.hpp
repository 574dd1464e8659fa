#pragma once
// One exception type for the whole tool. Library code throws; only cli/ turns an error into a
// message and an exit code.
#include <source_location>
#include <stdexcept>
#include <string>

namespace tgemm {

// What kind of failure it is decides the exit code in cli/.
enum class error_kind {
    usage,     // bad command-line input: a size of 0, an unknown kernel name, ...
    input,     // a file the user handed us is unreadable, corrupt or of the wrong version
    device,    // no GPU, no driver, no counter permission, another profiler attached
    verify,    // a kernel's result differs from cuBLAS
    internal,  // a CUDA/CUPTI call failed unexpectedly, an invariant broke
    // The user stopped a measuring run (Ctrl-C, SIGTERM); the pairs measured so far are kept
    // (collect/pair_loop.hpp). Exit code 130, as a shell reports a command ended by SIGINT.
    interrupted,
};

class error : public std::runtime_error {
  public:
    error(error_kind kind, const std::string& what,
          std::source_location where = std::source_location::current())
        : std::runtime_error(what), m_kind(kind), m_where(where) {}

    [[nodiscard]] error_kind kind() const noexcept { return m_kind; }
    [[nodiscard]] const std::source_location& where() const noexcept { return m_where; }

  private:
    error_kind m_kind;
    std::source_location m_where;
};

}  // namespace tgemm
