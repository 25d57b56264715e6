//===- runtime/DLPack.cpp - Export, its fault and its oracle --------------===//

#include "runtime/DLPack.h"

#include <cstddef>
#include <type_traits>

#if SIFT_DLPACK_HEADER
#include <dlpack/dlpack.h>
#define SIFT_SAME_LAYOUT(ours, theirs)                                         \
  static_assert(sizeof(ours) == sizeof(theirs) &&                             \
                    alignof(ours) == alignof(theirs),                          \
                #ours " differs from DLPack's " #theirs)
SIFT_SAME_LAYOUT(sift::rt::dlpack::Device, DLDevice);
SIFT_SAME_LAYOUT(sift::rt::dlpack::DataType, DLDataType);
SIFT_SAME_LAYOUT(sift::rt::dlpack::Tensor, DLTensor);
SIFT_SAME_LAYOUT(sift::rt::dlpack::ManagedTensor, DLManagedTensor);
static_assert(offsetof(sift::rt::dlpack::Tensor, shape) ==
                  offsetof(DLTensor, shape) &&
              offsetof(sift::rt::dlpack::Tensor, byte_offset) ==
                  offsetof(DLTensor, byte_offset) &&
              offsetof(sift::rt::dlpack::ManagedTensor, deleter) ==
                  offsetof(DLManagedTensor, deleter));
// The enumerators' values, compared as integers (two enum types).
static_assert(static_cast<int>(sift::rt::dlpack::kCUDA) ==
                  static_cast<int>(kDLCUDA) &&
              static_cast<int>(sift::rt::dlpack::kROCM) ==
                  static_cast<int>(kDLROCM) &&
              static_cast<int>(sift::rt::dlpack::kCPU) ==
                  static_cast<int>(kDLCPU) &&
              static_cast<int>(sift::rt::dlpack::kFloat) ==
                  static_cast<int>(kDLFloat));
#undef SIFT_SAME_LAYOUT
#endif

using namespace sift;
using namespace sift::rt;

bool dlpack::layoutChecked() { return SIFT_DLPACK_HEADER != 0; }

namespace {

/// What the managed tensor owns.
struct Export {
  dlpack::ManagedTensor tensor{};
  std::unique_ptr<Buffer> buffer;
  std::vector<int64_t> shape;
};

dlpack::DataType dataType(ElementType type) {
  switch (type) {
  case ElementType::I32: return {dlpack::kInt, 32, 1};
  case ElementType::I64: return {dlpack::kInt, 64, 1};
  case ElementType::F16: return {dlpack::kFloat, 16, 1};
  case ElementType::F32: return {dlpack::kFloat, 32, 1};
  case ElementType::F64: return {dlpack::kFloat, 64, 1};
  case ElementType::BF16: return {dlpack::kBfloat, 16, 1};
  }
  return {dlpack::kUInt, 8, 1};
}

int32_t deviceType(DeviceKind kind) {
  switch (kind) {
  case DeviceKind::Cpu: return dlpack::kCPU;
  case DeviceKind::Cuda: return dlpack::kCUDA;
  case DeviceKind::Hip: return dlpack::kROCM;
  case DeviceKind::Emu: return dlpack::kCPU; // host memory
  }
  return dlpack::kCPU;
}

} // namespace

Result<dlpack::ManagedTensor *>
rt::exportDlpack(Device &device, std::unique_ptr<Buffer> buffer,
                 const FaultSet &faults) {
  const PlanBuffer &desc = buffer->desc();
  if (!hasAll(desc.usage, BufferUsage::Export))
    return makeError("cannot export a buffer whose usage (" +
                     toString(desc.usage) + ") lacks 'export'");
  if (buffer->queueOrdered() && hasAll(desc.memory, MemoryType::DeviceLocal)) {
    if (faults.contains(Fault::ExportDeviceLocal))
      return makeError("cannot export a queue-ordered device_local buffer "
                       "(injected fault export-device-local, IREE #20170)");
    // The consumer may use the memory on any queue: wait until ours got
    // past the allocation.
    if (Status s = device.synchronize(); !s)
      return makeError("export: " + s.message());
  }
  auto owned = std::make_unique<Export>();
  owned->shape = desc.shape;
  dlpack::Tensor &t = owned->tensor.dl_tensor;
  t.data = buffer->size() ? reinterpret_cast<void *>(buffer->deviceAddress())
                          : nullptr;
  t.device = {deviceType(device.kind()), 0};
  t.ndim = static_cast<int32_t>(desc.shape.size());
  t.dtype = dataType(desc.type);
  t.shape = owned->shape.data();
  t.strides = nullptr; // compact row-major
  t.byte_offset = 0;
  owned->buffer = std::move(buffer);
  owned->tensor.manager_ctx = owned.get();
  owned->tensor.deleter = [](dlpack::ManagedTensor *self) {
    delete static_cast<Export *>(self->manager_ctx);
  };
  return &owned.release()->tensor;
}

Status rt::checkDlpackTensor(const dlpack::ManagedTensor &tensor,
                             const PlanBuffer &desc, DeviceKind kind) {
  const dlpack::Tensor &t = tensor.dl_tensor;
  if (!tensor.deleter)
    return makeError("the DLPack tensor has no deleter");
  if (t.device.device_type != deviceType(kind))
    return makeError("the DLPack tensor is on device type " +
                     std::to_string(t.device.device_type) + ", expected " +
                     std::to_string(deviceType(kind)));
  dlpack::DataType expected = dataType(desc.type);
  if (t.dtype.code != expected.code || t.dtype.bits != expected.bits ||
      t.dtype.lanes != 1)
    return makeError("the DLPack tensor's dtype does not match " +
                     describe(desc.type, desc.shape));
  if (t.ndim != static_cast<int32_t>(desc.shape.size()) ||
      !std::equal(desc.shape.begin(), desc.shape.end(), t.shape))
    return makeError("the DLPack tensor's shape does not match " +
                     describe(desc.type, desc.shape));
  if (t.strides || t.byte_offset)
    return makeError("the DLPack tensor is not compact row-major");
  int64_t elements = 1;
  for (int64_t d : desc.shape)
    elements *= d;
  if (elements > 0 && !t.data)
    return makeError("the DLPack tensor has no data");
  return Status::success();
}
