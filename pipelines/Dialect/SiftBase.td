//===- SiftBase.td - The sift dialect, its enums and op base --*- tablegen -*-===//
//
// The `sift` dialect holds the ops whose GPU lowering sift tests: sort and
// top-k (NMS follows). This file defines the dialect, the enum attributes the
// ops use and the base class every op derives from.
//
//===----------------------------------------------------------------------===//

#ifndef SIFT_DIALECT_SIFTBASE_TD
#define SIFT_DIALECT_SIFTBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"

def Sift_Dialect : Dialect {
  let name = "sift";
  let cppNamespace = "::sift";
  let summary = "Sort, top-k and non-maximum suppression for compiler testing";
  let description = [{
    The ops whose lowering to GPU code sift fuzzes. Every op is in
    destination-passing style and works on tensors (with results) or on
    memrefs (in place, no results). Their semantics, including how ties, NaN
    and -0.0 are ordered, are fixed by SEMANTICS.md and repeated in each op's
    description.
  }];
  let hasCanonicalizer = 0;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Registers the attributes of SiftAttrs.td.
    void registerAttributes();
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::tensor::TensorDialect"];
}

/// The named orders of `sift.sort`.
def Sift_SortOrder : I32EnumAttr<"SortOrder", "named sort order", [
    I32EnumAttrCase<"Ascending", 0, "ascending">,
    I32EnumAttrCase<"Descending", 1, "descending">
  ]> {
  let cppNamespace = "::sift";
}

/// Which end of the order `sift.topk` keeps.
def Sift_TopkOrder : I32EnumAttr<"TopkOrder", "top-k selection", [
    I32EnumAttrCase<"Largest", 0, "largest">,
    I32EnumAttrCase<"Smallest", 1, "smallest">
  ]> {
  let cppNamespace = "::sift";
}

class Sift_Op<string mnemonic, list<Trait> traits = []>
    : Op<Sift_Dialect, mnemonic, traits>;

#endif // SIFT_DIALECT_SIFTBASE_TD
