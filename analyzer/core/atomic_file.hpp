#pragma once
#include <filesystem>
#include <string_view>

namespace tgemm {

// Writes `bytes` to `path` through a temporary file in the same folder and a rename, so a
// reader never sees half a file and a failed write leaves the old file in place.
void write_file_atomic(const std::filesystem::path& path, std::string_view bytes);

// Creates `dir` (and parents) and checks that a file can be created in it. Throws
// error_kind::usage naming the folder when it cannot.
void ensure_writable_dir(const std::filesystem::path& dir);

[[nodiscard]] std::string read_file(const std::filesystem::path& path);

}  // namespace tgemm
