//===- RowKernels.cpp - Building blocks of cooperative row kernels --------===//
//
// The bitonic network of the workgroup kernels: log2(P) stages of s steps
// each over P (key, slot) pairs in workgroup memory; in step (s, t) slot e
// is paired with e ^ (1 << (s - 1 - t)) and the pair is put in the
// direction of its block of 2^s slots. The P / 2 pairs of a step are dealt
// to the threads in order (pair p: slots p with a 0 inserted at the step's
// bit, and that + the distance), so every thread compares and consecutive
// threads touch consecutive slots (no bank conflicts); every step is
// separated from the next by a barrier. Keys move with their slots, the
// element numbers, so comparing (key, slot) makes the network stable,
// which a plain bitonic network is not, and reads no key indirectly.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Kernels/RowKernels/RowKernels.h"

#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;

int64_t sift::RowOp::rows() const {
  int64_t rows = 1;
  for (int64_t size : domain)
    rows *= size;
  return rows;
}

/// A whole buffer of its own: a function argument or an allocation (not a
/// view that may alias another).
static bool isWholeBuffer(Value v) {
  if (isa<BlockArgument>(v))
    return true;
  return isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(v.getDefiningOp());
}

void sift::foldCopiesIntoRow(RowOp &row) {
  if (!isa<SortOp>(row.op))
    return;
  for (Operation *prev = row.op->getPrevNode(); prev;
       prev = prev->getPrevNode()) {
    auto copy = dyn_cast<linalg::CopyOp>(prev);
    if (!copy || copy.getDpsInputs().size() != 1 ||
        copy.getDpsInits().size() != 1)
      return;
    Value from = copy.getDpsInputs()[0], to = copy.getDpsInits()[0];
    auto it = llvm::find(row.staged, to);
    if (it == row.staged.end())
      return;
    size_t i = it - row.staged.begin();
    auto fromType = dyn_cast<MemRefType>(from.getType());
    if (row.sources[i] != to || !fromType || fromType != to.getType() ||
        !fromType.getLayout().isIdentity() ||
        llvm::is_contained(row.staged, from) || !isWholeBuffer(from) ||
        !isWholeBuffer(to))
      return;
    row.sources[i] = from;
    row.foldedCopies.push_back(copy);
  }
}

namespace {

/// Whether `op` fills its one output (`operand`, the whole buffer) with
/// each element's index along `dim`, cast to the element type.
bool fillsIotaAlong(Operation *op, Value operand, int64_t dim) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  return generic && generic.getNumDpsInits() == 1 &&
         generic.getDpsInits()[0] == operand && sift::isIotaAlong(generic, dim);
}

/// Whether the copy `copy` reads or writes `buffer`.
bool copyTouches(linalg::CopyOp copy, Value buffer) {
  return llvm::is_contained(copy->getOperands(), buffer);
}

} // namespace

bool sift::isIotaAlong(linalg::GenericOp generic, int64_t dim) {
  if (generic.getNumDpsInputs() != 0 || generic.getNumDpsInits() != 1 ||
      !generic.getIndexingMapsArray().front().isIdentity() ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !isa<IntegerType>(getElementTypeOrSelf(generic.getDpsInits()[0])))
    return false;
  Block &body = generic.getRegion().front();
  if (body.getOperations().size() != 3)
    return false;
  auto index = dyn_cast<linalg::IndexOp>(body.front());
  Operation *cast = index ? index->getNextNode() : nullptr;
  auto yield = dyn_cast_or_null<linalg::YieldOp>(body.getTerminator());
  return index && static_cast<int64_t>(index.getDim()) == dim && cast &&
         isa<arith::IndexCastOp, arith::IndexCastUIOp>(cast) &&
         cast->getOperand(0) == index.getResult() && yield &&
         yield.getNumOperands() == 1 &&
         yield.getOperand(0) == cast->getResult(0);
}

