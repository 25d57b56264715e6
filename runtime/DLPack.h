//===- runtime/DLPack.h - Buffers as DLPack tensors -----------------------===//
//
// Any buffer exports as a DLPack tensor (DLManagedTensor, DLPack 0.6 ABI)
// that owns it: the consumer's call of the deleter frees the buffer. The
// structs are declared here with DLPack's stable C layout, so the runtime
// needs no header outside the standard library; where libdlpack-dev is
// installed the build checks the layout against <dlpack/dlpack.h>.
//
// A queue-ordered (async) buffer is exported once its queue has reached the
// allocation: the device synchronizes first. Fault export-device-local
// re-creates IREE #20170, where such a device_local buffer was refused.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Device.h"
#include "support/Fault.h"

#include <cstdint>
#include <memory>

namespace sift::rt::dlpack {

/// DLDeviceType values sift uses.
enum DeviceType : int32_t { kCPU = 1, kCUDA = 2, kROCM = 10 };
/// DLDataTypeCode values sift uses.
enum TypeCode : uint8_t { kInt = 0, kUInt = 1, kFloat = 2, kBfloat = 4 };

struct Device {
  int32_t device_type;
  int32_t device_id;
};
struct DataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};
struct Tensor {
  void *data;
  Device device;
  int32_t ndim;
  DataType dtype;
  int64_t *shape;
  int64_t *strides;
  uint64_t byte_offset;
};
struct ManagedTensor {
  Tensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(ManagedTensor *self);
};

/// True when this build checked the layout against <dlpack/dlpack.h>.
bool layoutChecked();

} // namespace sift::rt::dlpack

namespace sift::rt {

/// Exports `buffer` (which needs the `export` usage) as a DLPack tensor
/// that owns it; call `deleter` to release it. `device` is the buffer's
/// device (synchronized first when the buffer is queue-ordered).
Result<dlpack::ManagedTensor *> exportDlpack(Device &device,
                                             std::unique_ptr<Buffer> buffer,
                                             const FaultSet &faults = {});

/// The export oracle: `tensor` must describe `desc` (rank, shape, dtype,
/// contiguous) on a device of `kind`, with data wherever it has elements.
Status checkDlpackTensor(const dlpack::ManagedTensor &tensor,
                         const PlanBuffer &desc, DeviceKind kind);

} // namespace sift::rt
