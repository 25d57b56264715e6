//===- EmuAccessChecks.cpp - The emu kernels' bounds and access checks ---===//
//
// sift-lower-target-kernels-for-host's instrumentation of a kernel's memory
// accesses (LowerTargetKernelsForHost.cpp says what the pass does): each
// load, store and atomic is traced back to the allocation its pointer comes
// from (a parameter, a workgroup global, an alloca: through GEPs,
// address-space casts and the memref descriptors' insert/extractvalue
// chains), checked against its bytes, and reported to the context's access
// callback; allocas start as poison.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Transforms/EmuKernelAbi.h"

using namespace mlir;
using namespace sift::emuabi;

namespace {

/// Makes `pointer` the address `op` (a load, store or atomic) accesses.
void setPointer(Operation *op, Value pointer) {
  if (auto load = dyn_cast<LLVM::LoadOp>(op))
    load.getAddrMutable().assign(pointer);
  else if (auto store = dyn_cast<LLVM::StoreOp>(op))
    store.getAddrMutable().assign(pointer);
  else if (auto rmw = dyn_cast<LLVM::AtomicRMWOp>(op))
    rmw.getPtrMutable().assign(pointer);
  else if (auto cmpxchg = dyn_cast<LLVM::AtomicCmpXchgOp>(op))
    cmpxchg.getPtrMutable().assign(pointer);
}

/// Where an accessed pointer points: into a parameter, a workgroup global
/// (its addressof), an alloca, or somewhere unknown.
struct Origin {
  enum Kind { Parameter, Workgroup, Private, Unknown } kind = Unknown;
  Value base;             ///< the parameter, addressof or alloca
  unsigned parameter = 0; ///< Parameter: its number
  int64_t bytes = 0;      ///< Workgroup, Private: the allocation's bytes
};

/// The checks of one kernel.
class AccessChecks {
public:
  AccessChecks(const llvm::StringMap<LLVM::GlobalOp> &workgroupGlobals,
               const DataLayout &layout)
      : workgroupGlobals_(workgroupGlobals), layout_(layout) {}

  void checkAccesses(LLVM::LLVMFuncOp kernel, const Context &c);
  void poisonPrivateMemory(LLVM::LLVMFuncOp kernel);

private:
  Origin originOf(Value pointer);
  Value insertedAt(Value aggregate, ArrayRef<int64_t> position) const;
  void checkAccess(Operation *op, Value pointer, Type valueType, bool write,
                   bool atomic, bool report, int32_t site, const Context &c);

