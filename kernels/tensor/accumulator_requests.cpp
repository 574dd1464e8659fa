#include "tensor/accumulator_requests.hpp"

#include "tensor/accumulator_layout.hpp"

namespace tgemm::kernels::tensor_model {

void accumulator_requests::add_group(std::int64_t row0, std::int64_t col0) {
    for (int h = 0; h < 2; ++h) {
        m_request.clear();
        for (int lane = 0; lane < 32; ++lane) {
            const std::int64_t row = row0 + tensor::acc_row(lane) + tensor::acc_half_rows * h;
            const std::int64_t col = col0 + tensor::acc_group_col(lane);
            if (col >= m_shape.n || row >= m_shape.m) continue;
            m_request.add((row * m_shape.n + col) * bf16, 16);
            m_tile.add((row * m_shape.n + col) * bf16, 16);
        }
        m_l1 += m_request.count();
    }
}

c_sectors accumulator_requests::totals() {
    return {m_l1, m_tile.count()};
}

}  // namespace tgemm::kernels::tensor_model