void sift::foldIotasIntoRow(RowOp &row) {
  row.iotas.assign(row.staged.size(), false);
  if (!isa<SortOp>(row.op))
    return;
  for (Operation *prev = row.op->getPrevNode(); prev;
       prev = prev->getPrevNode()) {
    // Copies are passed over; one between a fill and the sort that touches
    // the fill's operand keeps the fill (checked when it is found).
    if (isa<linalg::CopyOp>(prev))
      continue;
    bool found = false;
    for (size_t i = 1; i < row.staged.size(); ++i) {
      Value operand = row.staged[i];
      if (row.iotas[i] || row.sources[i] != operand ||
          !isWholeBuffer(operand) || !fillsIotaAlong(prev, operand, row.dim))
        continue;
      // Nothing between the fill and the sort may read or write it.
      bool touched = false;
      for (Operation *between = prev->getNextNode(); between != row.op;
           between = between->getNextNode())
        if (auto copy = dyn_cast<linalg::CopyOp>(between))
          touched |= copyTouches(copy, operand);
      if (touched)
        continue;
      row.iotas[i] = true;
      row.foldedIotas.push_back(prev);
      found = true;
      break;
    }
    if (!found)
      return;
  }
}

Value sift::iotaValue(OpBuilder &b, Location loc, Value position, Type type) {
  unsigned from = position.getType().getIntOrFloatBitWidth();
  unsigned to = type.getIntOrFloatBitWidth();
  if (to > from)
    return arith::ExtUIOp::create(b, loc, type, position);
  if (to < from)
    return arith::TruncIOp::create(b, loc, type, position);
  return position;
}

FailureOr<sift::RowOp> sift::describeRow(Operation *op) {
  RowOp row;
  row.op = op;
  MemRefType type;
  if (auto sort = dyn_cast<SortOp>(op)) {
    row.dim = sort.getDimension();
    row.staged.assign(sort.getOutputs().begin(), sort.getOutputs().end());
    type = cast<MemRefType>(sort.getKey().getType());
    row.before = [sort](OpBuilder &b, Location loc, Value x, Value y) {
      return buildSortLess(b, loc, sort, x, y);
    };
  } else {
    auto topk = cast<TopkOp>(op);
    row.dim = topk.getDimension();
    row.staged.push_back(topk.getInput());
    type = cast<MemRefType>(topk.getInput().getType());
    row.before = [topk](OpBuilder &b, Location loc, Value x, Value y) {
      return buildTopkBetter(b, loc, topk, x, y);
    };
  }
  if (!type.hasStaticShape())
    return op->emitOpError("a row kernel needs static shapes, found ") << type;
  row.sources = row.staged;
  row.n = type.getDimSize(row.dim);
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (d != row.dim)
      row.domain.push_back(type.getDimSize(d));
  return row;
}

SmallVector<Value> sift::delinearizeRow(OpBuilder &b, Location loc,
                                        Value linear,
                                        ArrayRef<int64_t> domain) {
  SmallVector<Value> ivs(domain.size());
  for (int64_t d = static_cast<int64_t>(domain.size()) - 1; d >= 0; --d) {
    Value size = arith::ConstantIndexOp::create(b, loc, domain[d]);
    ivs[d] = arith::RemUIOp::create(b, loc, linear, size);
    linear = arith::DivUIOp::create(b, loc, linear, size);
  }
  return ivs;
}

SmallVector<Value> sift::rowElementIndices(ArrayRef<Value> rowIvs,
                                           int64_t dim, Value position) {
  SmallVector<Value> indices(rowIvs.begin(), rowIvs.end());
  indices.insert(indices.begin() + dim, position);
  return indices;
}

void sift::forEachOfThread(
    OpBuilder &b, Location loc, Value tid, Value upper, Value threads,
    function_ref<void(OpBuilder &, Location, Value)> body) {
  scf::ForOp::create(b, loc, tid, upper, threads, ValueRange{},
                     [&](OpBuilder &b, Location loc, Value e, ValueRange) {
                       body(b, loc, e);
                       scf::YieldOp::create(b, loc);
                     });
}

Value sift::buildKeyIndexBefore(OpBuilder &b, Location loc,
                                const KeyBefore &before, Value ka, Value ia,
                                Value kb, Value ib) {
  Value ab = before(b, loc, ka, kb);
  Value ba = before(b, loc, kb, ka);
  Value notBa = arith::XOrIOp::create(
      b, loc, ba, arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
  Value byIndex =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, ia, ib);
  Value tie = arith::AndIOp::create(b, loc, notBa, byIndex);
  return arith::OrIOp::create(b, loc, ab, tie);
}

