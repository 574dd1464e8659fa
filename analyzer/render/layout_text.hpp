#pragma once
// Text pieces every layout shares, roofline and chart alike: a label boxed by the measuring
// function, text wrapped to a width, the title block that names the GPU, its clocks and
// whether anything was measured, and blocks of notes.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profile/profile.hpp"
#include "render/scene.hpp"
#include "render/text_metrics.hpp"

namespace tgemm::render {

// A label with its box sized for `text` at `font_px`; the caller places it.
[[nodiscard]] label make_label(std::string text, double font_px, bool bold, text_role role,
                               const text_width_fn& measure);

// Splits `text` at spaces into lines no wider than `width`.
[[nodiscard]] std::vector<std::string> wrap_text(const std::string& text, double width,
                                                 double font_px, bool bold,
                                                 const text_width_fn& measure);

// Line 1: "Subject of GPU<qualifier>, measured" or "PREDICTED (no measurement): subject of
// GPU<qualifier>"; line 2: clocks, CUDA, driver, date; a predicted profile adds
// `predicted_note`, which says in the picture's own words that nothing in it was measured.
[[nodiscard]] std::vector<std::string> title_block(const profile& p, std::string_view subject,
                                                   std::string_view qualifier,
                                                   std::string_view predicted_note);

// Starts `pic` for profile `p`: its predicted flag, the watermark of a prediction and the
// title block (title_block, with `predicted_note`).
void start_picture(picture& pic, const profile& p, std::string_view subject,
                   std::string_view qualifier, std::string_view predicted_note);

// How a title block is set; the roofline's and the charts' differ only in these.
struct title_style {
    double title_px = 26;
    double subtitle_px = 17;
    double line_gap = 2;               // below every line
    double after_title = 4;            // more below the first line
    bool bold_warning = false;         // a predicted profile's note in bold
    std::optional<double> wrap_width;  // none: every line as it is
};

// Sets title_block's lines from `at` downwards: the first as the title (in the warning colour
// for a predicted profile), the rest as muted subtitles, and a predicted profile's note (its
// third and last line) as a warning. Returns the y below the block.
double place_title_block(std::vector<label>& out, const std::vector<std::string>& lines,
                         bool predicted, point at, const title_style& style,
                         const text_width_fn& measure);

// How notes are set: muted text, wrapped.
struct notes_style {
    double font_px = 14;
    double line_gap = 0;  // below every line
    double note_gap = 3;  // more below every note
};

// Sets each note wrapped to `width` from `at` downwards; returns the y below them.
double place_notes(std::vector<label>& out, const std::vector<std::string>& notes, point at,
                   double width, const notes_style& style, const text_width_fn& measure);

// The height place_notes takes for the same notes.
[[nodiscard]] double notes_height(const std::vector<std::string>& notes, double width,
                                  const notes_style& style, const text_width_fn& measure);

}  // namespace tgemm::render
