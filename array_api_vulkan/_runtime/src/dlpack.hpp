// DLPack export of device memory (kDLVulkan) and host views of mapped staging buffers.
#pragma once

#include "device.hpp"

namespace avk {

py::array
host_view(std::shared_ptr<Buffer> buf);

py::capsule
dlpack_export(std::shared_ptr<Buffer> buffer, uint64_t byte_offset, std::vector<int64_t> shape,
              std::vector<int64_t> strides, uint8_t code, uint8_t bits, int32_t device_id, bool versioned,
              bool read_only);

py::tuple
dlpack_info(py::capsule cap);

} // namespace avk
