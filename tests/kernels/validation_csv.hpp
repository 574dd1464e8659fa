#pragma once
// Reads the comma-separated files of docs/validation/ that hold Nsight Compute experiments:
// lines starting with '#' say what was run, the first other line names the columns, each line
// after it is one row. Cells are reached by column name, so a test names what it reads.
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace tgemm::test {

class validation_row {
  public:
    explicit validation_row(std::map<std::string, std::string> cells) : m_cells(std::move(cells)) {}
    // The cell of `column`; empty when the row has none.
    [[nodiscard]] std::string text(const std::string& column) const {
        const auto it = m_cells.find(column);
        return it == m_cells.end() ? std::string() : it->second;
    }
    // The cell as a number; throws std::invalid_argument when it is not one (a test then fails).
    [[nodiscard]] double number(const std::string& column) const { return std::stod(text(column)); }

  private:
    std::map<std::string, std::string> m_cells;
};

// docs/validation/<file>; empty when it cannot be read.
inline std::vector<validation_row> read_validation_csv(const std::string& file) {
    std::ifstream in(std::string(TGEMM_SOURCE_DIR) + "/docs/validation/" + file);
    std::vector<std::string> columns;
    std::vector<validation_row> rows;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> cells;
        std::stringstream ss(line);
        for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
        if (columns.empty()) {
            columns = std::move(cells);
            continue;
        }
        std::map<std::string, std::string> named;
        for (std::size_t i = 0; i < cells.size() && i < columns.size(); ++i)
            named[columns[i]] = cells[i];
        rows.emplace_back(std::move(named));
    }
    return rows;
}

}  // namespace tgemm::test
