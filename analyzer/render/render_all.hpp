#pragma once
// One call from a profile to a report folder: roofline.png/.svg, the three charts
// (bytes-per-level, ai-vs-size, tflops; .png and .svg each), report.md (one page) and
// details.md (everything).
#include <filesystem>
#include <string>
#include <vector>

#include "profile/profile.hpp"
#include "render/markdown_report.hpp"

namespace tgemm::render {

struct report_files {
    std::filesystem::path png;  // roofline.png: the DRAM roofline across sizes
    std::filesystem::path svg;
    std::filesystem::path hier_png;  // hierarchical-roofline.png: DRAM, L2, shared at one size
    std::filesystem::path hier_svg;
    std::filesystem::path bytes_png;  // bytes-per-level.png: bytes per memory level, per rung
    std::filesystem::path bytes_svg;
    std::filesystem::path ai_png;  // ai-vs-size.png: DRAM AI against N
    std::filesystem::path ai_svg;
    std::filesystem::path tflops_png;  // tflops.png: TFLOP/s per rung against cuBLAS
    std::filesystem::path tflops_svg;
    // roofline-<size>.png / .svg: the DRAM roofline of one size each, readable where the one
    // across every size is crowded (issue 11)
    std::vector<std::filesystem::path> per_size_png, per_size_svg;
    std::filesystem::path markdown;  // report.md: the one-page summary
    std::filesystem::path details;   // details.md: the whole report
};

// Creates `out_dir` if needed and writes every file atomically, the report last. `profile_label`
// says where the profile came from ("profiles/h100.json") and is printed in the report's first
// lines. An unwritable folder is an error_kind::usage error naming it. With `compare` (another
// GPU's profile, described by `compare_label`) the report adds a section setting the two GPUs
// side by side. `ladder`: the rungs of this build, so that the report names those the profile
// has no row of (report_options::ladder).
struct comparison {
    const profile* other = nullptr;
    std::string label;
    // The measured profile the predicted TFLOP/s are calibrated on (report_options).
    const profile* calibration = nullptr;
    std::string calibration_label;
};
report_files render_report(const profile& p, const std::filesystem::path& out_dir,
                           const std::string& profile_label, const comparison& compare = {},
                           const std::vector<ladder_rung>& ladder = {});

}  // namespace tgemm::render
