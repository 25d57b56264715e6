//===- RunCommand.cpp - harness run and harness compile -------------------===//
//
// The two commands a user runs on one program by hand: `run` compiles it,
// runs it on a device with `.npy` inputs and writes `.npy` outputs;
// `compile` stops at a stage and writes text or an artifact. An artifact
// compiled with `--input` files carries them and, when the program is in the
// reference's reach (every op has a counterpart in the program model, see
// importModel), the reference's expected outputs: `sift-run` runs it on a
// GPU host without LLVM and compares. Bad input (a missing file, malformed
// MLIR, an input of the wrong count, shape or type) gets a message naming
// the file or the argument and exit code 2.
//
//===----------------------------------------------------------------------===//

#include "harness/Commands.h"

#include "harness/CaseRunner.h"
#include "harness/Session.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "oracles/Compare.h"
#include "oracles/Reference.h"
#include "pipelines/Dialect/SiftDialect.h"
#include "runtime/ExportedCase.h"
#include "runtime/Runner.h"
#include "runtime/support/FileIO.h"
#include "runtime/support/Npy.h"
#include "runtime/support/Text.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <filesystem>
#include <unistd.h>

namespace fs = std::filesystem;

namespace sift::harness {

namespace {

/// Reads a program file; prints the error and returns nullopt on failure.
std::optional<std::string> readProgram(const std::string &path) {
  auto bytes = readFileBytes(path);
  if (!bytes.ok()) {
    std::fprintf(stderr, "harness: %s\n", bytes.message().c_str());
    return std::nullopt;
  }
  return std::string(bytes->begin(), bytes->end());
}

/// An MLIR type or attribute as it prints.
template <typename T> std::string printed(T value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  value.print(os);
  return text;
}

/// "[3,4]" for messages about .npy shapes.
std::string shapeText(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

/// `count` `noun`, with an "s" unless it is one.
std::string counted(size_t count, const std::string &noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

/// The element type of a scalar MLIR type sift tensors hold.
std::optional<ElementType> elementTypeOf(mlir::Type type) {
  if (type.isF16())
    return ElementType::F16;
  if (type.isF32())
    return ElementType::F32;
  if (type.isF64())
    return ElementType::F64;
  if (type.isSignlessInteger(32))
    return ElementType::I32;
  if (type.isSignlessInteger(64))
    return ElementType::I64;
  return std::nullopt;
}

/// The model type of a statically shaped tensor of a sift element type.
std::optional<gen::TensorType> tensorTypeOf(mlir::Type type) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return std::nullopt;
  std::optional<ElementType> element = elementTypeOf(tensor.getElementType());
  if (!element)
    return std::nullopt;
  gen::TensorType result;
  result.elementType = *element;
  result.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
  return result;
}

/// Parses and verifies the program at `path` and finds its @main. Returns
/// null after printing why (a file that cannot be read or parsed, or no
/// @main: bad input).
mlir::OwningOpRef<mlir::ModuleOp> loadProgram(Session &session,
                                              const std::string &path) {
  std::optional<std::string> text = readProgram(path);
  if (!text)
    return nullptr;
  std::string error;
  auto module = session.parse(*text, path, error);
  if (!module) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return nullptr;
  }
  if (!module->lookupSymbol<mlir::func::FuncOp>("main")) {
    std::fprintf(stderr, "%s: no func.func @main to compile\n", path.c_str());
    return nullptr;
  }
  return module;
}

/// "--input #2 (b.npy)": how messages name input `index` (0-based).
std::string inputName(const std::vector<std::string> &paths, size_t index) {
  return "--input #" + std::to_string(index + 1) + " (" + paths[index] + ")";
}

/// Reads the `--input` files, before anything else is done. Prints the
/// first that cannot be read or is no well-formed .npy, naming it (`--input
/// #2 (b.npy): truncated .npy file: ...`), and returns false.
bool readInputFiles(const char *command, const std::vector<std::string> &paths,
                    std::vector<HostTensor> &inputs) {
  for (size_t i = 0; i < paths.size(); ++i) {
    Result<HostTensor> tensor = readNpy(paths[i]);
    if (!tensor.ok()) {
      // The reader's messages start with the path, which the name holds.
      std::string message = tensor.message();
      if (message.rfind(paths[i] + ": ", 0) == 0)
        message.erase(0, paths[i].size() + 2);
      std::fprintf(stderr, "%s: %s: %s\n", command, inputName(paths, i).c_str(),
                   message.c_str());
      return false;
    }
    inputs.push_back(std::move(*tensor));
  }
  return true;
}

/// Checks the inputs read from `paths` against the arguments of `main`:
/// their count, then each one's element type and shape. Prints the first
/// problem, naming the argument (`--input #2 (b.npy): shape [3,4] does not
/// match argument 2 of @main, tensor<4x3xf32>`), and returns false.
bool checkInputs(const char *command, const std::string &program,
                 mlir::func::FuncOp main, const std::vector<std::string> &paths,
                 const std::vector<HostTensor> &inputs) {
  mlir::FunctionType signature = main.getFunctionType();
  size_t arguments = signature.getNumInputs();
  if (inputs.size() != arguments) {
    std::string given = counted(inputs.size(), "--input file") +
                        (inputs.size() == 1 ? " was" : " were");
    std::fprintf(stderr, "%s: %s: @main takes %s but %s given\n", command,
                 program.c_str(), counted(arguments, "argument").c_str(),
                 given.c_str());
    return false;
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string which = inputName(paths, i);
    mlir::Type argument = signature.getInput(i);
    std::string argumentText =
        "argument " + std::to_string(i + 1) + " of @main, " + printed(argument);
    std::optional<gen::TensorType> type = tensorTypeOf(argument);
    if (!type) {
      std::fprintf(stderr,
                   "%s: %s: %s is not a static tensor of f16, f32, f64, i32 "
                   "or i64, which no .npy input can feed\n",
                   command, which.c_str(), argumentText.c_str());
      return false;
    }
    if (inputs[i].type != type->elementType) {
      std::fprintf(
          stderr, "%s: %s: element type %s (%s) does not match %s\n", command,
          which.c_str(), std::string(toString(inputs[i].type)).c_str(),
          std::string(npyDtype(inputs[i].type)).c_str(), argumentText.c_str());
      return false;
    }
    if (inputs[i].shape != type->shape) {
      std::fprintf(stderr, "%s: %s: shape %s does not match %s\n", command,
                   which.c_str(), shapeText(inputs[i].shape).c_str(),
                   argumentText.c_str());
      return false;
    }
  }
  return true;
}

/// Compiles `module` (changed in place) to `stage`. Returns nullopt on
/// success, else the exit code after printing why: 1 for a program the
/// pipeline fails on or crashes in. A crash is recovered: it is reported
/// with its pass, and MLIR's crash reproducer is kept at `keepReproducer`
/// when that is not empty.
std::optional<int> compileProgram(Session &session, mlir::ModuleOp module,
                                  const std::string &path,
                                  const PipelineOptions &pipeline,
                                  EmitStage stage, CompileOutput &output,
                                  const std::string &keepReproducer) {
  CompileOptions compileOptions;
  compileOptions.pipeline = pipeline;
  std::string error;
  if (session.compile(module, compileOptions, stage, output, error))
    return std::nullopt;
  if (!session.lastCrash()) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), error.c_str());
    return kExitFindings;
  }
  const std::string &reproducer = session.lastReproducer();
  std::string pass = reproducerPass(reproducer);
  std::fprintf(stderr, "%s: the compiler crashed%s: %s\n", path.c_str(),
               pass.empty() ? "" : (" in pass " + pass).c_str(),
               session.lastCrash()->c_str());
  if (!keepReproducer.empty()) {
    std::error_code ec;
    if (fs::path parent = fs::path(keepReproducer).parent_path();
        !parent.empty())
      fs::create_directories(parent, ec);
    Status kept = reproducer.empty()
                      ? Status(makeError("the crash left no reproducer"))
                      : writeFileAtomic(
                            keepReproducer,
                            reinterpret_cast<const uint8_t *>(reproducer.data()),
                            reproducer.size());
    if (kept.ok())
      std::fprintf(stderr,
                   "reproducer: %s (replay it with: sift-opt "
                   "--run-reproducer %s)\n",
                   keepReproducer.c_str(), keepReproducer.c_str());
    else
      std::fprintf(stderr, "no reproducer written to %s: %s\n",
                   keepReproducer.c_str(), kept.message().c_str());
  } else if (!reproducer.empty())
    std::fprintf(stderr, "(--crash-reproducer=PATH keeps MLIR's reproducer of "
                         "the pass's input)\n");
  return kExitFindings;
}

