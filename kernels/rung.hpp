#pragma once
// The rung contract (docs/adding-a-kernel.md). One file in kernels/ per rung holds
// the __global__ kernel, its launcher, its metadata and its analytic model, and registers
// itself with TGEMM_REGISTER_RUNG. Adding a kernel is a one-file change.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/element_type.hpp"
#include "core/shape.hpp"
#include "gpu/gpu_info.hpp"
#include "launch_info.hpp"
#include "model/rung_model.hpp"

namespace tgemm {

// Device pointers, row-major: A is m×k, B is k×n, C is m×n; C = alpha·A·B + beta·C. The
// element types are the rung's operand_types; a_as<T>() and friends give the typed pointers.
struct gemm_args {
    shape size;
    float alpha = 1;
    float beta = 0;
    const void* a = nullptr;
    const void* b = nullptr;
    void* c = nullptr;

    template <class T>
    [[nodiscard]] const T* a_as() const {
        return static_cast<const T*>(a);
    }
    template <class T>
    [[nodiscard]] const T* b_as() const {
        return static_cast<const T*>(b);
    }
    template <class T>
    [[nodiscard]] T* c_as() const {
        return static_cast<T*>(c);
    }
};

struct launch_context {
    cudaStream_t stream = nullptr;
    cublasHandle_t cublas = nullptr;  // set up in pedantic FP32 mode on `stream`
};

// One problem's launch, ready to repeat: whatever the rung set up for it once (TMA
// descriptors, a workspace) lives in the closure. Launches once on the stream it was bound
// with; must not synchronise.
using bound_launch = std::function<void()>;

struct rung {
    std::string id;            // "naive": what --kernels takes
    std::string display_name;  // "Naive (coalesced B)"
    int order = 0;             // position on the ladder; the cuBLAS references are 0
    operand_types types{};     // A and B, and C; FP32 accumulators throughout
    std::string seed;          // which seed document and kernel it follows
    std::string params;        // tile shape and threads, in words, for people
    // Substring of the kernel's symbol, for `ncu --kernel-name regex:`.
    std::string kernel_symbol;
    // The launch as numbers (launch_info.hpp): tile, threads, stages, shared memory, registers,
    // cluster, the kernel itself. Empty for the cuBLAS rows, whose kernels are the library's.
    std::optional<kernels::launch_info> config{};
    // A rung sets one of the two. `launch` launches once on ctx.stream and must not
    // synchronise. `prepare` sets up one problem once (outside every timed or counted launch:
    // TMA descriptors, a workspace) and returns its launch.
    std::function<void(const gemm_args&, const launch_context&)> launch{};
    std::function<bound_launch(const gemm_args&, const launch_context&)> prepare{};
    std::function<rung_model(const shape&, const model_context&)> model;
    // Empty optional: the rung can run this shape on this device; otherwise, why not.
    std::function<std::optional<std::string>(const gpu_info&, const shape&)> can_run;

    // "fp32", "bf16", "fp16": the profile's dtype of this rung's rows (A and B's type).
    [[nodiscard]] std::string dtype() const { return std::string(to_string(types.ab)); }
    // The launch for one problem: prepare's, or `launch` bound to the arguments.
    [[nodiscard]] bound_launch bind(const gemm_args& args, const launch_context& ctx) const;
};

class rung_registry {
  public:
    static rung_registry& get();
    bool add(rung r);
    // Throws error_kind::usage naming the closest known id.
    [[nodiscard]] const rung& find(std::string_view id) const;
    [[nodiscard]] const rung* try_find(std::string_view id) const;
    // Ladder order.
    [[nodiscard]] std::vector<const rung*> all() const;
    [[nodiscard]] std::vector<std::string> ids() const;
    // Parses "a,b,c" or "all"; throws on an unknown name.
    [[nodiscard]] std::vector<const rung*> select(std::string_view list) const;

  private:
    rung_registry() = default;
    std::vector<rung> m_rungs;
};

}  // namespace tgemm

#define TGEMM_CONCAT_INNER(a, b) a##b
#define TGEMM_CONCAT(a, b) TGEMM_CONCAT_INNER(a, b)
// Registers a rung at static-initialisation time: TGEMM_REGISTER_RUNG(make_rung());
#define TGEMM_REGISTER_RUNG(...)                                                 \
    namespace {                                                                  \
    [[maybe_unused]] const bool TGEMM_CONCAT(tgemm_rung_registered_, __LINE__) = \
        ::tgemm::rung_registry::get().add(__VA_ARGS__);                          \
    }