  const llvm::StringMap<LLVM::GlobalOp> &workgroupGlobals_;
  const DataLayout &layout_;
};

/// The value inserted at `position` into `aggregate` (through a chain of
/// insertvalues), or null.
Value AccessChecks::insertedAt(Value aggregate,
                               ArrayRef<int64_t> position) const {
  while (auto insert = aggregate.getDefiningOp<LLVM::InsertValueOp>()) {
    if (insert.getPosition() == position)
      return insert.getValue();
    aggregate = insert.getContainer();
  }
  return Value();
}

Origin AccessChecks::originOf(Value pointer) {
  for (int depth = 0; depth < 64 && pointer; ++depth) {
    if (auto argument = dyn_cast<BlockArgument>(pointer)) {
      // The old entry block's arguments are the parameters.
      Block *block = argument.getOwner();
      auto func = dyn_cast<LLVM::LLVMFuncOp>(block->getParentOp());
      if (func && block == &*std::next(func.getBody().begin()))
        return Origin{Origin::Parameter, pointer, argument.getArgNumber(), 0};
      return Origin{};
    }
    Operation *op = pointer.getDefiningOp();
    if (auto gep = dyn_cast<LLVM::GEPOp>(op)) {
      pointer = gep.getBase();
    } else if (auto cast = dyn_cast<LLVM::AddrSpaceCastOp>(op)) {
      pointer = cast.getArg();
    } else if (auto extract = dyn_cast<LLVM::ExtractValueOp>(op)) {
      pointer = insertedAt(extract.getContainer(), extract.getPosition());
    } else if (auto address = dyn_cast<LLVM::AddressOfOp>(op)) {
      auto it = workgroupGlobals_.find(address.getGlobalName());
      if (it == workgroupGlobals_.end())
        return Origin{};
      Type type = LLVM::GlobalOp(it->second).getGlobalType();
      return Origin{Origin::Workgroup, pointer, 0,
                    int64_t(layout_.getTypeSize(type).getFixedValue())};
    } else if (auto alloca = dyn_cast<LLVM::AllocaOp>(op)) {
      auto count = alloca.getArraySize().getDefiningOp<LLVM::ConstantOp>();
      auto value =
          count ? dyn_cast<IntegerAttr>(count.getValue()) : IntegerAttr();
      if (!value)
        return Origin{};
      return Origin{
          Origin::Private, pointer, 0,
          value.getInt() *
              int64_t(
                  layout_.getTypeSize(alloca.getElemType()).getFixedValue())};
    } else {
      return Origin{};
    }
  }
  return Origin{};
}

void AccessChecks::checkAccesses(LLVM::LLVMFuncOp kernel, const Context &c) {
  struct Access {
    Operation *op;
    Value pointer;
    Type type;
    bool write, atomic;
  };
  SmallVector<Access> accesses;
  kernel.walk([&](Operation *op) {
    // A load or store with an ordering (a relaxed flag read) is an atomic.
    if (auto load = dyn_cast<LLVM::LoadOp>(op))
      accesses.push_back(
          {op, load.getAddr(), load.getType(), false,
           load.getOrdering() != LLVM::AtomicOrdering::not_atomic});
    else if (auto store = dyn_cast<LLVM::StoreOp>(op))
      accesses.push_back(
          {op, store.getAddr(), store.getValue().getType(), true,
           store.getOrdering() != LLVM::AtomicOrdering::not_atomic});
    else if (auto rmw = dyn_cast<LLVM::AtomicRMWOp>(op))
      accesses.push_back(
          {op, rmw.getPtr(), rmw.getVal().getType(), true, true});
    else if (auto cmpxchg = dyn_cast<LLVM::AtomicCmpXchgOp>(op))
      accesses.push_back(
          {op, cmpxchg.getPtr(), cmpxchg.getVal().getType(), true, true});
  });
  // The entry's own loads of the parameters are not the kernel's.
  Block *entry = &kernel.getBody().front();
  llvm::erase_if(accesses,
                 [&](const Access &a) { return a.op->getBlock() == entry; });
  // The parameters the kernel writes (or may: a store through a pointer of
  // unknown origin, a pointer stored or passed on).
  llvm::SmallDenseSet<unsigned> written;
  bool allWritten = false;
  for (const Access &a : accesses) {
    Origin origin = originOf(a.pointer);
    if (a.write && origin.kind == Origin::Parameter)
      written.insert(origin.parameter);
    allWritten |= a.write && origin.kind == Origin::Unknown;
    if (auto store = dyn_cast<LLVM::StoreOp>(a.op))
      allWritten |= isa<LLVM::LLVMPointerType>(store.getValue().getType());
  }
  kernel.walk([&](LLVM::CallOp call) {
    for (Value operand : call.getArgOperands())
      allWritten |= isa<LLVM::LLVMPointerType>(operand.getType());
  });
  int32_t site = 0;
  for (const Access &a : accesses) {
    Origin origin = originOf(a.pointer);
    bool readOnly = !a.write && origin.kind == Origin::Parameter &&
                    !allWritten && !written.contains(origin.parameter);
    checkAccess(a.op, a.pointer, a.type, a.write, a.atomic, !readOnly, ++site,
                c);
  }
}

/// Checks one access (`site`) against its allocation and reports it.
void AccessChecks::checkAccess(Operation *op, Value pointer, Type valueType,
                               bool write, bool atomic, bool report,
                               int32_t site, const Context &c) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Type i64 = b.getI64Type(), i32 = b.getI32Type();
  Origin origin = originOf(pointer);
  unsigned space =
      cast<LLVM::LLVMPointerType>(pointer.getType()).getAddressSpace();
  int64_t size = int64_t(layout_.getTypeSize(valueType).getFixedValue());
  Value safe = pointer;
  if (origin.kind != Origin::Unknown && size > 0) {
    Value bytes;
    if (origin.kind == Origin::Parameter) {
      Value table = c.ptr(b, loc, kBufferBytes);
      Value slot = LLVM::GEPOp::create(
          b, loc, table.getType(), i64, table,
          ArrayRef<LLVM::GEPArg>{int32_t(origin.parameter)});
      bytes = LLVM::LoadOp::create(b, loc, i64, slot);
    } else {
      bytes = constant(b, loc, i64, origin.bytes);
    }
    Value address = LLVM::PtrToIntOp::create(b, loc, i64, pointer);
    Value base = LLVM::PtrToIntOp::create(b, loc, i64, origin.base);
    Value offset = LLVM::SubOp::create(b, loc, address, base);
    Value width = constant(b, loc, i64, size);
    Value fits =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, bytes, width);
    Value last = LLVM::SubOp::create(b, loc, bytes, width);
    Value inside =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ule, offset, last);
    Value ok = LLVM::AndOp::create(b, loc, fits, inside);
    safe = LLVM::SelectOp::create(b, loc, ok, pointer, origin.base);
    // if (!ok) outOfBounds(site, offset / size, bytes / size)
    Block *before = op->getBlock();
    Block *after = before->splitBlock(op);
    Block *bad = b.createBlock(after);
    b.setInsertionPointToEnd(before);
    LLVM::CondBrOp::create(b, loc, ok, after, bad);
    b.setInsertionPointToEnd(bad);
    c.call(b, loc, kOutOfBounds, LLVM::LLVMVoidType::get(b.getContext()),
           {constant(b, loc, i32, site),
            LLVM::UDivOp::create(b, loc, offset, width),
            LLVM::UDivOp::create(b, loc, bytes, width)});
    LLVM::BrOp::create(b, loc, ValueRange{}, after);
    b.setInsertionPoint(op);
    setPointer(op, safe);
  }
  bool workgroup = origin.kind == Origin::Workgroup || space == kWorkgroupSpace;
  bool privateMemory = origin.kind == Origin::Private || space == kPrivateSpace;
  if (privateMemory || !report)
    return;
  // An atomic that reads the old value (all but an exchange) reads before
  // it writes.
  auto rmw = dyn_cast<LLVM::AtomicRMWOp>(op);
  bool readsOld = isa<LLVM::AtomicCmpXchgOp>(op) ||
                  (rmw && rmw.getBinOp() != LLVM::AtomicBinOp::xchg);
  int32_t flags =
      (write ? kAccessWrite : 0) | (workgroup ? kAccessWorkgroup : 0) |
      (atomic ? kAccessAtomic : 0) | (readsOld ? kAccessReadsOld : 0);
  c.call(b, loc, kAccess, LLVM::LLVMVoidType::get(b.getContext()),
         {constant(b, loc, i32, site),
          LLVM::PtrToIntOp::create(b, loc, i64, safe),
          constant(b, loc, i32, flags)});
}