/// Whether `pipeline` may target `target` (cpu the host, the GPU pipelines
/// nvptx or amdgpu); prints why not.
bool checkPipelineTarget(const PipelineOptions &pipeline) {
  if ((pipeline.kind == PipelineKind::Cpu) ==
      (pipeline.target == TargetKind::Host))
    return true;
  std::fprintf(stderr,
               "harness: the %s pipeline cannot target %s (cpu targets "
               "host; the GPU pipelines nvptx or amdgpu)\n",
               std::string(toString(pipeline.kind)).c_str(),
               std::string(toString(pipeline.target)).c_str());
  return false;
}

//===----------------------------------------------------------------------===//
// The program model of a hand-written program
//===----------------------------------------------------------------------===//

/// Builds the program model (generators/ProgramModel.h) of a hand-written
/// @main, so that the reference can evaluate it: the inverse of
/// gen::emitMlir, accepting what that emitter prints and the same ops
/// written by hand (operands in any order, constants defined anywhere,
/// SSA names of any spelling). sift.sort with a named order or one of the
/// model's comparator regions, sift.topk,
/// sift.nms, tensor.extract_slice (same rank, static), tensor.empty as a
/// destination, linalg.generic with identity maps whose body is one of
/// the model's elementwise ops or an iota, and the gather generic along an
/// axis by i64 indices. Anything else (another
/// comparator, another op, a dynamic shape) puts the program outside the
/// reference's reach: the error says which op.
class ModelImporter {
public:
  Result<gen::Program> run(mlir::func::FuncOp main) {
    if (!main.getBody().hasOneBlock())
      return makeError("@main has more than one block");
    for (mlir::BlockArgument argument : main.getArguments()) {
      auto id = define(
          argument, "argument " + std::to_string(argument.getArgNumber() + 1) +
                        " of @main");
      if (!id.ok())
        return id.error();
      program.inputs.push_back(*id);
    }
    for (mlir::Operation &op : main.getBody().front())
      if (Status s = importOp(&op); !s)
        return s.error();
    if (program.outputs.empty())
      return makeError("@main returns nothing");
    if (std::string invalid = gen::validate(program); !invalid.empty())
      return makeError("the program model is not valid: " + invalid);
    return std::move(program);
  }

private:
  /// "linalg.generic (line 7)".
  static std::string where(mlir::Operation *op) {
    std::string text = op->getName().getStringRef().str();
    if (auto loc = llvm::dyn_cast<mlir::FileLineColLoc>(op->getLoc()))
      text += " (line " + std::to_string(loc.getLine()) + ")";
    return text;
  }