namespace {

/// (key a, slot a) goes before (key b, slot b): padding (slot >= count)
/// after every element, in slot order among itself; the rest by (key,
/// slot). Branch-free: a padding key is compared too, and ignored.
Value pairBefore(OpBuilder &b, Location loc, const sift::KeyBefore &before,
                 Value count, Value ka, Value sa, Value kb, Value sb) {
  Value aPad = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, sa,
                                     count);
  Value bPad = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, sb,
                                     count);
  Value bySlot =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, sa, sb);
  Value byKey = sift::buildKeyIndexBefore(b, loc, before, ka, sa, kb, sb);
  Value aReal = arith::SelectOp::create(
      b, loc, bPad, arith::ConstantOp::create(b, loc, b.getBoolAttr(true)),
      byKey);
  Value aPadded = arith::AndIOp::create(b, loc, bPad, bySlot);
  return arith::SelectOp::create(b, loc, aPad, aPadded, aReal);
}

/// The slots of pair p of a step of distance j: e (p with a 0 inserted at
/// j's bit) and e + j.
std::pair<Value, Value> pairSlots(OpBuilder &b, Location loc, Value p,
                                  Value j) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value low =
      arith::AndIOp::create(b, loc, p, arith::SubIOp::create(b, loc, j, one));
  Value e = arith::AddIOp::create(
      b, loc,
      arith::ShLIOp::create(b, loc, arith::SubIOp::create(b, loc, p, low),
                            one),
      low);
  return {e, arith::AddIOp::create(b, loc, e, j)};
}

/// One compare-exchange of the network: pair p of the step of distance
/// j (= 1 << shift) in a stage of blocks of `block` slots.
void compareExchange(OpBuilder &b, Location loc, Value keys, Value slots,
                     Value count, const sift::KeyBefore &before, Value p,
                     Value j, Value block) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  auto [e, l] = pairSlots(b, loc, p, j);
  Value ke = memref::LoadOp::create(b, loc, keys, e);
  Value se = memref::LoadOp::create(b, loc, slots, e);
  Value kl = memref::LoadOp::create(b, loc, keys, l);
  Value sl = memref::LoadOp::create(b, loc, slots, l);
  Value up = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                   arith::AndIOp::create(b, loc, e, block),
                                   zero);
  // An ascending block swaps when l's pair goes before e's.
  auto pick = [&](Value x, Value y) -> Value {
    return arith::SelectOp::create(b, loc, up, x, y);
  };
  Value swap = pairBefore(b, loc, before, count, pick(kl, ke), pick(sl, se),
                          pick(ke, kl), pick(se, sl));
  scf::IfOp::create(b, loc, swap, [&](OpBuilder &b, Location loc) {
    memref::StoreOp::create(b, loc, kl, keys, e);
    memref::StoreOp::create(b, loc, ke, keys, l);
    memref::StoreOp::create(b, loc, sl, slots, e);
    memref::StoreOp::create(b, loc, se, slots, l);
    scf::YieldOp::create(b, loc);
  });
}

} // namespace

namespace {

/// The stages and steps of a bitonic network over `padded` slots: for each
/// step, `pairStep(b, loc, p, j, block)` for the pairs p of thread `tid`
/// (tid, tid + threads, ...; distance j, blocks of `block` slots), then a
/// barrier unless `barriers` is false.
void forEachBitonicPair(
    OpBuilder &b, Location loc, Value tid, Value threads, int64_t padded,
    bool barriers,
    function_ref<void(OpBuilder &, Location, Value, Value, Value)> pairStep) {
  int64_t stages = 0;
  while ((int64_t{1} << stages) < padded)
    ++stages;
  if (stages == 0)
    return;
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value pairs = arith::ConstantIndexOp::create(b, loc, padded / 2);
  Value end = arith::ConstantIndexOp::create(b, loc, stages + 1);
  scf::ForOp::create(
      b, loc, one, end, one, ValueRange{},
      [&](OpBuilder &b, Location loc, Value s, ValueRange) {
        Value block = arith::ShLIOp::create(b, loc, one, s);
        scf::ForOp::create(
            b, loc, zero, s, one, ValueRange{},
            [&](OpBuilder &b, Location loc, Value t, ValueRange) {
              Value shift = arith::SubIOp::create(
                  b, loc, arith::SubIOp::create(b, loc, s, one), t);
              Value j = arith::ShLIOp::create(b, loc, one, shift);
              sift::forEachOfThread(b, loc, tid, pairs, threads,
                                    [&](OpBuilder &b, Location loc, Value p) {
                                      pairStep(b, loc, p, j, block);
                                    });
              if (barriers)
                gpu::BarrierOp::create(b, loc);
              scf::YieldOp::create(b, loc);
            });
        scf::YieldOp::create(b, loc);
      });
}

} // namespace

