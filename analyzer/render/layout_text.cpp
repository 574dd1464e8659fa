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

std::vector<std::string> wrap_text(const std::string& text, double width, double font_px, bool bold,
                                   const text_width_fn& measure) {
    std::vector<std::string> lines;
    std::string line;
    for (const auto word : split(text, ' ')) {
        if (word.empty()) continue;
        auto candidate = line.empty() ? std::string(word) : line + " " + std::string(word);
        if (!line.empty() && measure(candidate, font_px, bold) > width) {
            lines.push_back(line);
            candidate = std::string(word);
        }
        line = std::move(candidate);
    }
    if (!line.empty()) lines.push_back(line);
    return lines;
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

void start_picture(picture& pic, const profile& p, std::string_view subject,
                   std::string_view qualifier, std::string_view predicted_note) {
    pic.predicted = p.source == profile_source::predicted;
    pic.watermark = pic.predicted ? "PREDICTED" : "";
    pic.title_lines = title_block(p, subject, qualifier, predicted_note);
}

double place_title_block(std::vector<label>& out, const std::vector<std::string>& lines,
                         bool predicted, point at, const title_style& style,
                         const text_width_fn& measure) {
    double y = at.y;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const bool first = i == 0;
        const bool warning = predicted && i > 1 && i + 1 == lines.size();
        const double px = first ? style.title_px : style.subtitle_px;
        const bool bold = first || (warning && style.bold_warning);
        const auto pieces = style.wrap_width
                                ? wrap_text(lines[i], *style.wrap_width, px, bold, measure)
                                : std::vector<std::string>{lines[i]};
        for (const auto& text : pieces) {
            auto l = make_label(
                text, px, bold,
                first ? text_role::title : (warning ? text_role::warning : text_role::subtitle),
                measure);
            l.colour_tone =
                warning || (first && predicted) ? tone::warning : (first ? tone::ink : tone::muted);
            l.box.x = at.x;
            l.box.y = y;
            y += l.box.h + style.line_gap;
            out.push_back(std::move(l));
        }
        if (first) y += style.after_title;
    }
    return y;
}

double place_notes(std::vector<label>& out, const std::vector<std::string>& notes, point at,
                   double width, const notes_style& style, const text_width_fn& measure) {
    double y = at.y;
    for (const auto& note : notes) {
        for (auto& line : wrap_text(note, width, style.font_px, false, measure)) {
            auto l = make_label(std::move(line), style.font_px, false, text_role::note, measure);
            l.colour_tone = tone::muted;
            l.box.x = at.x;
            l.box.y = y;
            y += l.box.h + style.line_gap;
            out.push_back(std::move(l));
        }
        y += style.note_gap;
    }
    return y;
}

double notes_height(const std::vector<std::string>& notes, double width, const notes_style& style,
                    const text_width_fn& measure) {
    double h = 0;
    for (const auto& note : notes)
        h += static_cast<double>(wrap_text(note, width, style.font_px, false, measure).size()) *
                 (line_box_height(style.font_px) + style.line_gap) +
             style.note_gap;
    return h;
}

}  // namespace tgemm::render