  /// Gives `value` a model id of its tensor type.
  Result<int> define(mlir::Value value, const std::string &what) {
    std::optional<gen::TensorType> type = tensorTypeOf(value.getType());
    if (!type)
      return makeError(what + " has type " + printed(value.getType()) +
                       ", not a static tensor of f16, f32, f64, i32 or i64");
    int id = program.addValue(*type);
    ids[value] = id;
    return id;
  }

  /// The model id of an operand.
  Result<int> use(mlir::Value value, mlir::Operation *user) {
    auto it = ids.find(value);
    if (it != ids.end())
      return it->second;
    std::string producer =
        value.getDefiningOp() ? where(value.getDefiningOp()) : "a block";
    return makeError(where(user) + " uses a value of " + producer +
                     ", which the model has no tensor for");
  }

  /// Defines every result of `op` and records `kind` with `operands`.
  Status addOp(gen::Op model, mlir::Operation *op,
               llvm::ArrayRef<mlir::Value> operands) {
    for (mlir::Value operand : operands) {
      Result<int> id = use(operand, op);
      if (!id.ok())
        return id.error();
      model.operands.push_back(*id);
    }
    for (mlir::Value result : op->getResults()) {
      Result<int> id = define(result, "a result of " + where(op));
      if (!id.ok())
        return id.error();
      model.results.push_back(*id);
    }
    program.ops.push_back(std::move(model));
    return Status::success();
  }

  Status importOp(mlir::Operation *op) {
    if (auto ret = llvm::dyn_cast<mlir::func::ReturnOp>(op)) {
      for (mlir::Value value : ret.getOperands()) {
        Result<int> id = use(value, op);
        if (!id.ok())
          return id.error();
        program.outputs.push_back(*id);
      }
      return Status::success();
    }
    // Destinations of ops that overwrite them, and scalar constants that
    // elementwise bodies may use: nothing of their own in the model.
    if (llvm::isa<mlir::tensor::EmptyOp>(op))
      return Status::success();
    if (auto constant = llvm::dyn_cast<mlir::arith::ConstantOp>(op);
        constant && !llvm::isa<mlir::ShapedType>(constant.getType()))
      return Status::success();
    if (auto sort = llvm::dyn_cast<sift::SortOp>(op)) {
      gen::Op model;
      model.kind = gen::OpKind::Sort;
      model.dimension = sort.getDimension();
      if (sort.hasComparator()) {
        std::optional<gen::ComparatorKind> comparator = comparatorOf(sort);
        if (!comparator)
          return makeError(where(op) + " has a comparator region that is "
                                       "none of the model's comparators");
        model.order = gen::SortOrder::Comparator;
        model.comparator = *comparator;
      } else if (std::optional<sift::SortOrder> order = sort.getOrder()) {
        model.order = *order == sift::SortOrder::Ascending
                          ? gen::SortOrder::Ascending
                          : gen::SortOrder::Descending;
      } else {
        return makeError(where(op) + " has neither an order nor a "
                                     "comparator");
      }
      llvm::SmallVector<mlir::Value> operands(sort.getOutputs());
      return addOp(model, op, operands);
    }
    if (auto topk = llvm::dyn_cast<sift::TopkOp>(op)) {
      gen::Op model;
      model.kind = gen::OpKind::TopK;
      model.dimension = topk.getDimension();
      model.k = topk.getK();
      model.largest = topk.isLargest();
      // The destinations are overwritten: only the input matters.
      return addOp(model, op, {topk.getInput()});
    }
    if (auto nms = llvm::dyn_cast<sift::NmsOp>(op)) {
      gen::Op model;
      model.kind = gen::OpKind::Nms;
      model.maxOutputBoxesPerClass = nms.getMaxOutputBoxesPerClass();
      model.iouThreshold = nms.getIouThreshold().convertToFloat();
      if (std::optional<llvm::APFloat> threshold = nms.getScoreThreshold())
        model.scoreThreshold = threshold->convertToFloat();
      if (nms.getCenterPointBox() != 0 && nms.getCenterPointBox() != 1)
        return makeError(where(op) + " has center_point_box(" +
                         std::to_string(nms.getCenterPointBox()) +
                         "), neither 0 nor 1");
      model.centerPointBox = nms.getCenterPointBox() == 1;
      return addOp(model, op, {nms.getBoxes(), nms.getScores()});
    }
    if (auto slice = llvm::dyn_cast<mlir::tensor::ExtractSliceOp>(op)) {
      if (!slice.getOffsets().empty() || !slice.getSizes().empty() ||
          !slice.getStrides().empty())
        return makeError(where(op) + " has dynamic offsets, sizes or "
                                     "strides");
      if (slice.getSourceType().getRank() != slice.getType().getRank())
        return makeError(where(op) + " drops dimensions");
      gen::Op model;
      model.kind = gen::OpKind::Slice;
      model.offsets.assign(slice.getStaticOffsets().begin(),
                           slice.getStaticOffsets().end());
      model.sizes.assign(slice.getStaticSizes().begin(),
                         slice.getStaticSizes().end());
      model.strides.assign(slice.getStaticStrides().begin(),
                           slice.getStaticStrides().end());
      return addOp(model, op, {slice.getSource()});
    }
    if (auto generic = llvm::dyn_cast<mlir::linalg::GenericOp>(op))
      return importGeneric(generic);
    return makeError(where(op) + " has no counterpart in the program model");
  }

