#include "render/render_all.hpp"
#include "render/roofline_layout.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "synthetic_profile.hpp"

namespace tgemm::render {
namespace {

namespace fs = std::filesystem;

// Left in place after the run so the pictures can be looked at; cleared at the start.
fs::path fresh_dir(std::string_view name) {
    const auto dir = fs::path(::testing::TempDir()) / name;
    fs::remove_all(dir);
    return dir;
}

TEST(render_report, writes_png_svg_and_markdown) {
    const auto dir = fresh_dir("tgemm_render_measured");
    const auto files = render_report(test::synthetic_profile(), dir / "h100", "profiles/h100.json");
    EXPECT_EQ(files.png, dir / "h100" / "roofline.png");
    EXPECT_EQ(files.svg, dir / "h100" / "roofline.svg");
    EXPECT_EQ(files.markdown, dir / "h100" / "report.md");
    EXPECT_EQ(files.details, dir / "h100" / "details.md");
    for (const auto& f : {files.png, files.svg, files.hier_png, files.hier_svg, files.bytes_png,
                          files.bytes_svg, files.ai_png, files.ai_svg, files.tflops_png,
                          files.tflops_svg, files.markdown, files.details}) {
        ASSERT_TRUE(fs::exists(f)) << f;
        EXPECT_GT(fs::file_size(f), 100u) << f;
    }
    EXPECT_TRUE(read_file(files.png).starts_with("\x89PNG"));
    EXPECT_NE(read_file(files.markdown).find("(roofline.png)"), std::string::npos);
    EXPECT_NE(read_file(files.markdown).find("(hierarchical-roofline.png)"), std::string::npos);
    // One DRAM roofline per size (the synthetic profile has two), titled with its size.
    ASSERT_EQ(files.per_size_png.size(), 2u);
    EXPECT_EQ(files.per_size_png[1], dir / "h100" / "roofline-4096.png");
    for (const auto& f : files.per_size_png) EXPECT_TRUE(read_file(f).starts_with("\x89PNG"));
    auto one = test::synthetic_profile();
    std::erase_if(one.measurements, [](const measurement& m) { return m.size.m != 4096; });
    const auto title = layout_roofline(analyze(one)).title_lines.front();
    EXPECT_NE(title.find("Roofline of NVIDIA H100 80GB HBM3 at 4096³"), std::string::npos) << title;
    // Nothing but the twelve files and the four per-size ones: no temporaries left behind.
    EXPECT_EQ(std::distance(fs::directory_iterator(dir / "h100"), fs::directory_iterator()), 16);
}

TEST(render_report, predicted_profile_renders_too) {
    const auto dir = fresh_dir("tgemm_render_predicted");
    const auto files = render_report(test::synthetic_predicted_profile(), dir, "spec database");
    EXPECT_NE(read_file(files.markdown).find("PREDICTED"), std::string::npos);
}

TEST(render_report, an_unwritable_folder_is_a_usage_error_naming_it) {
    const auto dir = fresh_dir("tgemm_render_blocked");
    fs::create_directories(dir);
    // A regular file where a folder should be: fails for root as well as for users.
    std::ofstream(dir / "not_a_folder") << "x";
    const auto target = dir / "not_a_folder" / "reports";
    try {
        (void)render_report(test::synthetic_profile(), target, "profiles/h100.json");
        FAIL() << "no error";
    } catch (const error& e) {
        EXPECT_EQ(e.kind(), error_kind::usage);
        EXPECT_NE(std::string(e.what()).find(target.string()), std::string::npos) << e.what();
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    }
}

}  // namespace
}  // namespace tgemm::render
