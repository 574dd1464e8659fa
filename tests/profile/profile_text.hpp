#pragma once
// Editing a profile's JSON text for the reader tests: one replacement, and the error a text
// gets when it is read.
#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"
#include "profile/profile_file.hpp"

namespace tgemm::test {

// `text` with the first `from` replaced by `to`; a missing `from` fails the test.
inline std::string with(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

// The one-line message of reading `text` as the file `origin`; accepting it fails the test.
inline std::string error_of(const std::string& text, const std::string& origin = "bad.json") {
    try {
        (void)parse_profile(text, origin);
    } catch (const error& e) {
        EXPECT_EQ(e.kind(), error_kind::input);
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
        return e.what();
    }
    ADD_FAILURE() << "accepted: " << text.substr(0, 200);
    return {};
}

}  // namespace tgemm::test
