#include "render/layout_text.hpp"

#include <fmt/format.h>

#include <cctype>

#include "core/strings.hpp"
#include "render/roofline_layout.hpp"

namespace tgemm::render {

label make_label(std::string text, double font_px, bool bold, text_role role,
                 const text_width_fn& measure) {
    label l;
    l.box.w = measure(text, font_px, bold);
    l.box.h = line_box_height(font_px);
    l.text = std::move(text);
    l.font_px = font_px;
    l.bold = bold;
    l.role = role;
    return l;
}

std::vector<std::string> title_block(const profile& p, std::string_view subject,
                                     std::string_view qualifier, std::string_view predicted_note) {
    const bool predicted = p.source == profile_source::predicted;
    std::vector<std::string> lines;
    std::string capital(subject);
    if (!capital.empty())
        capital[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(capital[0])));
    lines.push_back(
        predicted ? fmt::format("{}: {} of {}{}", predicted_tag, subject, p.gpu.name, qualifier)
                  : fmt::format("{} of {}{}, measured", capital, p.gpu.name, qualifier));
    std::vector<std::string> facts;
    facts.push_back(fmt::format("SM clock {:.0f} MHz", p.gpu.sm_clock_mhz));
    facts.push_back(fmt::format("memory clock {:.0f} MHz", p.gpu.mem_clock_mhz));
    if (!p.env.cuda.empty()) facts.push_back("CUDA " + p.env.cuda);
    if (!p.env.driver.empty()) facts.push_back("driver " + p.env.driver);
    if (!p.env.date.empty()) facts.push_back(p.env.date);
    lines.push_back(join(facts, " · "));
    if (predicted) lines.emplace_back(predicted_note);
    return lines;
}

}  // namespace tgemm::render
