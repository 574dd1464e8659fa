#include "render/md_table.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace tgemm::render {
namespace {

TEST(md_table, writes_header_alignment_and_rows) {
    md_table t({"kernel", "TFLOP/s", "note"}, {align::left, align::right, align::centre});
    t.add_row({"naive", "6.30", "coalesced B"});
    t.add_row({"cublas", "51.7", "—"});
    EXPECT_EQ(t.str(),
              "| kernel | TFLOP/s | note |\n"
              "|---|--:|:-:|\n"
              "| naive | 6.30 | coalesced B |\n"
              "| cublas | 51.7 | — |\n");
    EXPECT_EQ(t.row_count(), 2u);
}

TEST(md_table, missing_alignments_default_to_left) {
    md_table t({"a", "b"});
    EXPECT_EQ(t.str(), "| a | b |\n|---|---|\n");
}

TEST(md_table, escapes_pipes_and_newlines) {
    md_table t({"x"});
    t.add_row({"a|b\nc"});
    EXPECT_EQ(t.str(), "| x |\n|---|\n| a\\|b c |\n");
}

TEST(md_table, a_row_of_the_wrong_width_is_an_internal_error) {
    md_table t({"a", "b"});
    try {
        t.add_row({"only one"});
        FAIL() << "no error";
    } catch (const error& e) {
        EXPECT_EQ(e.kind(), error_kind::internal);
    }
}

}  // namespace
}  // namespace tgemm::render
