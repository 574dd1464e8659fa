#pragma once
// A table as text cells with the sentence that introduces it: what an analysis hands to the
// command that prints it (as markdown, through render/md_table.hpp in cli/).
#include <string>
#include <vector>

namespace tgemm {

struct text_table {
    std::string caption;  // one paragraph; the whole answer when there are no rows
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;  // each as long as the header
};

}  // namespace tgemm
