//===- sift-reduce.cpp - mlir-reduce with the sift dialect ----------------===//
//
// The IR half of `harness reduce`: upstream's reducer (reduction-tree,
// opt-reduction-pass) over programs that use the sift dialect, with every
// upstream dialect and pass mlir-reduce knows.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Dialect/SiftDialect.h"
#include "pipelines/Transforms/Passes.h"

#include "pipelines/Target/RocdlTarget.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-reduce/MlirReduceMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  sift::registerSiftPasses();
  mlir::DialectRegistry registry;
  // First: the first model attached to #rocdl.target wins.
  sift::registerGpuTargetModels(registry);
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  sift::registerSiftDialects(registry);
  mlir::MLIRContext context(registry);
  return mlir::failed(mlir::mlirReduceMain(argc, argv, context)) ? 1 : 0;
}
