#pragma once
// The work schedule of the persistent tensor-core kernels (kernels/tensor/bf16_ws.cuh): which
// tiles, and which K range of each, a cluster of CTAs computes, in what order. The kernel walks
// it on the device; the refined model and the tests walk the same functions on the host.
//
// P clusters are resident. The T tiles are cut into whole waves of P tiles, which every cluster
// computes whole ("data-parallel" tiles, tile c, c + P, c + 2P, ... for cluster c), and a tail
// of R = T mod P tiles. A tail of R < P tiles would leave P − R clusters idle for one tile's
// time, so the tail's R·KT k-iterations are split evenly ("stream-K"): cluster c takes
// iterations [c·q, (c+1)·q) with q = ⌈R·KT / P⌉. A tile the split cuts into pieces is finished
// by the cluster that computed its first k-tile (its "owner"), after it has added the partial
// sums the others left in a workspace. A piece that does not start at k = 0 is always the first
// piece of its cluster's range, so a cluster writes at most one partial and never waits on a
// cluster that is itself waiting.
#include "tensor/host_device.hpp"

namespace tgemm::tensor {

// The order in which walk step t visits the tiles (tiles_m rows of cluster tiles × tiles_n).
enum class raster { row_major, grouped };

struct tile_coord {
    int tm = 0;  // row of cluster tiles
    int tn = 0;  // column of tiles
};

// Row-major, or in groups of `group_m` rows of tiles walked column by column: the CTAs resident
// together then share a few strips of A and of B, which stay in L2 while they march along K.
[[nodiscard]] TGEMM_HD inline tile_coord tile_at(raster order, int group_m, int tiles_m,
                                                 int tiles_n, int t) {
    tile_coord c;
    if (order == raster::grouped) {
        const int span = group_m * tiles_n;
        const int first = t / span * group_m;
        const int rows = tiles_m - first < group_m ? tiles_m - first : group_m;
        const int in_group = t % span;
        c.tm = first + in_group % rows;
        c.tn = in_group / rows;
    } else {
        c.tm = t / tiles_n;
        c.tn = t % tiles_n;
    }
    return c;
}

struct work_unit {
    int tile = 0;     // cluster tile index, in raster order
    int k_begin = 0;  // k-tiles [k_begin, k_end)
    int k_end = 0;
    bool owner = true;  // finishes the tile (epilogue); else leaves a partial in its slot
    // Owner of a split tile: the clusters whose partials it adds, [first, last).
    int contributors_first = 0;
    int contributors_last = 0;
};

// The clusters a persistent launch uses: at most one per tile and no more than are resident;
// and, when the tiles come in whole waves only (no stream-K tail: see ws_schedule::make), no
// more than the fewest that still finish in the same number of waves. 256 tiles on 66 resident
// clusters take 4 waves either way; on 64 clusters they take 4 exact waves, and 2 SMs' power
// goes to the clocks of the others (measured on the H100: docs/tuning-bf16.md).
[[nodiscard]] TGEMM_HD inline int grid_clusters(int resident, int tiles, int k_tiles,
                                                bool stream_k);

struct ws_schedule {
    int clusters = 1;  // P
    int tiles = 0;     // T
    int k_tiles = 0;   // KT
    int dp_tiles = 0;  // tiles computed whole: whole waves, or all of them without stream-K
    int sk_share = 0;  // q: tail k-iterations per cluster (0: no stream-K tail)

    [[nodiscard]] TGEMM_HD static ws_schedule make(int clusters, int tiles, int k_tiles,
                                                   bool stream_k) {
        ws_schedule s;
        s.clusters = clusters;
        s.tiles = tiles;
        s.k_tiles = k_tiles;
        const int tail = tiles % clusters;
        // Below one wave there is nothing to balance against: keep whole tiles. Splitting costs
        // each split tile a partial written and read back and each cluster one more pipeline
        // restart; measured on the H100 (docs/tuning.md) that outweighs the gain while the
        // tail keeps at least three quarters of the clusters busy (4096³: 58 of 66, 3 % slower
        // split) and pays once it leaves more idle (8192³: 34 of 66, 1.4 % faster split).
        if (!stream_k || tail == 0 || tiles < clusters || 4 * tail > 3 * clusters) {
            s.dp_tiles = tiles;
            return s;
        }
        s.dp_tiles = tiles - tail;
        s.sk_share = (tail * k_tiles + clusters - 1) / clusters;
        return s;
    }

    [[nodiscard]] TGEMM_HD int tail_iterations() const { return (tiles - dp_tiles) * k_tiles; }
    [[nodiscard]] TGEMM_HD int dp_count(int c) const {
        return c < dp_tiles ? (dp_tiles - c + clusters - 1) / clusters : 0;
    }
    // Pieces of the tail in cluster c's range.
    [[nodiscard]] TGEMM_HD int sk_count(int c) const {
        if (sk_share == 0) return 0;
        const int first = c * sk_share;
        const int end = min_int((c + 1) * sk_share, tail_iterations());
        if (first >= end) return 0;
        return (end - 1) / k_tiles - first / k_tiles + 1;
    }
    [[nodiscard]] TGEMM_HD int units(int c) const { return dp_count(c) + sk_count(c); }

    // The i-th unit of cluster c: its whole tiles first, then its pieces of the tail.
    [[nodiscard]] TGEMM_HD work_unit unit(int c, int i) const {
        work_unit w;
        const int dp = dp_count(c);
        if (i < dp) {
            w.tile = c + i * clusters;
            w.k_end = k_tiles;
            return w;
        }
        const int first = c * sk_share;
        const int last = min_int((c + 1) * sk_share, tail_iterations()) - 1;
        const int piece = first / k_tiles + (i - dp);
        w.tile = dp_tiles + piece;
        w.k_begin = piece == first / k_tiles ? first % k_tiles : 0;
        w.k_end = piece == last / k_tiles ? last % k_tiles + 1 : k_tiles;
        w.owner = w.k_begin == 0;
        if (w.owner && w.k_end < k_tiles) {
            w.contributors_first = c + 1;
            w.contributors_last = ((piece + 1) * k_tiles - 1) / sk_share + 1;
        }
        return w;
    }

  private:
    [[nodiscard]] TGEMM_HD static int min_int(int a, int b) { return a < b ? a : b; }
};

TGEMM_HD inline int grid_clusters(int resident, int tiles, int k_tiles, bool stream_k) {
    const int clusters = resident < tiles ? resident : tiles;
    if (clusters < 1) return 1;
    if (ws_schedule::make(clusters, tiles, k_tiles, stream_k).sk_share > 0) return clusters;
    const int waves = (tiles + clusters - 1) / clusters;
    return (tiles + waves - 1) / waves;
}

}  // namespace tgemm::tensor
