#pragma once
// Where the words inside a roofline plot go: roof labels along their lines, published values
// beside their diamonds, ridge labels under their ridges. Each builds candidate boxes in the
// order it prefers them; label_placer takes the first that is free.
#include <functional>
#include <string>
#include <vector>

#include "render/label_placer.hpp"
#include "render/scene.hpp"
#include "render/text_metrics.hpp"

namespace tgemm::render {

// The box plot labels must stay inside.
[[nodiscard]] rect plot_label_bounds(const scene& s);

// Registers what labels inside the plot must avoid: markers as obstacles (their radius plus
// 3 px), roofs, arrows and ridges as lines.
void add_plot_obstacles(label_placer& placer, const scene& s);

// One label per roof, along its line: compute roofs above (theoretical) or below (measured)
// their right end, memory roofs beside a point along the slope, or across the line where
// parallel roofs leave no room beside it. Labels keep 6 px from the roofs of other levels
// where they can. A label that fits nowhere is left out.
void place_roof_labels(label_placer& placer, const scene& s, const text_width_fn& measure,
                       double font_px = 15);

// "ridge 9.75 FLOP/B" in bold below each ridge point, left or right of its dotted line, else
// around the point. A label that fits nowhere is left out.
void place_ridge_labels(label_placer& placer, const scene& s, const text_width_fn& measure,
                        double font_px);

// "2.05 published" beside each published marker, in the rung's colour, clear of everything
// placed so far. A label that fits nowhere is left out.
void place_published_labels(label_placer& placer, const scene& s, const text_width_fn& measure,
                            double font_px);

// Where a rung's name may go, best first, for a label of w × h pixels.
using name_candidates_fn =
    std::function<std::vector<rect>(const std::string& rung, double w, double h)>;

// One bold name per rung in its colour, in the order the rungs' markers come, at the first free
// box of `candidates`. Published markers name no rung: they sit at a rate of their own. A name
// that fits nowhere is left out; the kernel table names every rung.
void place_rung_names(label_placer& placer, const scene& s, const text_width_fn& measure,
                      double font_px, const name_candidates_fn& candidates);

}  // namespace tgemm::render
