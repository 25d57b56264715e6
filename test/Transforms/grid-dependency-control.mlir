// RUN: sift-opt %s --pass-pipeline="builtin.module(gpu.module(sift-grid-dependency-control))" | FileCheck %s
// RUN: sift-opt %s --pass-pipeline="builtin.module(gpu.module(sift-grid-dependency-control{inject-pdl-wait-at-exit=true}))" | FileCheck %s --check-prefix=EXIT
// RUN: sift-opt %s --pass-pipeline="builtin.module(gpu.module(sift-grid-dependency-control),gpu.module(sift-lower-target-kernels-for-host))" | FileCheck %s --check-prefix=EMU
// sift-grid-dependency-control: the kernels of an sm_90 (or later) module
// begin with griddepcontrol.wait, before any load; declarations, modules
// for older chips and untargeted ones stay as they are. With the fault pdl-wait-at-exit the wait comes before each return.
// The emu lowering turns the wait into a warp callback of kind 3 (grid
// wait) and says the kernel waits (`<kernel>_grid_wait` = 1).

// CHECK-LABEL: gpu.module @hopper
// CHECK: llvm.func @k(
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-NEXT: llvm.load
// CHECK: llvm.func @helper(
// CHECK-NOT: griddepcontrol
// CHECK: llvm.func @k2(
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-LABEL: gpu.module @blackwell
// CHECK: nvvm.griddepcontrol wait
// CHECK-LABEL: gpu.module @ampere
// CHECK-NOT: griddepcontrol
// CHECK-LABEL: gpu.module @untargeted
// CHECK-NOT: griddepcontrol

// EXIT-LABEL: gpu.module @hopper
// EXIT: llvm.func @k(
// EXIT-NEXT: llvm.load
// EXIT: llvm.store
// EXIT-NEXT: nvvm.griddepcontrol wait
// EXIT-NEXT: llvm.return

// EMU-LABEL: gpu.module @hopper
// EMU: llvm.mlir.global external constant @k_grid_wait(1 : i32)
// EMU: llvm.func @k(
// EMU: %[[KIND:.*]] = llvm.mlir.constant(3 : i32) : i32
// EMU: llvm.call {{.*}}(%{{.*}}, %{{.*}}, %[[KIND]], %{{.*}})
// EMU-LABEL: gpu.module @ampere
// EMU: llvm.mlir.global external constant @k_grid_wait(0 : i32)
module attributes {gpu.container_module} {
  gpu.module @hopper [#nvvm.target<chip = "sm_90">] {
    llvm.func @k(%a: !llvm.ptr<1>, %b: !llvm.ptr<1>) attributes {gpu.kernel} {
      %v = llvm.load %a : !llvm.ptr<1> -> f32
      llvm.store %v, %b : f32, !llvm.ptr<1>
      llvm.return
    }
    llvm.func @helper(f32) -> f32
    llvm.func @k2(%a: !llvm.ptr<1>) attributes {gpu.kernel} {
      llvm.return
    }
  }
  gpu.module @blackwell [#nvvm.target<chip = "sm_100a">] {
    llvm.func @k(%a: !llvm.ptr<1>) attributes {gpu.kernel} {
      llvm.return
    }
  }
  gpu.module @ampere [#nvvm.target<chip = "sm_80">] {
    llvm.func @k(%a: !llvm.ptr<1>, %b: !llvm.ptr<1>) attributes {gpu.kernel} {
      %v = llvm.load %a : !llvm.ptr<1> -> f32
      llvm.store %v, %b : f32, !llvm.ptr<1>
      llvm.return
    }
  }
  gpu.module @untargeted {
    llvm.func @k(%a: !llvm.ptr<1>) attributes {gpu.kernel} {
      llvm.return
    }
  }
}