  /// The model comparator a sort's region computes, in the shapes
  /// gen::emitMlir prints them (the float ones NaN-aware), or nullopt.
  static std::optional<gen::ComparatorKind> comparatorOf(sift::SortOp sort) {
    mlir::Block &block = sort.getComparator().front();
    if (block.getNumArguments() != 2)
      return std::nullopt;
    mlir::Value lhs = block.getArgument(0), rhs = block.getArgument(1);
    auto yield = llvm::dyn_cast<sift::YieldOp>(block.getTerminator());
    if (!yield || yield.getValues().size() != 1)
      return std::nullopt;
    mlir::Value less = yield.getValues().front();

    // Integers: a < b or a > b (signed), or (a & 255) < (b & 255).
    if (auto cmp = less.getDefiningOp<mlir::arith::CmpIOp>()) {
      using P = mlir::arith::CmpIPredicate;
      mlir::Value a = cmp.getLhs(), b = cmp.getRhs();
      bool straight = a == lhs && b == rhs, swapped = a == rhs && b == lhs;
      if (cmp.getPredicate() == P::slt && (straight || swapped))
        return straight ? gen::ComparatorKind::Less
                        : gen::ComparatorKind::Greater;
      if (cmp.getPredicate() == P::sgt && (straight || swapped))
        return straight ? gen::ComparatorKind::Greater
                        : gen::ComparatorKind::Less;
      auto lowByteOf = [](mlir::Value value, mlir::Value arg) {
        auto andi = value.getDefiningOp<mlir::arith::AndIOp>();
        if (!andi)
          return false;
        mlir::Value other = andi.getLhs() == arg   ? andi.getRhs()
                            : andi.getRhs() == arg ? andi.getLhs()
                                                   : mlir::Value();
        auto constant =
            other ? other.getDefiningOp<mlir::arith::ConstantOp>() : nullptr;
        auto mask = constant
                        ? llvm::dyn_cast<mlir::IntegerAttr>(constant.getValue())
                        : nullptr;
        return mask && mask.getValue() == 255;
      };
      if (cmp.getPredicate() == P::ult && lowByteOf(a, lhs) &&
          lowByteOf(b, rhs))
        return gen::ComparatorKind::LessLowByte;
      return std::nullopt;
    }

    // Floats: (!isnan(a) && isnan(b)) || a < b, or (isnan(a) && !isnan(b))
    // || a > b, with a, b the arguments or (less only) their |.|.
    auto ori = less.getDefiningOp<mlir::arith::OrIOp>();
    if (!ori)
      return std::nullopt;
    using P = mlir::arith::CmpFPredicate;
    auto cmpOf = [](mlir::Value value) {
      return value.getDefiningOp<mlir::arith::CmpFOp>();
    };
    // A NaN test of `x` (ord: not NaN; uno: NaN).
    auto nanTest = [&](mlir::Value value, mlir::Value x, P predicate) {
      auto cmp = cmpOf(value);
      return cmp && cmp.getPredicate() == predicate && cmp.getLhs() == x &&
             cmp.getRhs() == x;
    };
    for (auto [nanPart, order] : {std::pair{ori.getLhs(), ori.getRhs()},
                                  std::pair{ori.getRhs(), ori.getLhs()}}) {
      auto cmp = cmpOf(order);
      auto andi = nanPart.getDefiningOp<mlir::arith::AndIOp>();
      if (!cmp || !andi)
        continue;
      mlir::Value a = cmp.getLhs(), b = cmp.getRhs();
      bool greater = cmp.getPredicate() == P::OGT;
      if (!greater && cmp.getPredicate() != P::OLT)
        continue;
      P aTest = greater ? P::UNO : P::ORD, bTest = greater ? P::ORD : P::UNO;
      bool nanAware = (nanTest(andi.getLhs(), a, aTest) &&
                       nanTest(andi.getRhs(), b, bTest)) ||
                      (nanTest(andi.getRhs(), a, aTest) &&
                       nanTest(andi.getLhs(), b, bTest));
      if (!nanAware)
        continue;
      if (a == lhs && b == rhs)
        return greater ? gen::ComparatorKind::Greater
                       : gen::ComparatorKind::Less;
      auto absA = a.getDefiningOp<mlir::math::AbsFOp>();
      auto absB = b.getDefiningOp<mlir::math::AbsFOp>();
      if (!greater && absA && absB && absA.getOperand() == lhs &&
          absB.getOperand() == rhs)
        return gen::ComparatorKind::LessAbs;
    }
    return std::nullopt;
  }

