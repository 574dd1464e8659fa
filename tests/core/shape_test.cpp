#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/shape.hpp"

using namespace tgemm;

TEST(Shape, ParsesCubeAndTriple) {
    EXPECT_EQ(parse_shape("4096"), (shape{4096, 4096, 4096}));
    EXPECT_EQ(parse_shape("4096x2048x1024"), (shape{4096, 2048, 1024}));
    EXPECT_EQ(parse_shapes("1024, 2048,4096").size(), 3u);
}

TEST(Shape, RejectsBadSizesWithOneLine) {
    for (const char* bad : {"0", "-3", "x", "12a", "1x2", "1x2x0", "", "99999999999999999999"}) {
        try {
            (void)parse_shapes(bad);
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const error& e) {
            EXPECT_EQ(e.kind(), error_kind::usage);
            EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
        }
    }
}

TEST(Shape, PrintsBackInParsableForm) {
    EXPECT_EQ(to_arg(shape{4096, 2048, 1024}), "4096x2048x1024");
    EXPECT_EQ(to_arg(shape{7, 7, 7}), "7");
}