/// Fills every alloca of a known size with kPrivateFill where it is made:
/// a fiber's stack holds what the last kernel left there, often the very
/// value a thread of the same number computed, and a read before a write
/// must not find it.
void AccessChecks::poisonPrivateMemory(LLVM::LLVMFuncOp kernel) {
  SmallVector<LLVM::AllocaOp> allocas;
  kernel.walk([&](LLVM::AllocaOp alloca) { allocas.push_back(alloca); });
  for (LLVM::AllocaOp alloca : allocas) {
    Origin origin = originOf(alloca.getResult());
    if (origin.kind != Origin::Private || origin.bytes <= 0)
      continue;
    OpBuilder b(alloca->getContext());
    b.setInsertionPointAfter(alloca);
    Location loc = alloca.getLoc();
    LLVM::MemsetOp::create(b, loc, alloca.getResult(),
                           constant(b, loc, b.getI8Type(), kPrivateFill),
                           constant(b, loc, b.getI64Type(), origin.bytes),
                           /*isVolatile=*/false);
  }
}

} // namespace

void sift::emuabi::instrumentAccesses(
    LLVM::LLVMFuncOp kernel, const Context &c,
    const llvm::StringMap<LLVM::GlobalOp> &workgroupGlobals,
    const DataLayout &layout) {
  AccessChecks checks(workgroupGlobals, layout);
  checks.checkAccesses(kernel, c);
  checks.poisonPrivateMemory(kernel);
}
