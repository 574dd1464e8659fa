#include "l2_totals.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

namespace tgemm::kernels {
namespace {

struct range {
    double value = 0;
    double low = 0;
    double high = 0;
};

// `key`'s value with its band's ends, or the value at both ends where it has none.
range of(const refined_model& r, std::string_view key) {
    const double v = *r.get(key);
    const auto* b = r.band(key);
    return {v, b ? std::min(v, b->low) : v, b ? std::max(v, b->high) : v};
}

std::string mb(double bytes) {
    return fmt::format("{:.1f} MB", bytes / 1e6);
}

}  // namespace

void add_l2_totals(refined_model& r, const shape& s, const l2_operands& e, int partitions,
                   int fanout) {
    if (partitions <= 0) return;  // add_l2_traffic said why
    if (!r.l2_write_bytes || !r.l2_fabric_bytes) return;
    if (!r.l2_requested_bytes) {
        r.notes.emplace_back(
            "L2 totals: not modelled: this rung has no model of what its L1 forwards to the L2");
        return;
    }
    const double far = double(partitions - 1) / partitions;
    const range requested = of(r, keys::l2_requested_bytes);
    const range writes = of(r, keys::l2_write_bytes);
    const range fabric = of(r, keys::l2_fabric_bytes);
    // Each end of the fabric band was computed with the stores of the same end of the write band.
    const auto fabric_reads = [&](double fabric_bytes, double write_bytes) {
        return std::max(0.0, fabric_bytes - far * write_bytes / (1 + far));
    };
    const range fabric_read{fabric_reads(fabric.value, writes.value),
                            fabric_reads(fabric.low, writes.low),
                            fabric_reads(fabric.high, writes.value)};
    const double ab = double(e.ab_element_bytes) * double(s.k) * (double(s.m) + double(s.n));
    const double distinct = ab + double(e.c_element_bytes) * double(s.m) * double(s.n);
    // A response serves at most `fanout` requests for its sector, and every sector asked for
    // reaches the L2 once: at least requests / fanout and the distinct sectors arrive.
    const double least_reaching =
        fanout > 0 ? std::max(distinct, requested.low / fanout) : distinct;
    const range sm_reads{requested.value, std::min(requested.low, least_reaching), requested.high};

    const range reads{sm_reads.value + fabric_read.value, sm_reads.low + fabric_read.low,
                      sm_reads.high + fabric_read.high};
    const range total{reads.value + writes.value, reads.low + writes.low, reads.high + writes.high};
    r.l2_read_bytes = reads.value;
    r.l2_bytes = total.value;

    const std::string most =
        fanout > 0
            ? fmt::format(
                  "as many merged as one response may serve ({} requests for a sector): "
                  "{} of the {} asked for reach the L2, and no less than the distinct "
                  "sectors of A, B and C ({})",
                  fanout, mb(least_reaching), mb(requested.low), mb(distinct))
            : fmt::format("all but one per distinct sector of A, B and C ({})", mb(distinct));
    const std::string why = fmt::format(
        "the L2 request coalescer merges requests for one sector from SMs of one domain "
        "that arrive close together (on the H100 and the H200 within about 0.1 us, "
        "measured), so how many merge is set by how closely the CTAs sharing a strip keep "
        "in step, a timing effect not derived: the value merges none "
        "(high end), the low end {}{}",
        most,
        r.band(keys::l2_fabric_bytes) || r.band(keys::l2_write_bytes) ||
                r.band(keys::l2_requested_bytes)
            ? "; the bands of the requests, writes and fabric bytes add theirs"
            : "");
    r.set_band(keys::l2_read_bytes, {reads.low, reads.high, why});
    r.set_band(keys::l2_bytes, {total.low, total.high, why});
    r.notes.push_back(fmt::format(
        "L2 totals: reads {} = the {} L1 forwards (none merged by the coalescer) + {} of fabric "
        "reads (the fabric less (P-1)/P of the stores); all bytes {} = reads + {} of writes; "
        "band {} … {}: {}",
        mb(reads.value), mb(sm_reads.value), mb(fabric_read.value), mb(total.value),
        mb(writes.value), mb(total.low), mb(total.high), why));
}

}  // namespace tgemm::kernels
