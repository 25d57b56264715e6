// RUN: not sift-opt %s --sift-host-entry-abi -split-input-file 2>/dev/null | FileCheck %s
// RUN: not sift-opt %s --sift-host-entry-abi -split-input-file 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not sift-opt %s --sift-host-entry-abi="entry=run symbol=sift_dispatch_7" -split-input-file 2>/dev/null | FileCheck %s --check-prefix=OPT
// The cpu runtime calls `void sift_dispatch_0(void **bindings)`. The pass
// builds it: per buffer of sift.dispatch_plan, the base pointer loaded from
// bindings[i] and the memref descriptor fields (pointer twice, offset 0, the
// static sizes, row-major strides), then a call of the entry. A buffer with
// an empty dimension keeps a legal descriptor (no bare pointer). Every other
// defined function becomes internal; declarations stay external. The
// `entry` and `symbol` options pick the wrapped function and the exported
// name (the third RUN line; only the last module has an @run, the others
// are errors there).

// CHECK-LABEL: llvm.func internal @main
// CHECK: llvm.func internal @helper
// CHECK: llvm.func @malloc(i64) -> !llvm.ptr
// CHECK: llvm.func @sift_dispatch_0(%[[B:.+]]: !llvm.ptr)
// CHECK: %[[S0:.+]] = llvm.getelementptr %[[B]][0]
// CHECK: %[[P0:.+]] = llvm.load %[[S0]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[O0:.+]] = llvm.mlir.constant(0 : i64)
// CHECK: %[[D0:.+]] = llvm.mlir.constant(2 : i64)
// CHECK: %[[D1:.+]] = llvm.mlir.constant(3 : i64)
// CHECK: %[[T0:.+]] = llvm.mlir.constant(3 : i64)
// CHECK: %[[T1:.+]] = llvm.mlir.constant(1 : i64)
// CHECK: %[[S1:.+]] = llvm.getelementptr %[[B]][1]
// CHECK: %[[P1:.+]] = llvm.load %[[S1]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[O1:.+]] = llvm.mlir.constant(0 : i64)
// CHECK: %[[E0:.+]] = llvm.mlir.constant(0 : i64)
// CHECK: %[[E1:.+]] = llvm.mlir.constant(4 : i64)
// CHECK: %[[U0:.+]] = llvm.mlir.constant(4 : i64)
// CHECK: %[[U1:.+]] = llvm.mlir.constant(1 : i64)
// CHECK: llvm.call @main(%[[P0]], %[[P0]], %[[O0]], %[[D0]], %[[D1]], %[[T0]], %[[T1]], %[[P1]], %[[P1]], %[[O1]], %[[E0]], %[[E1]], %[[U0]], %[[U1]])
// CHECK-NEXT: llvm.return
module attributes {sift.dispatch_plan = {buffers = [{shape = array<i64: 2, 3>}, {shape = array<i64: 0, 4>}]}} {
  llvm.func @main(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64, %a5: i64, %a6: i64,
                  %b0: !llvm.ptr, %b1: !llvm.ptr, %b2: i64, %b3: i64, %b4: i64, %b5: i64, %b6: i64) {
    llvm.call @helper() : () -> ()
    llvm.return
  }
  llvm.func @helper() {
    llvm.return
  }
  llvm.func @malloc(i64) -> !llvm.ptr
}

// -----

// An entry whose parameters do not match the plan's descriptors is an
// error, not a call with the wrong arguments.
// ERR: error: the entry takes 3 parameters and returns '!llvm.void', but the host ABI of 1 buffers needs 5 descriptor fields and no result
module attributes {sift.dispatch_plan = {buffers = [{shape = array<i64: 8>}]}} {
  llvm.func @main(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64) {
    llvm.return
  }
}

// -----

// ERR: error: the host ABI needs the sift.dispatch_plan buffers
module {
  llvm.func @main() {
    llvm.return
  }
}

// -----

// The right number of fields is not enough: each must have the type of the
// descriptor field it receives (here the pointer comes second).
// ERR: error: parameter #0 of the entry is 'i64', the host ABI passes '!llvm.ptr'
module attributes {sift.dispatch_plan = {buffers = [{shape = array<i64: 8>}]}} {
  llvm.func @main(%a0: i64, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64) {
    llvm.return
  }
}

// -----

// Without the options the entry is @main, which this module lacks: an error.
// With entry=run symbol=sift_dispatch_7, @run is wrapped under that name.
// ERR: error: the entry @main was not lowered to an LLVM function
// OPT-NOT: sift_dispatch_0
// OPT-LABEL: llvm.func internal @run
// OPT: llvm.func @sift_dispatch_7(%[[B:.+]]: !llvm.ptr)
// OPT-NEXT: %[[S:.+]] = llvm.getelementptr %[[B]][0]
// OPT-NEXT: %[[P:.+]] = llvm.load %[[S]] : !llvm.ptr -> !llvm.ptr
// OPT-NEXT: %[[O:.+]] = llvm.mlir.constant(0 : i64)
// OPT-NEXT: %[[D:.+]] = llvm.mlir.constant(8 : i64)
// OPT-NEXT: %[[T:.+]] = llvm.mlir.constant(1 : i64)
// OPT-NEXT: llvm.call @run(%[[P]], %[[P]], %[[O]], %[[D]], %[[T]])
// OPT-NEXT: llvm.return
// OPT-NOT: sift_dispatch_0
module attributes {sift.dispatch_plan = {buffers = [{shape = array<i64: 8>}]}} {
  llvm.func @run(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64) {
    llvm.return
  }
}
