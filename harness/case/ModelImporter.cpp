//===- harness/ModelImporter.cpp - Hand-written MLIR as a program model --===//
//
// The inverse of gen::emitMlir for `harness compile --input` and `harness
// run` (ModelImporter.h).
//
//===----------------------------------------------------------------------===//
#include "harness/case/ModelImporter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "pipelines/Dialect/SiftDialect.h"
#include "llvm/ADT/DenseMap.h"

namespace sift::harness {

namespace {

/// The element type of a scalar MLIR type sift tensors hold.
std::optional<ElementType> elementTypeOf(mlir::Type type) {
  if (type.isF16())
    return ElementType::F16;
  if (type.isBF16())
    return ElementType::BF16;
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

} // namespace

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


namespace {

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
/// The body of a linalg.generic read as one of the model's elementwise
/// ops or an iota: the op (`model`) and the generic's inputs it reads
/// (`operands`).
class GenericBody {
public:
  GenericBody(mlir::linalg::GenericOp generic)
      : body(generic.getRegion().front()),
        numInputs(generic.getNumDpsInputs()),
        inputs(generic.getDpsInputs()) {
    model.kind = gen::OpKind::Elementwise;
  }

  /// Whether `result` (what the body yields) is one the model knows.
  bool match(mlir::Value result) {
    mlir::Operation *def = result.getDefiningOp();
    if (!def || def->getBlock() != &body)
      return false;
    if (auto cast = llvm::dyn_cast<mlir::arith::IndexCastOp>(def))
      return matchIota(cast);
    if (auto div = llvm::dyn_cast<mlir::arith::DivFOp>(def))
      return matchSigmoid(div);
    if (std::optional<bool> matched = matchUnary(def))
      return *matched;
    return matchBinary(def);
  }

  gen::Op model;
  std::vector<mlir::Value> operands;

private:
  /// The generic's input a body value reads, or nullopt.
  std::optional<size_t> inputOf(mlir::Value value) {
    auto argument = llvm::dyn_cast<mlir::BlockArgument>(value);
    if (!argument || argument.getOwner() != &body ||
        argument.getArgNumber() >= numInputs)
      return std::nullopt;
    return argument.getArgNumber();
  }

  static mlir::Attribute constantOf(mlir::Value value) {
    if (auto constant = value.getDefiningOp<mlir::arith::ConstantOp>())
      return constant.getValue();
    return nullptr;
  }

  static bool isOne(mlir::Value value) {
    auto attr = llvm::dyn_cast_or_null<mlir::FloatAttr>(constantOf(value));
    return attr && attr.getValue().isExactlyValue(1.0);
  }

  bool unary(gen::EwKind kind, mlir::Value operand) {
    std::optional<size_t> input = inputOf(operand);
    if (!input)
      return false;
    model.ew = kind;
    operands = {inputs[*input]};
    return true;
  }

  bool binary(gen::EwKind kind, std::optional<gen::EwKind> withConst,
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
  }

  /// An iota: the index of a dimension, cast, with no input.
  bool matchIota(mlir::arith::IndexCastOp cast) {
    auto index = cast.getIn().getDefiningOp<mlir::linalg::IndexOp>();
    if (!index || numInputs != 0)
      return false;
    model.kind = gen::OpKind::Iota;
    model.dimension = static_cast<int64_t>(index.getDim());
    return true;
  }

  /// Sigmoid: 1 / (1 + exp(-x)), the addition either way round.
  bool matchSigmoid(mlir::arith::DivFOp div) {
    auto add = div.getRhs().getDefiningOp<mlir::arith::AddFOp>();
    if (!isOne(div.getLhs()) || !add)
      return false;
    mlir::Value other = isOne(add.getLhs())   ? add.getRhs()
                        : isOne(add.getRhs()) ? add.getLhs()
                                              : mlir::Value();
    auto exp =
        other ? other.getDefiningOp<mlir::math::ExpOp>() : mlir::math::ExpOp();
    auto neg = exp ? exp.getOperand().getDefiningOp<mlir::arith::NegFOp>()
                   : mlir::arith::NegFOp();
    return neg && unary(gen::EwKind::Sigmoid, neg.getOperand());
  }

  /// A unary op of the model (nullopt: not one of them).
  std::optional<bool> matchUnary(mlir::Operation *def) {
    if (auto o = llvm::dyn_cast<mlir::arith::NegFOp>(def))
      return unary(gen::EwKind::NegF, o.getOperand());
    if (auto o = llvm::dyn_cast<mlir::math::AbsFOp>(def))
      return unary(gen::EwKind::AbsF, o.getOperand());
    if (auto o = llvm::dyn_cast<mlir::arith::ExtFOp>(def))
      return unary(gen::EwKind::ExtF, o.getIn());
    if (auto o = llvm::dyn_cast<mlir::arith::TruncFOp>(def))
      return unary(gen::EwKind::TruncF, o.getIn());
    if (auto o = llvm::dyn_cast<mlir::arith::SIToFPOp>(def))
      return unary(gen::EwKind::SIToFP, o.getIn());
    if (auto o = llvm::dyn_cast<mlir::arith::ExtSIOp>(def))
      return unary(gen::EwKind::ExtSI, o.getIn());
    if (auto o = llvm::dyn_cast<mlir::arith::TruncIOp>(def))
      return unary(gen::EwKind::TruncI, o.getIn());
    return std::nullopt;
  }

