#include "core/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/strings.hpp"
#include "core/throw.hpp"

namespace tgemm {

namespace fs = std::filesystem;

void write_file_atomic(const fs::path& path, std::string_view bytes) {
    const auto dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
    auto tmp = dir / fmt::format(".{}.tmp.{}", path.filename().string(), ::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) TGEMM_THROW(usage, "cannot write '{}': {}", path.string(), std::strerror(errno));
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.flush();
        if (!out) {
            std::error_code ignore;
            fs::remove(tmp, ignore);
            TGEMM_THROW(usage, "cannot write '{}': {}", path.string(), std::strerror(errno));
        }
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) {
        std::error_code ignore;
        fs::remove(tmp, ignore);
        TGEMM_THROW(usage, "cannot write '{}': {}", path.string(), ec.message());
    }
}

void ensure_writable_dir(const fs::path& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) TGEMM_THROW(usage, "cannot create output folder '{}': {}", dir.string(), ec.message());
    if (!fs::is_directory(dir))
        TGEMM_THROW(usage, "output path '{}' is not a folder", dir.string());
    if (::access(dir.c_str(), W_OK) != 0)
        TGEMM_THROW(usage, "output folder '{}' is not writable: {}", dir.string(),
                    std::strerror(errno));
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        TGEMM_THROW(input, "cannot read '{}': {}", printable(path.string(), 400),
                    std::strerror(errno));
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace tgemm