  /// A gather as gen::emitMlir prints it: one i64 input `indices [B, K]`
  /// read at (d0, d_axis), an identity output, and a body that yields
  /// `tensor.extract %source[...]` of a value from above at the loop
  /// position with the index (cast from the input) at `axis`. Nullopt when
  /// `generic` is not of that shape, else whether it was recorded.
  std::optional<Status> importGather(mlir::linalg::GenericOp generic) {
    if (generic.getNumDpsInputs() != 1)
      return std::nullopt;
    llvm::SmallVector<mlir::AffineMap> maps = generic.getIndexingMapsArray();
    mlir::AffineMap read = maps[0];
    int64_t rank = generic.getNumLoops();
    if (!maps[1].isIdentity() || read.getNumResults() != 2 ||
        read.getResult(0) != mlir::getAffineDimExpr(0, read.getContext()))
      return std::nullopt;
    auto axisExpr = llvm::dyn_cast<mlir::AffineDimExpr>(read.getResult(1));
    if (!axisExpr || axisExpr.getPosition() < 1)
      return std::nullopt;
    int64_t axis = axisExpr.getPosition();
    mlir::Block &body = generic.getRegion().front();
    auto yield = llvm::cast<mlir::linalg::YieldOp>(body.getTerminator());
    if (yield.getNumOperands() != 1 || !body.getArgument(1).use_empty())
      return std::nullopt;
    auto extract = yield.getOperand(0).getDefiningOp<mlir::tensor::ExtractOp>();
    if (!extract || extract->getBlock() != &body ||
        static_cast<int64_t>(extract.getIndices().size()) != rank)
      return std::nullopt;
    for (int64_t i = 0; i < rank; ++i) {
      mlir::Value coordinate = extract.getIndices()[i];
      if (i == axis) {
        auto cast = coordinate.getDefiningOp<mlir::arith::IndexCastOp>();
        if (!cast || cast.getIn() != body.getArgument(0))
          return std::nullopt;
      } else {
        auto index = coordinate.getDefiningOp<mlir::linalg::IndexOp>();
        if (!index || static_cast<int64_t>(index.getDim()) != i)
          return std::nullopt;
      }
    }
    gen::Op model;
    model.kind = gen::OpKind::Gather;
    model.axis = axis;
    return addOp(model, generic.getOperation(),
                 {extract.getTensor(), generic.getDpsInputs()[0]});
  }