void sift::buildBitonicSort(OpBuilder &b, Location loc, Value tid,
                            Value threads, int64_t padded, Value keys,
                            Value slots, Value count, const KeyBefore &before,
                            bool barriers) {
  forEachBitonicPair(
      b, loc, tid, threads, padded, barriers,
      [&](OpBuilder &b, Location loc, Value p, Value j, Value block) {
        compareExchange(b, loc, keys, slots, count, before, p, j, block);
      });
}

Value sift::compositeSlot(OpBuilder &b, Location loc, Value e) {
  // Bits 3-7 of e flip its low five: a warp's accesses of a phase land on
  // different banks (RowKernels.h).
  Value spread = arith::AndIOp::create(
      b, loc,
      arith::ShRUIOp::create(b, loc, e,
                             arith::ConstantIndexOp::create(b, loc, 3)),
      arith::ConstantIndexOp::create(b, loc, 31));
  return arith::XOrIOp::create(b, loc, e, spread);
}

llvm::SmallVector<sift::BitonicPhase> sift::bitonicPhases(int64_t stages,
                                                          int64_t width) {
  llvm::SmallVector<BitonicPhase> phases;
  BitonicPhase first;
  for (int64_t s = 1; s <= std::min(stages, width); ++s)
    for (int64_t bit = s - 1; bit >= 0; --bit)
      first.steps.push_back({s, bit});
  phases.push_back(first);
  for (int64_t s = width + 1; s <= stages; ++s)
    for (int64_t hi = s - 1; hi >= 0; hi -= width) {
      BitonicPhase phase;
      phase.lo = std::max<int64_t>(0, hi - width + 1);
      for (int64_t bit = hi; bit >= phase.lo; --bit)
        phase.steps.push_back({s, bit});
      phases.push_back(phase);
    }
  return phases;
}

int64_t sift::compositeBitonicWidth(int64_t threads, int64_t padded) {
  int64_t width = 1;
  while (width < kCompositeBitonicMaxWidth &&
         (threads << (width + 1)) <= padded)
    ++width;
  return width;
}

