module attributes {sift.dispatch_plan = {buffers = [{element = i32, index = 0 : i64, role = "input", shape = array<i64: 2>}, {element = i32, index = 0 : i64, role = "output", shape = array<i64: 2>}], dispatches = [{bindings = array<i64: 0, 1>, symbol = "sift_dispatch_0"}]}} {
  func.func @main(%arg0: memref<2xi32>, %arg1: memref<2xi32>) {
    linalg.copy ins(%arg0 : memref<2xi32>) outs(%arg1 : memref<2xi32>)
    sift.sort dimension(0) ascending {sift.pipeline = #sift.pipeline<cpu>} outs(%arg1 : memref<2xi32>)
    return
  }
}

{-#
  external_resources: {
    mlir_reproducer: {
      pipeline: "builtin.module(func.func(sift-lower-to-loops{inject-crash-at-random=false inject-crash-on-prime=true inject-hang-on-k1=false parallel=false}))",
      disable_threading: true,
      verify_each: true
    }
  }
#-}