  /// A linalg.generic: identity maps, parallel loops, one output whose
  /// block argument is unused, and a body that computes one model op.
  Status importGeneric(mlir::linalg::GenericOp generic) {
    mlir::Operation *op = generic.getOperation();
    if (generic.getNumDpsInits() != 1 || generic->getNumResults() != 1)
      return makeError(where(op) + " does not have exactly one output");
    if (generic.getNumParallelLoops() != generic.getNumLoops())
      return makeError(where(op) + " has loops that are not parallel");
    if (std::optional<Status> gather = importGather(generic))
      return *gather;
    for (mlir::AffineMap map : generic.getIndexingMapsArray())
      if (!map.isIdentity())
        return makeError(where(op) + " has an indexing map that is not the "
                                     "identity");
    mlir::Block &body = generic.getRegion().front();
    size_t numInputs = generic.getNumDpsInputs();
    if (!body.getArgument(numInputs).use_empty())
      return makeError(where(op) + " reads its output");
    auto yield = llvm::cast<mlir::linalg::YieldOp>(body.getTerminator());
    if (yield.getNumOperands() != 1)
      return makeError(where(op) + " yields more than one value");
    llvm::SmallVector<mlir::Value> inputs(generic.getDpsInputs());

    gen::Op model;
    // The generic's input a body value reads, or nullopt.
    auto inputOf = [&](mlir::Value value) -> std::optional<size_t> {
      auto argument = llvm::dyn_cast<mlir::BlockArgument>(value);
      if (!argument || argument.getOwner() != &body ||
          argument.getArgNumber() >= numInputs)
        return std::nullopt;
      return argument.getArgNumber();
    };
    auto constantOf = [](mlir::Value value) -> mlir::Attribute {
      if (auto constant = value.getDefiningOp<mlir::arith::ConstantOp>())
        return constant.getValue();
      return nullptr;
    };
    auto isOne = [&](mlir::Value value) {
      auto attr = llvm::dyn_cast_or_null<mlir::FloatAttr>(constantOf(value));
      return attr && attr.getValue().isExactlyValue(1.0);
    };
    std::vector<mlir::Value> operands;
    auto unary = [&](gen::EwKind kind, mlir::Value operand) {
      std::optional<size_t> input = inputOf(operand);
      if (!input)
        return false;
      model.ew = kind;
      operands = {inputs[*input]};
      return true;
    };
    auto binary = [&](gen::EwKind kind, std::optional<gen::EwKind> withConst,
                      mlir::Value lhs, mlir::Value rhs) {
      std::optional<size_t> a = inputOf(lhs), b = inputOf(rhs);
      if (a && b) {
        model.ew = kind;
        operands = {inputs[*a], inputs[*b]};
        return true;
      }
      // x op c and, for the commutative ops that have one, c op x.
      if (!withConst || (a.has_value() == b.has_value()))
        return false;
      mlir::Attribute constant = constantOf(a ? rhs : lhs);
      if (auto f = llvm::dyn_cast_or_null<mlir::FloatAttr>(constant)) {
        model.constant = f.getValueAsDouble();
      } else if (auto i = llvm::dyn_cast_or_null<mlir::IntegerAttr>(constant)) {
        model.intConstant = i.getValue().getSExtValue();
      } else {
        return false;
      }
      model.ew = *withConst;
      operands = {inputs[a ? *a : *b]};
      return true;
    };

    mlir::Value result = yield.getOperand(0);
    mlir::Operation *def = result.getDefiningOp();
    bool matched = false;
    model.kind = gen::OpKind::Elementwise;
    if (!def || def->getBlock() != &body) {
      matched = false;
    } else if (auto cast = llvm::dyn_cast<mlir::arith::IndexCastOp>(def)) {
      if (auto index = cast.getIn().getDefiningOp<mlir::linalg::IndexOp>();
          index && numInputs == 0) {
        model.kind = gen::OpKind::Iota;
        model.dimension = static_cast<int64_t>(index.getDim());
        matched = true;
      }
    } else if (auto div = llvm::dyn_cast<mlir::arith::DivFOp>(def)) {
      // Sigmoid: 1 / (1 + exp(-x)), the addition either way round.
      auto add = div.getRhs().getDefiningOp<mlir::arith::AddFOp>();
      if (isOne(div.getLhs()) && add) {
        mlir::Value other = isOne(add.getLhs())   ? add.getRhs()
                            : isOne(add.getRhs()) ? add.getLhs()
                                                  : mlir::Value();
        auto exp = other ? other.getDefiningOp<mlir::math::ExpOp>()
                         : mlir::math::ExpOp();
        auto neg = exp ? exp.getOperand().getDefiningOp<mlir::arith::NegFOp>()
                       : mlir::arith::NegFOp();
        if (neg)
          matched = unary(gen::EwKind::Sigmoid, neg.getOperand());
      }
    } else if (auto o = llvm::dyn_cast<mlir::arith::NegFOp>(def)) {
      matched = unary(gen::EwKind::NegF, o.getOperand());
    } else if (auto o = llvm::dyn_cast<mlir::math::AbsFOp>(def)) {
      matched = unary(gen::EwKind::AbsF, o.getOperand());
    } else if (auto o = llvm::dyn_cast<mlir::arith::ExtFOp>(def)) {
      matched = unary(gen::EwKind::ExtF, o.getIn());
    } else if (auto o = llvm::dyn_cast<mlir::arith::TruncFOp>(def)) {
      matched = unary(gen::EwKind::TruncF, o.getIn());
    } else if (auto o = llvm::dyn_cast<mlir::arith::SIToFPOp>(def)) {
      matched = unary(gen::EwKind::SIToFP, o.getIn());
    } else if (auto o = llvm::dyn_cast<mlir::arith::ExtSIOp>(def)) {
      matched = unary(gen::EwKind::ExtSI, o.getIn());
    } else if (auto o = llvm::dyn_cast<mlir::arith::TruncIOp>(def)) {
      matched = unary(gen::EwKind::TruncI, o.getIn());
    } else if (auto o = llvm::dyn_cast<mlir::arith::AddFOp>(def)) {
      matched = binary(gen::EwKind::AddF, gen::EwKind::AddConstF, o.getLhs(),
                       o.getRhs());
    } else if (auto o = llvm::dyn_cast<mlir::arith::MulFOp>(def)) {
      matched = binary(gen::EwKind::MulF, gen::EwKind::MulConstF, o.getLhs(),
                       o.getRhs());
    } else if (auto o = llvm::dyn_cast<mlir::arith::SubFOp>(def)) {
      matched = binary(gen::EwKind::SubF, std::nullopt, o.getLhs(), o.getRhs());
    } else if (auto o = llvm::dyn_cast<mlir::arith::MaximumFOp>(def)) {
      matched =
          binary(gen::EwKind::MaximumF, std::nullopt, o.getLhs(), o.getRhs());
    } else if (auto o = llvm::dyn_cast<mlir::arith::MinimumFOp>(def)) {
      matched =
          binary(gen::EwKind::MinimumF, std::nullopt, o.getLhs(), o.getRhs());
    } else if (auto o = llvm::dyn_cast<mlir::arith::AddIOp>(def)) {
      matched = binary(gen::EwKind::AddI, gen::EwKind::AddConstI, o.getLhs(),
                       o.getRhs());
    } else if (auto o = llvm::dyn_cast<mlir::arith::MulIOp>(def)) {
      matched = binary(gen::EwKind::MulI, gen::EwKind::MulConstI, o.getLhs(),
                       o.getRhs());
    } else if (auto o = llvm::dyn_cast<mlir::arith::SubIOp>(def)) {
      matched = binary(gen::EwKind::SubI, std::nullopt, o.getLhs(), o.getRhs());
    } else if (auto o = llvm::dyn_cast<mlir::arith::XOrIOp>(def)) {
      matched = binary(gen::EwKind::XOrI, std::nullopt, o.getLhs(), o.getRhs());
    } else if (auto o = llvm::dyn_cast<mlir::arith::MaxSIOp>(def)) {
      matched =
          binary(gen::EwKind::MaxSI, std::nullopt, o.getLhs(), o.getRhs());
    } else if (auto o = llvm::dyn_cast<mlir::arith::MinSIOp>(def)) {
      matched =
          binary(gen::EwKind::MinSI, std::nullopt, o.getLhs(), o.getRhs());
    }
    if (!matched)
      return makeError(where(op) + " computes a body that is not one of the "
                                   "model's elementwise ops or an iota");
    return addOp(model, op, operands);
  }