void sift::buildCompositeBitonicSort(OpBuilder &b, Location loc, Value tid,
                                     int64_t threads, int64_t padded,
                                     Value keys, bool barriers) {
  int64_t stages = llvm::Log2_64(static_cast<uint64_t>(padded));
  if (stages == 0)
    return;
  int64_t width = std::min(compositeBitonicWidth(threads, padded), stages);
  int64_t held = int64_t{1} << width;
  auto constant = [&](OpBuilder &b, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  for (const BitonicPhase &phase : bitonicPhases(stages, width)) {
    int64_t lo = phase.lo;
    forEachOfThread(
        b, loc, tid, constant(b, padded / held), constant(b, threads),
        [&](OpBuilder &b, Location loc, Value group) {
          // The group's slots: its number's low bits below lo, the rest
          // above the window, the window's bits the register number.
          Value low =
              arith::AndIOp::create(b, loc, group, constant(b, (1 << lo) - 1));
          Value high = arith::ShLIOp::create(
              b, loc, arith::ShRUIOp::create(b, loc, group, constant(b, lo)),
              constant(b, lo + width));
          Value base = arith::OrIOp::create(b, loc, low, high);
          SmallVector<Value> slots, values;
          for (int64_t m = 0; m < held; ++m) {
            Value at =
                arith::AddIOp::create(b, loc, base, constant(b, m << lo));
            slots.push_back(compositeSlot(b, loc, at));
            values.push_back(
                memref::LoadOp::create(b, loc, keys, slots.back()));
          }
          for (auto [s, bit] : phase.steps) {
            int64_t block = int64_t{1} << s;
            // Ascending where the slot's stage bit is 0: a bit of the
            // window is known per register, one above it per group.
            Value groupUp;
            if (s < stages && (s < lo || s >= lo + width))
              groupUp = arith::CmpIOp::create(
                  b, loc, arith::CmpIPredicate::eq,
                  arith::AndIOp::create(b, loc, base, constant(b, block)),
                  constant(b, 0));
            int64_t d = int64_t{1} << (bit - lo);
            for (int64_t m = 0; m < held; ++m) {
              if (m & d)
                continue;
              Value x = values[m], y = values[m | d];
              Value min = arith::MinUIOp::create(b, loc, x, y);
              Value max = arith::MaxUIOp::create(b, loc, x, y);
              if (groupUp) {
                values[m] = arith::SelectOp::create(b, loc, groupUp, min, max);
                values[m | d] =
                    arith::SelectOp::create(b, loc, groupUp, max, min);
                continue;
              }
              bool up = s == stages || ((m << lo) & block) == 0;
              values[m] = up ? min : max;
              values[m | d] = up ? max : min;
            }
          }
          for (int64_t m = 0; m < held; ++m)
            memref::StoreOp::create(b, loc, values[m], keys, slots[m]);
        });
    if (barriers)
      gpu::BarrierOp::create(b, loc);
  }
}

void sift::buildLaunch(OpBuilder &b, Location loc, int64_t blocks,
                       int64_t threads,
                       function_ref<void(OpBuilder &, Value, Value)> body) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto launch = gpu::LaunchOp::create(
      b, loc, arith::ConstantIndexOp::create(b, loc, blocks), one, one,
      arith::ConstantIndexOp::create(b, loc, threads), one, one);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(&launch.getBody().front());
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(&launch.getBody().front());
  body(b, launch.getBlockIds().x, launch.getThreadIds().x);
}

MemRefType sift::workgroupMemRefType(MLIRContext *context, int64_t size,
                                     Type element) {
  auto space = gpu::AddressSpaceAttr::get(
      context, gpu::GPUDialect::getWorkgroupAddressSpace());
  return MemRefType::get({size}, element, MemRefLayoutAttrInterface(), space);
}

int64_t sift::nextPowerOfTwo(int64_t n) {
  int64_t p = 1;
  while (p < n)
    p *= 2;
  return p;
}

Value sift::buildOrderBits(OpBuilder &b, Location loc, Value value,
                           bool invert, bool halfNanLayout) {
  Type keyType = value.getType();
  unsigned width = keyType.getIntOrFloatBitWidth();
  Type bitsType = b.getIntegerType(width);
  Value bits = arith::BitcastOp::create(b, loc, bitsType, value);
  Value sign = arith::ConstantIntOp::create(
      b, loc, bitsType, APInt::getSignMask(width).getSExtValue());
  Value ones = arith::ConstantIntOp::create(b, loc, bitsType, -1);
  Value up;
  if (isa<FloatType>(keyType)) {
    Value zeroValue = arith::ConstantOp::create(b, loc, keyType,
                                                b.getFloatAttr(keyType, 0.0));
    Value isZero = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                         value, zeroValue);
    Value isNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO,
                                        value, value);
    if (halfNanLayout && width == 16) {
      // Fault bf16-order-f16-layout: |bits| above f16's infinity.
      Value magnitude = arith::AndIOp::create(
          b, loc, bits, arith::ConstantIntOp::create(b, loc, bitsType, 0x7fff));
      isNan = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ugt, magnitude,
          arith::ConstantIntOp::create(b, loc, bitsType, 0x7c00));
    }
    Value zero = arith::ConstantIntOp::create(b, loc, bitsType, 0);
    bits = arith::SelectOp::create(b, loc, isZero, zero, bits);
    Value negative = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        arith::AndIOp::create(b, loc, bits, sign), zero);
    // Negative floats: every bit flipped (larger magnitude = smaller);
    // positive: the sign bit set (above every negative).
    up = arith::SelectOp::create(b, loc, negative,
                                 arith::XOrIOp::create(b, loc, bits, ones),
                                 arith::OrIOp::create(b, loc, bits, sign));
    up = arith::SelectOp::create(b, loc, isNan, ones, up);
  } else {
    up = arith::XOrIOp::create(b, loc, bits, sign);
  }
  return invert ? arith::XOrIOp::create(b, loc, up, ones) : up;
}

