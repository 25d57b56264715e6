//===- InjectedFaults.h - Faults recorded on their ops ----------*- C++ -*-===//
//
// Some injected faults (support/Fault.h) concern one op that a pass
// creates and a later pass lowers: sift-decompose-nms creates the NMS's
// score sort and sift.nms_per_class, whose scalar implementation (and
// private-row staging) is built much later. The creating pass records such
// a fault on the op, as the discardable attribute `sift.inject` (an array of
// the faults' stable names), and the lowering honours it. Without faults the
// attribute is absent and the IR is the clean compiler's.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Fault.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace sift {

/// The discardable attribute that lists the faults injected into an op.
inline constexpr llvm::StringLiteral kInjectAttrName = "sift.inject";

/// True when `op` carries `fault` in its `sift.inject` attribute.
inline bool hasInjectedFault(mlir::Operation *op, Fault fault) {
  auto faults = op->getAttrOfType<mlir::ArrayAttr>(kInjectAttrName);
  return faults && llvm::any_of(faults, [&](mlir::Attribute attr) {
           auto name = llvm::dyn_cast<mlir::StringAttr>(attr);
           return name && name.getValue() == llvm::StringRef(toString(fault));
         });
}

/// Adds `fault` to the `sift.inject` attribute of `op` (once).
inline void recordInjectedFault(mlir::Operation *op, Fault fault) {
  if (hasInjectedFault(op, fault))
    return;
  llvm::SmallVector<mlir::Attribute> faults;
  if (auto old = op->getAttrOfType<mlir::ArrayAttr>(kInjectAttrName))
    faults.assign(old.begin(), old.end());
  mlir::Builder b(op->getContext());
  faults.push_back(b.getStringAttr(llvm::StringRef(toString(fault))));
  op->setAttr(kInjectAttrName, b.getArrayAttr(faults));
}

} // namespace sift