  gen::Program program;
  llvm::DenseMap<mlir::Value, int> ids;
};

/// The program model of `main`, or why the reference cannot evaluate it.
Result<gen::Program> importModel(mlir::func::FuncOp main) {
  return ModelImporter().run(main);
}

/// "a,b" of the faults in `faults`.
std::string faultList(const FaultSet &faults) {
  std::string list;
  for (Fault fault : kAllFaults)
    if (faults.contains(fault))
      list += (list.empty() ? "" : ",") + std::string(toString(fault));
  return list;
}

} // namespace

int runCompileCommand(const CompileCommandOptions &options) {
  if (options.emit == EmitStage::Artifact && options.output == "-") {
    std::fprintf(stderr, "harness compile: --emit=artifact needs -o PATH\n");
    return kExitUsage;
  }
  if (!options.inputs.empty() && options.emit != EmitStage::Artifact) {
    std::fprintf(stderr, "harness compile: --input needs --emit=artifact (the "
                         "artifact carries the inputs)\n");
    return kExitUsage;
  }
  Session session;
  CompileOutput output;
  PipelineOptions pipeline;
  pipeline.kind = options.pipeline;
  pipeline.target = options.target;
  pipeline.chip = options.chip;
  pipeline.faults = options.faults;
  if (!checkPipelineTarget(pipeline))
    return kExitUsage;
  std::vector<HostTensor> inputs;
  if (!readInputFiles("harness compile", options.inputs, inputs))
    return kExitUsage;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      loadProgram(session, options.program);
  if (!module)
    return kExitUsage;
  auto main = module->lookupSymbol<mlir::func::FuncOp>("main");

  // An artifact that runs as it is: with inputs, or for a program that
  // takes none. Its expected outputs come from the reference, evaluated on
  // the model read back from the IR before the pipeline changes it.
  bool runnable = options.emit == EmitStage::Artifact &&
                  (!options.inputs.empty() || main.getNumArguments() == 0);
  rt::ExportedCase info;
  std::vector<HostTensor> expected;
  if (runnable) {
    if (!checkInputs("harness compile", options.program, main, options.inputs,
                     inputs))
      return kExitUsage;
    info.program = fs::path(options.program).filename().string();
    info.pipeline = std::string(toString(options.pipeline));
    info.target = std::string(toString(options.target));
    info.chip = options.chip.empty() ? std::string(defaultChip(options.target))
                                     : options.chip;
    info.inputs = "given";
    info.faults = faultList(options.faults);
    Result<gen::Program> model = importModel(main);
    Result<std::vector<HostTensor>> reference =
        model.ok() ? oracle::evaluate(*model, inputs)
                   : Result<std::vector<HostTensor>>(model.error());
    if (reference.ok()) {
      expected = std::move(*reference);
      info.tolerances = oracle::outputTolerances(*model);
    } else {
      info.hasReference = false;
      info.noReferenceNote = oneLine(reference.message());
    }
  }

  if (std::optional<int> failed =
          compileProgram(session, *module, options.program, pipeline,
                         options.emit, output, options.crashReproducer))
    return *failed;
  if (options.emit == EmitStage::Artifact) {
    rt::Artifact &artifact = output.artifact;
    if (runnable) {
      artifact.inputs = std::move(inputs);
      artifact.expected = std::move(expected);
      rt::setExportedCase(artifact, info);
    }
    // writeArtifact verifies first (inputs and expected outputs against
    // the plan) and writes atomically: a failure leaves no file.
    if (Status s = rt::writeArtifact(options.output, artifact); !s.ok()) {
      std::fprintf(stderr, "harness compile: %s\n", s.message().c_str());
      return kExitUsage;
    }
    if (runnable) {
      std::string carries =
          info.hasReference
              ? "the reference's " +
                    counted(artifact.expected.size(), "expected output")
              : "no reference outputs (" + info.noReferenceNote +
                    "): sift-run runs it without comparing";
      std::printf(
          "%s: case %s, %s, %s\n", options.output.c_str(), info.name().c_str(),
          counted(artifact.inputs.size(), "input").c_str(), carries.c_str());
    }
    return kExitOk;
  }
  if (options.output == "-") {
    std::fwrite(output.text.data(), 1, output.text.size(), stdout);
    return kExitOk;
  }
  if (Status s = writeFileAtomic(
          options.output, reinterpret_cast<const uint8_t *>(output.text.data()),
          output.text.size());
      !s.ok()) {
    std::fprintf(stderr, "harness compile: %s\n", s.message().c_str());
    return kExitUsage;
  }
  return kExitOk;
}

