#include "render/text_metrics.hpp"

#include <array>
#include <cstdint>

namespace tgemm::render {

namespace {

// DejaVu Sans advance widths of printable ASCII (0x20..0x7e) in font units of 2048 per em.
constexpr std::array<int, 95> ascii_advance = {
    651,  821,  942,  1716, 1303, 1946, 1597, 563,  799,  799,  1024, 1716, 651,  739,  651,  690,
    1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 690,  690,  1716, 1716, 1716, 1087,
    2048, 1401, 1405, 1430, 1577, 1294, 1178, 1587, 1540, 604,  604,  1343, 1141, 1767, 1532, 1612,
    1235, 1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251, 1403, 799,  690,  799,  1716, 1024,
    1024, 1255, 1300, 1126, 1300, 1260, 721,  1300, 1298, 569,  569,  1186, 569,  1995, 1298, 1253,
    1300, 1300, 842,  1067, 803,  1298, 1212, 1675, 1212, 1212, 1075, 1303, 690,  1303, 1716,
};

// Em widths of the few non-ASCII characters the tool prints; others count as a full em.
double wide_advance_em(std::uint32_t cp) {
    switch (cp) {
        case 0x00b2:  // ²
        case 0x00b3:  // ³
            return 0.45;
        case 0x00b7:  // ·
            return 0.35;
        case 0x00d7:  // ×
        case 0x2192:  // →
        case 0x2248:  // ≈
            return 0.84;
        case 0x2013:  // –
            return 0.52;
        default:
            return 1.0;
    }
}

// Decodes one code point and advances `i`; a malformed byte counts as one wide character.
std::uint32_t next_code_point(std::string_view s, std::size_t& i) {
    const auto c = static_cast<unsigned char>(s[i]);
    int extra = 0;
    std::uint32_t cp = c;
    if (c >= 0xf0) {
        extra = 3;
        cp = c & 0x07u;
    } else if (c >= 0xe0) {
        extra = 2;
        cp = c & 0x0fu;
    } else if (c >= 0xc0) {
        extra = 1;
        cp = c & 0x1fu;
    }
    ++i;
    for (int k = 0; k < extra && i < s.size(); ++k, ++i)
        cp = (cp << 6) | (static_cast<unsigned char>(s[i]) & 0x3fu);
    return cp;
}

}  // namespace

double estimate_text_width(std::string_view text, double font_px, bool bold) {
    double em = 0;
    for (std::size_t i = 0; i < text.size();) {
        const auto cp = next_code_point(text, i);
        if (cp >= 0x20 && cp <= 0x7e)
            em += ascii_advance[cp - 0x20] / 2048.0;
        else
            em += wide_advance_em(cp);
    }
    // Bold DejaVu runs up to 14 % wider; 3 % more covers hinting and rounding in the backend.
    const double weight = bold ? 1.14 : 1.0;
    return em * font_px * weight * 1.03;
}

}  // namespace tgemm::render
