// RUN: sift-opt %s -sift-extract-gpu-plan -split-input-file -verify-diagnostics | FileCheck %s
// The host side of a GPU program must be exactly what a plan expresses.

// CHECK-LABEL: module attributes
// CHECK-SAME: sift.dispatch_plan = {buffers = [{element = f32, index = 0 : i64, role = "input", shape = array<i64: 8>}, {element = f32, index = 0 : i64, role = "output", shape = array<i64: 8>}, {element = i32, index = 0 : i64, role = "temporary", shape = array<i64: 2, 3>}]
// CHECK-SAME: dispatches = [{bindings = array<i64: 0, 2, 1>, block = array<i64: 8, 1, 1>, executable = "k", grid = array<i64: 2, 1, 1>, symbol = "f"}]
module attributes {gpu.container_module, sift.dispatch_plan = {buffers = [{element = f32, index = 0 : i64, role = "input", shape = array<i64: 8>}, {element = f32, index = 0 : i64, role = "output", shape = array<i64: 8>}]}} {
  func.func @main(%in: memref<8xf32>, %out: memref<8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %t = memref.alloc() : memref<2x3xi32>
    gpu.launch_func @k::@f blocks in (%c2, %c1, %c1) threads in (%c8, %c1, %c1) args(%in : memref<8xf32>, %t : memref<2x3xi32>, %out : memref<8xf32>)
    // An empty grid does no work and is dropped.
    gpu.launch_func @k::@f blocks in (%c0, %c1, %c1) threads in (%c8, %c1, %c1) args(%in : memref<8xf32>, %t : memref<2x3xi32>, %out : memref<8xf32>)
    memref.dealloc %t : memref<2x3xi32>
    return
  }
  gpu.module @k {
    gpu.func @f(%a: memref<8xf32>, %b: memref<2x3xi32>, %c: memref<8xf32>) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module, sift.dispatch_plan = {buffers = [{element = f32, index = 0 : i64, role = "input", shape = array<i64: 8>}, {element = f32, index = 0 : i64, role = "output", shape = array<i64: 8>}]}} {
  func.func @main(%in: memref<8xf32>, %out: memref<8xf32>) {
    // expected-error @+1 {{host op 'memref.copy' cannot be expressed in the dispatch plan}}
    memref.copy %in, %out : memref<8xf32> to memref<8xf32>
    return
  }
}

// -----

module attributes {gpu.container_module, sift.dispatch_plan = {buffers = [{element = f32, index = 0 : i64, role = "input", shape = array<i64: 8>}, {element = f32, index = 0 : i64, role = "output", shape = array<i64: 8>}]}} {
  func.func @main(%in: memref<8xf32>, %out: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    // A size computed on the host is not in the plan's vocabulary.
    // expected-error @+1 {{host op 'memref.dim' cannot be expressed in the dispatch plan}}
    %n = memref.dim %in, %c0 : memref<8xf32>
    gpu.launch_func @k::@f blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) args(%in : memref<8xf32>)
    return
  }
  gpu.module @k {
    gpu.func @f(%a: memref<8xf32>) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module, sift.dispatch_plan = {buffers = [{element = f32, index = 0 : i64, role = "input", shape = array<i64: 8>}, {element = f32, index = 0 : i64, role = "output", shape = array<i64: 8>}]}} {
  func.func @main(%in: memref<8xf32>, %out: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    // expected-error @+1 {{kernel operand #1 ('index') is not a whole buffer; the dispatch plan cannot express it}}
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%in : memref<8xf32>, %c4 : index)
    return
  }
  gpu.module @k {
    gpu.func @f(%a: memref<8xf32>, %n: index) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module, sift.dispatch_plan = {buffers = [{element = f32, index = 0 : i64, role = "input", shape = array<i64: 8>}, {element = f32, index = 0 : i64, role = "output", shape = array<i64: 8>}]}} {
  func.func @main(%in: memref<8xf32>, %out: memref<8xf32>) {
    // expected-error @+1 {{the dispatch plan needs temporaries with a static shape, identity layout and default memory space, found 'memref<4xf32, 3>'}}
    %t = memref.alloc() : memref<4xf32, 3>
    return
  }
}

// -----

// expected-error @+1 {{sift-extract-gpu-plan needs the entry @main and the buffers sift-record-dispatch-plan recorded}}
module {
  func.func @main(%in: memref<8xf32>) {
    return
  }
}