int runRunCommand(const RunOptions &options) {
  std::string pipelineName(toString(options.pipeline));
  bool gpuPipeline = options.pipeline != PipelineKind::Cpu;
  if (!gpuPipeline && options.device != rt::DeviceKind::Cpu) {
    std::fprintf(stderr,
                 "harness run: the cpu pipeline compiles for the host; run "
                 "it with --device=cpu, or pick a GPU pipeline "
                 "(--pipeline=tileandfuse or distribute) for --device=%s\n",
                 std::string(rt::toString(options.device)).c_str());
    return kExitUsage;
  }
  if (gpuPipeline && options.device == rt::DeviceKind::Cpu) {
    std::string inputs;
    for (const std::string &input : options.inputs)
      inputs += " --input=" + input;
    std::fprintf(stderr,
                 "harness run: the %s pipeline compiles for a GPU, which "
                 "--device=cpu cannot run; run it here with --device=cuda "
                 "(or hip), or compile an artifact here and run it on a GPU "
                 "host:\n"
                 "  harness compile %s --pipeline=%s --emit=artifact%s -o "
                 "program.siftart\n"
                 "  sift-run program.siftart --device=cuda --output-dir=%s\n",
                 pipelineName.c_str(), options.program.c_str(),
                 pipelineName.c_str(),
                 inputs.empty() ? " --input=..." : inputs.c_str(),
                 options.outputDir.c_str());
    return kExitUsage;
  }
  {
    std::error_code ec;
    if (fs::exists(options.outputDir, ec) &&
        !fs::is_directory(options.outputDir, ec)) {
      std::fprintf(stderr,
                   "harness run: --output-dir=%s: exists and is not a "
                   "folder\n",
                   options.outputDir.c_str());
      return kExitUsage;
    }
  }
  std::vector<HostTensor> inputs;
  if (!readInputFiles("harness run", options.inputs, inputs))
    return kExitUsage;
  Session session;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      loadProgram(session, options.program);
  if (!module)
    return kExitUsage;
  if (!checkInputs("harness run", options.program,
                   module->lookupSymbol<mlir::func::FuncOp>("main"),
                   options.inputs, inputs))
    return kExitUsage;

  // The device before the compile: a host without one learns it at once.
  auto device = rt::createDevice(options.device);
  if (!device.ok()) {
    std::string kind = options.device == rt::DeviceKind::Cuda  ? "CUDA"
                       : options.device == rt::DeviceKind::Hip ? "HIP"
                                                               : "cpu";
    std::fprintf(stderr, "harness run: no %s device: %s\n", kind.c_str(),
                 device.message().c_str());
    return kExitUsage;
  }
  CompileOutput output;
  PipelineOptions pipeline;
  pipeline.kind = options.pipeline;
  pipeline.target = options.device == rt::DeviceKind::Cuda  ? TargetKind::Nvptx
                    : options.device == rt::DeviceKind::Hip ? TargetKind::Amdgpu
                                                            : TargetKind::Host;
  pipeline.chip = options.chip;
  pipeline.faults = options.faults;
  if (std::optional<int> failed =
          compileProgram(session, *module, options.program, pipeline,
                         EmitStage::Artifact, output, options.crashReproducer))
    return *failed;
  // The plan's inputs are @main's arguments; check them again all the same.
  if (Status s = rt::checkInputs(output.artifact.plan, inputs); !s) {
    std::fprintf(stderr, "harness run: %s: %s\n", options.program.c_str(),
                 s.message().c_str());
    return kExitUsage;
  }
  auto results = rt::runPlan(**device, output.artifact, inputs);
  if (!results.ok()) {
    std::fprintf(stderr, "harness run: %s on %s: %s\n", options.program.c_str(),
                 (*device)->name().c_str(), results.message().c_str());
    return kExitFindings;
  }
  std::error_code ec;
  fs::create_directories(options.outputDir, ec);
  if (ec) {
    std::fprintf(stderr, "harness run: %s: %s\n", options.outputDir.c_str(),
                 ec.message().c_str());
    return kExitUsage;
  }
  for (size_t i = 0; i < results->size(); ++i) {
    std::string path =
        (fs::path(options.outputDir) / ("result" + std::to_string(i) + ".npy"))
            .string();
    if (Status s = writeNpy(path, (*results)[i]); !s.ok()) {
      std::fprintf(stderr, "harness run: %s\n", s.message().c_str());
      return kExitUsage;
    }
    std::printf("%s %s\n", path.c_str(), describe((*results)[i]).c_str());
  }
  return kExitOk;
}

} // namespace sift::harness