  /// A binary op of the model, of two inputs or an input and a constant.
  bool matchBinary(mlir::Operation *def) {
    auto both = [&](auto o, gen::EwKind kind,
                    std::optional<gen::EwKind> withConst = std::nullopt) {
      return binary(kind, withConst, o.getLhs(), o.getRhs());
    };
    if (auto o = llvm::dyn_cast<mlir::arith::AddFOp>(def))
      return both(o, gen::EwKind::AddF, gen::EwKind::AddConstF);
    if (auto o = llvm::dyn_cast<mlir::arith::MulFOp>(def))
      return both(o, gen::EwKind::MulF, gen::EwKind::MulConstF);
    if (auto o = llvm::dyn_cast<mlir::arith::SubFOp>(def))
      return both(o, gen::EwKind::SubF);
    if (auto o = llvm::dyn_cast<mlir::arith::MaximumFOp>(def))
      return both(o, gen::EwKind::MaximumF);
    if (auto o = llvm::dyn_cast<mlir::arith::MinimumFOp>(def))
      return both(o, gen::EwKind::MinimumF);
    if (auto o = llvm::dyn_cast<mlir::arith::AddIOp>(def))
      return both(o, gen::EwKind::AddI, gen::EwKind::AddConstI);
    if (auto o = llvm::dyn_cast<mlir::arith::MulIOp>(def))
      return both(o, gen::EwKind::MulI, gen::EwKind::MulConstI);
    if (auto o = llvm::dyn_cast<mlir::arith::SubIOp>(def))
      return both(o, gen::EwKind::SubI);
    if (auto o = llvm::dyn_cast<mlir::arith::XOrIOp>(def))
      return both(o, gen::EwKind::XOrI);
    if (auto o = llvm::dyn_cast<mlir::arith::MaxSIOp>(def))
      return both(o, gen::EwKind::MaxSI);
    if (auto o = llvm::dyn_cast<mlir::arith::MinSIOp>(def))
      return both(o, gen::EwKind::MinSI);
    return false;
  }

  mlir::Block &body;
  size_t numInputs;
  llvm::SmallVector<mlir::Value> inputs;
};

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
                       ", not a static tensor of f16, bf16, f32, f64, i32 or i64");
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

  /// A sift.sort: its dimension and its order or comparator.
  Status importSort(sift::SortOp sort) {
    gen::Op model;
    model.kind = gen::OpKind::Sort;
    model.dimension = sort.getDimension();
    if (sort.hasComparator()) {
      std::optional<gen::ComparatorKind> comparator = comparatorOf(sort);
      if (!comparator)
        return makeError(where(sort) + " has a comparator region that is "
                                     "none of the model's comparators");
      model.order = gen::SortOrder::Comparator;
      model.comparator = *comparator;
    } else if (std::optional<sift::SortOrder> order = sort.getOrder()) {
      model.order = *order == sift::SortOrder::Ascending
                        ? gen::SortOrder::Ascending
                        : gen::SortOrder::Descending;
    } else {
      return makeError(where(sort) + " has neither an order nor a "
                                   "comparator");
    }
    llvm::SmallVector<mlir::Value> operands(sort.getOutputs());
    return addOp(model, sort, operands);
  }

  /// A tensor.extract_slice with static offsets, sizes and strides that
  /// keeps every dimension.
  Status importSlice(mlir::tensor::ExtractSliceOp slice) {
    if (!slice.getOffsets().empty() || !slice.getSizes().empty() ||
        !slice.getStrides().empty())
      return makeError(where(slice) + " has dynamic offsets, sizes or "
                                   "strides");
    if (slice.getSourceType().getRank() != slice.getType().getRank())
      return makeError(where(slice) + " drops dimensions");
    gen::Op model;
    model.kind = gen::OpKind::Slice;
    model.offsets.assign(slice.getStaticOffsets().begin(),
                         slice.getStaticOffsets().end());
    model.sizes.assign(slice.getStaticSizes().begin(),
                       slice.getStaticSizes().end());
    model.strides.assign(slice.getStaticStrides().begin(),
                         slice.getStaticStrides().end());
    return addOp(model, slice, {slice.getSource()});
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
    if (auto sort = llvm::dyn_cast<sift::SortOp>(op))
      return importSort(sort);
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
    if (auto slice = llvm::dyn_cast<mlir::tensor::ExtractSliceOp>(op))
      return importSlice(slice);
    if (auto generic = llvm::dyn_cast<mlir::linalg::GenericOp>(op))
      return importGeneric(generic);
    return makeError(where(op) + " has no counterpart in the program model");
  }

  /// The integer comparator `cmp` computes of the region's arguments `lhs`
  /// and `rhs`: a < b or a > b (signed), or (a & 255) < (b & 255).
  static std::optional<gen::ComparatorKind>
  integerComparatorOf(mlir::arith::CmpIOp cmp, mlir::Value lhs,
                      mlir::Value rhs) {
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
    if (auto cmp = less.getDefiningOp<mlir::arith::CmpIOp>())
      return integerComparatorOf(cmp, lhs, rhs);

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
    GenericBody read(generic);
    if (!read.match(yield.getOperand(0)))
      return makeError(where(op) + " computes a body that is not one of the "
                                   "model's elementwise ops or an iota");
    return addOp(read.model, op, read.operands);
  }

  gen::Program program;
  llvm::DenseMap<mlir::Value, int> ids;
};

} // namespace

Result<gen::Program> importModel(mlir::func::FuncOp main) {
  return ModelImporter().run(main);
}

} // namespace sift::harness
