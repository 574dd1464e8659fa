#include "render/md_table.hpp"

#include "core/throw.hpp"

namespace tgemm::render {

namespace {

std::string escape(const std::string& cell) {
    std::string out;
    out.reserve(cell.size());
    for (const char c : cell) {
        if (c == '|')
            out += "\\|";
        else if (c == '\n' || c == '\r')
            out += ' ';
        else
            out += c;
    }
    return out;
}

std::string line(const std::vector<std::string>& cells) {
    std::string out = "|";
    for (const auto& c : cells) {
        out += ' ';
        out += escape(c);
        out += " |";
    }
    return out + "\n";
}

}  // namespace

md_table::md_table(std::vector<std::string> header, std::vector<align> aligns)
    : m_header(std::move(header)), m_aligns(std::move(aligns)) {
    m_aligns.resize(m_header.size(), align::left);
}

void md_table::add_row(std::vector<std::string> cells) {
    if (cells.size() != m_header.size())
        TGEMM_THROW(internal, "markdown table row has {} cells, the header {}", cells.size(),
                    m_header.size());
    m_rows.push_back(std::move(cells));
}

std::string md_table::str() const {
    std::string out = line(m_header);
    out += "|";
    for (const auto a : m_aligns) {
        switch (a) {
            case align::left:
                out += "---|";
                break;
            case align::right:
                out += "--:|";
                break;
            case align::centre:
                out += ":-:|";
                break;
        }
    }
    out += "\n";
    for (const auto& r : m_rows) out += line(r);
    return out;
}

std::string md_code(std::string_view s) {
    // Built by appending: GCC 12 warns (-Wrestrict) about "literal" + std::string.
    std::string out = "`";
    return out.append(s).append("`");
}

md_table kernel_by_size_table(std::span<const shape> sizes) {
    std::vector<std::string> header = {"kernel"};
    std::vector<align> aligns = {align::left};
    for (const auto& s : sizes) {
        header.push_back(to_string(s));
        aligns.push_back(align::right);
    }
    return md_table(std::move(header), std::move(aligns));
}

}  // namespace tgemm::render
