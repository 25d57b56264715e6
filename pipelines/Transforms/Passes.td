//===- Passes.td - The sift compiler's passes -------------------*- tablegen -*-===//
//
// Every pass of the sift compiler, declared once here; each is implemented in
// its own file (Name.cpp) with the generated base class.
//
//===----------------------------------------------------------------------===//

#ifndef SIFT_TRANSFORMS_PASSES_TD
#define SIFT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def MarkInputsReadOnly : Pass<"sift-mark-inputs-read-only", "mlir::ModuleOp"> {
  let summary = "Marks the arguments of public functions as read-only buffers";
  let description = [{
    Sets `bufferization.writable = false` on every tensor argument of every
    public function, so One-Shot Bufferize copies an input before writing it
    in place (a sort on an argument) instead of clobbering the caller's
    buffer, which the runtime may read again.
  }];
}

def LowerToLoops : Pass<"sift-lower-to-loops"> {
  let summary = "Lowers sift ops on memrefs to scf loops";
  let description = [{
    Replaces every sift op with buffer semantics by a loop nest over its
    iteration domain (TilingInterface) around its scalar implementation: one
    row of a sort or top-k per point. Ops on tensors are an error.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def RecordDispatchPlan : Pass<"sift-record-dispatch-plan", "mlir::ModuleOp"> {
  let summary = "Records the host dispatch plan of a bufferized program";
  let description = [{
    For the cpu pipeline: reads the bufferized signature of the entry
    function (inputs first, then the outputs that buffer-results-to-out-params
    made into arguments) and writes a `sift.dispatch_plan` module attribute:
    one buffer per argument (element type, shape, role) and one dispatch of
    the entry on a 1x1x1 grid binding every buffer in order. The compiler
    turns it into the artifact's plan. Fails on a signature the plan cannot
    express (a non-memref argument, a dynamic shape, a result).
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "The function to dispatch">,
  ];
}

def CopiesToLinalg : Pass<"sift-copies-to-linalg"> {
  let summary = "Turns memref.copy into linalg.copy";
  let description = [{
    A `memref.copy` between non-contiguous views lowers to a call of the
    `memrefCopy` runtime function, which no sift artifact links. This pass
    rewrites every copy as `linalg.copy`, which lowers to loops.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def HostEntryAbi : Pass<"sift-host-entry-abi", "mlir::ModuleOp"> {
  let summary = "Wraps the entry function in the runtime's host ABI";
  let description = [{
    After lowering to the LLVM dialect, adds
    `void sift_dispatch_0(void **bindings)`: it loads each buffer's base
    pointer from the bindings array, builds the memref descriptor fields
    (pointer, pointer, offset 0, the static sizes and row-major strides that
    `sift.dispatch_plan` records) and calls the entry. Every other defined
    function gets internal linkage so no symbol of the program can interpose
    on the host's.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "The function to wrap">,
    Option<"symbol", "symbol", "std::string",
           /*default=*/"\"sift_dispatch_0\"", "The exported symbol">,
  ];
}

def TestTileSiftOps : Pass<"sift-test-tile", "mlir::func::FuncOp"> {
  let summary = "Tiles every sift op with scf.for (test only)";
  let description = [{
    Tiles each sift op through TilingInterface with the given tile sizes over
    its iteration domain, to test the interface in lit.
  }];
  let options = [
    ListOption<"tileSizes", "tile-sizes", "int64_t", "Tile sizes">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // SIFT_TRANSFORMS_PASSES_TD
