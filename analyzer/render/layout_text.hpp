#pragma once
// Text pieces every layout shares, roofline and chart alike: a label boxed by the measuring
// function, and the title block that names the GPU, its clocks and whether anything was measured.
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

// Line 1: "Subject of GPU<qualifier>, measured" or "PREDICTED (no measurement): subject of
// GPU<qualifier>"; line 2: clocks, CUDA, driver, date; a predicted profile adds
// `predicted_note`, which says in the picture's own words that nothing in it was measured.
[[nodiscard]] std::vector<std::string> title_block(const profile& p, std::string_view subject,
                                                   std::string_view qualifier,
                                                   std::string_view predicted_note);

}  // namespace tgemm::render
