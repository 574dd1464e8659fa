#pragma once
// A GitHub-flavoured markdown table: cells in, text out. Cells are escaped, so a '|' in a
// kernel's note cannot break the table.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/shape.hpp"

namespace tgemm::render {

enum class align { left, right, centre };

class md_table {
  public:
    // Columns without an alignment are left-aligned.
    explicit md_table(std::vector<std::string> header, std::vector<align> aligns = {});

    // Throws error_kind::internal when the row has a different number of cells.
    void add_row(std::vector<std::string> cells);

    [[nodiscard]] std::size_t row_count() const { return m_rows.size(); }
    [[nodiscard]] std::string str() const;

  private:
    std::vector<std::string> m_header;
    std::vector<align> m_aligns;
    std::vector<std::vector<std::string>> m_rows;
};

// A table of one row per kernel and one column per size ("kernel | 1024³ | 4096³ ..."), the
// sizes right-aligned: the layout of every TFLOP/s grid of the reports.
[[nodiscard]] md_table kernel_by_size_table(std::span<const shape> sizes);

// `s` as inline code: "`tgemm-roofline --gpu h100`".
[[nodiscard]] std::string md_code(std::string_view s);

}  // namespace tgemm::render