Value sift::RowKernelBuilder::index(OpBuilder &b, int64_t v) const {
  return arith::ConstantIndexOp::create(b, loc, v);
}
Value sift::RowKernelBuilder::i32(OpBuilder &b, int64_t v) const {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
}
Value sift::RowKernelBuilder::i64(OpBuilder &b, int64_t v) const {
  return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
}
Value sift::RowKernelBuilder::cmp(OpBuilder &b, arith::CmpIPredicate p, Value x,
                                  Value y) const {
  return arith::CmpIOp::create(b, loc, p, x, y);
}
Value sift::RowKernelBuilder::add(OpBuilder &b, Value x, Value y) const {
  return arith::AddIOp::create(b, loc, x, y);
}
Value sift::RowKernelBuilder::sub(OpBuilder &b, Value x, Value y) const {
  return arith::SubIOp::create(b, loc, x, y);
}
Value sift::RowKernelBuilder::mul(OpBuilder &b, Value x, Value y) const {
  return arith::MulIOp::create(b, loc, x, y);
}
Value sift::RowKernelBuilder::minu(OpBuilder &b, Value x, Value y) const {
  return arith::MinUIOp::create(b, loc, x, y);
}
Value sift::RowKernelBuilder::toIndex(OpBuilder &b, Value v) const {
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v);
}

sift::RowKernelBuilder::Tile
sift::RowKernelBuilder::tileOf(OpBuilder &b, Value block, int64_t perRow,
                               int64_t size, const RowOp &row) const {
  Tile t;
  t.r = arith::DivUIOp::create(b, loc, block, index(b, perRow));
  t.number = arith::RemUIOp::create(b, loc, block, index(b, perRow));
  t.start = mul(b, t.number, index(b, size));
  t.length = minu(b, index(b, size), sub(b, index(b, row.n), t.start));
  t.rowIvs = delinearizeRow(b, loc, t.r, row.domain);
  return t;
}

Value sift::RowKernelBuilder::lowerBound(
    OpBuilder &b, Value lo, Value hi,
    function_ref<Value(OpBuilder &, Value)> goesOn) const {
  Type indexType = b.getIndexType();
  auto search = scf::WhileOp::create(
      b, loc, TypeRange{indexType, indexType}, ValueRange{lo, hi},
      [&](OpBuilder &b, Location loc, ValueRange bounds) {
        Value more = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           bounds[0], bounds[1]);
        scf::ConditionOp::create(b, loc, more, bounds);
      },
      [&](OpBuilder &b, Location loc, ValueRange bounds) {
        Value lo = bounds[0], hi = bounds[1];
        Value mid = arith::ShRUIOp::create(
            b, loc, arith::AddIOp::create(b, loc, lo, hi), index(b, 1));
        Value on = goesOn(b, mid);
        Value next = arith::AddIOp::create(b, loc, mid, index(b, 1));
        scf::YieldOp::create(
            b, loc,
            ValueRange{arith::SelectOp::create(b, loc, on, next, lo),
                       arith::SelectOp::create(b, loc, on, hi, mid)});
      });
  return search.getResult(0);
}

void sift::RowKernelBuilder::onThreadZero(
    OpBuilder &b, Value tid, function_ref<void(OpBuilder &)> body) const {
  Value first = cmp(b, arith::CmpIPredicate::eq, tid, index(b, 0));
  scf::IfOp::create(b, loc, first, [&](OpBuilder &b, Location) {
    body(b);
    scf::YieldOp::create(b, loc);
  });
}
