// RUN: not sift-opt %s --split-input-file --pass-pipeline="builtin.module(gpu.module(sift-lower-target-kernels-for-host))" 2>&1 | FileCheck %s
// sift-lower-target-kernels-for-host refuses what the emu device cannot
// run, naming it.


// A shuffle's validity result is not modelled: an error naming it, not a
// silent no-op.
// CHECK: the emu device does not model a shuffle's validity result: {{.*}}nvvm.shfl.sync
gpu.module @shuffle {
  llvm.func @k(%out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
    %all = llvm.mlir.constant(-1 : i32) : i32
    %one = llvm.mlir.constant(1 : i32) : i32
    %c31 = llvm.mlir.constant(31 : i32) : i32
    %v = nvvm.shfl.sync bfly %all, %one, %one, %c31 {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i1)>
    llvm.store %v, %out : !llvm.struct<(i32, i1)>, !llvm.ptr
    llvm.return
  }
}

// -----

// A kernel parameter that is not a pointer (the emu device binds buffers).
// CHECK: kernel parameter 0 is 'i32', not a pointer
gpu.module @scalar {
  llvm.func @k(%n: i32) attributes {gpu.kernel, nvvm.kernel} {
    llvm.return
  }
}
