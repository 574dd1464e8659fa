// Compiled by tests/layers/CMakeLists.txt with the include path of one layer and nothing else:
// TGEMM_PROBE_HEADER names a header the layer may include (the build must succeed) or one of
// a layer above it (the build must fail to find it).
#include TGEMM_PROBE_HEADER
