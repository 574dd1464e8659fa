#pragma once
// The configurations the tensor-core rungs run (13–17) and the tuning sweep's controls that the
// calibration measured beside them. The rungs' launchers and the refined models name these same
// types, so a model always describes the configuration that runs. Host-includable.
#include "tensor/bf16_mma_config.hpp"
#include "tensor/bf16_wgmma_config.hpp"
#include "tensor/bf16_wmma_config.hpp"
#include "tensor/bf16_ws_config.hpp"

namespace tgemm::tensor_rungs {

using bf16_ws::epilogue;
using bf16_ws::raster;

// Rung 13 bf16_wmma, 14 bf16_mma, 15 bf16_wgmma.
using wmma = bf16_wmma::config;
using mma = bf16_mma::config<128, 128, 4>;
using wgmma = bf16_wgmma::config<128, 128, 4>;
// Rung 16 bf16_ws: persistent, one CTA per cluster, row-major tiles, direct epilogue, no
// stream-K.
using ws =
    bf16_ws::config<128, 256, 4, 2, 1, raster::row_major, epilogue::direct, 8, 0, false, false>;
// Rung 17 bf16_cluster: 2-CTA clusters with B multicast, grouped tiles, TMA epilogue, stream-K.
using cluster = bf16_ws::config<128, 256, 3, 2, 2, raster::grouped, epilogue::tma>;

// Controls of the tuning sweep (docs/tensor/README.md): one CTA per cluster with the TMA
// epilogue (ws_128x256_s3_c1_row_tma), and rung 17 without multicast
// (ws_128x256_s3_c2_grp8_tma_nomc).
using ws_tma_control =
    bf16_ws::config<128, 256, 3, 2, 1, raster::row_major, epilogue::tma, 8, 0, false, false>;
using cluster_nomc_control =
    bf16_ws::config<128, 256, 3, 2, 2, raster::grouped, epilogue::tma, 8, 0, false, true>;

}  // namespace tgemm::tensor_rungs
