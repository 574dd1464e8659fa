#pragma once
// A fresh folder for each test that writes files, named after the test and this process, removed
// when the test ends: m_dir.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace tgemm::test {

class scratch_dir_test : public ::testing::Test {
  protected:
    explicit scratch_dir_test(std::string prefix) : m_prefix(std::move(prefix)) {}
    void SetUp() override {
        m_dir = std::filesystem::temp_directory_path() /
                (m_prefix + std::to_string(::getpid()) + "-" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::remove_all(m_dir);
        std::filesystem::create_directories(m_dir);
    }
    void TearDown() override { std::filesystem::remove_all(m_dir); }

    std::filesystem::path m_dir;

  private:
    std::string m_prefix;
};

}  // namespace tgemm::test
