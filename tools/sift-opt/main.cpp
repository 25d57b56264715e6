//===- sift-opt.cpp - mlir-opt with the sift dialect and passes -----------===//
//
// The driver lit tests use, and users bisecting a pass: every upstream pass
// and dialect mlir-opt has, plus the sift dialect and the sift passes.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Dialect/SiftDialect.h"
#include "pipelines/Pipelines/Pipelines.h"
#include "pipelines/Transforms/Passes.h"

#include "pipelines/Target/RocdlTarget.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  sift::registerSiftPasses();
  sift::registerSiftPipelines();
  mlir::DialectRegistry registry;
  // First: the first model attached to #rocdl.target wins.
  sift::registerGpuTargetModels(registry);
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  sift::registerSiftDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "sift optimizer driver\n", registry));
}
