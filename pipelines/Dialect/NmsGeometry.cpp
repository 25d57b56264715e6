//===- NmsGeometry.cpp - Boxes and IoU of sift.nms, as IR -----------------===//
//
// What every lowering of sift.nms_per_class (the scalar implementation,
// workgroup_row, mask_blocks) builds for a box and a pair of boxes: the
// corners of a box in its format (and under fault nms-unnormalized-corners),
// and the f32 IoU in SEMANTICS.md's order, whole or in its two halves.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Dialect/InjectedFaults.h"
#include "pipelines/Dialect/SiftDialect.h"

using namespace mlir;
using namespace sift;

/// Loads the four coordinates of box `boxes[batchAndBox..., 0..3]` into
/// `coords`, f16 widened to f32.
static void loadNmsBox(OpBuilder &b, Location loc, Value boxes,
                       ValueRange batchAndBox, Value (&coords)[4]) {
  for (int64_t i = 0; i < 4; ++i) {
    SmallVector<Value> indices(batchAndBox.begin(), batchAndBox.end());
    indices.push_back(arith::ConstantIndexOp::create(b, loc, i));
    Value v = memref::LoadOp::create(b, loc, boxes, indices);
    if (!v.getType().isF32())
      v = arith::ExtFOp::create(b, loc, b.getF32Type(), v);
    coords[i] = v;
  }
}

sift::NmsCorners sift::buildNmsCorners(OpBuilder &b, Location loc,
                                       Value boxes, ValueRange batchAndBox,
                                       bool centerPointBox) {
  Value coords[4];
  loadNmsBox(b, loc, boxes, batchAndBox, coords);
  NmsCorners box;
  if (centerPointBox) {
    // [x_center, y_center, width, height]: center -/+ size / 2, no min/max.
    Value two = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(2.0f));
    Value halfWidth = arith::DivFOp::create(b, loc, coords[2], two);
    Value halfHeight = arith::DivFOp::create(b, loc, coords[3], two);
    box.xmin = arith::SubFOp::create(b, loc, coords[0], halfWidth);
    box.xmax = arith::AddFOp::create(b, loc, coords[0], halfWidth);
    box.ymin = arith::SubFOp::create(b, loc, coords[1], halfHeight);
    box.ymax = arith::AddFOp::create(b, loc, coords[1], halfHeight);
    return box;
  }
  // [y1, x1, y2, x2], any two diagonal corners: min/max per axis (NaN
  // propagates, as arith.minimumf/maximumf do).
  box.ymin = arith::MinimumFOp::create(b, loc, coords[0], coords[2]);
  box.ymax = arith::MaximumFOp::create(b, loc, coords[0], coords[2]);
  box.xmin = arith::MinimumFOp::create(b, loc, coords[1], coords[3]);
  box.xmax = arith::MaximumFOp::create(b, loc, coords[1], coords[3]);
  return box;
}

/// Fault nms-unnormalized-corners: `[y1, x1, y2, x2]` taken as `[ymin, xmin,
/// ymax, xmax]` without min/max, so a flipped box gets a negative size.
static NmsCorners buildUnnormalizedNmsCorners(OpBuilder &b, Location loc,
                                              Value boxes,
                                              ValueRange batchAndBox) {
  Value coords[4];
  loadNmsBox(b, loc, boxes, batchAndBox, coords);
  NmsCorners box;
  box.ymin = coords[0];
  box.xmin = coords[1];
  box.ymax = coords[2];
  box.xmax = coords[3];
  return box;
}

sift::NmsOverlap sift::buildNmsOverlap(OpBuilder &b, Location loc,
                                       const NmsCorners &a,
                                       const NmsCorners &c) {
  auto area = [&](const NmsCorners &box) {
    Value height = arith::SubFOp::create(b, loc, box.ymax, box.ymin);
    Value width = arith::SubFOp::create(b, loc, box.xmax, box.xmin);
    return arith::MulFOp::create(b, loc, height, width).getResult();
  };
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  Value areaA = area(a), areaC = area(c);
  Value top = arith::MaximumFOp::create(b, loc, a.ymin, c.ymin);
  Value bottom = arith::MinimumFOp::create(b, loc, a.ymax, c.ymax);
  Value left = arith::MaximumFOp::create(b, loc, a.xmin, c.xmin);
  Value right = arith::MinimumFOp::create(b, loc, a.xmax, c.xmax);
  Value height = arith::MaximumFOp::create(
      b, loc, zero, arith::SubFOp::create(b, loc, bottom, top));
  Value width = arith::MaximumFOp::create(
      b, loc, zero, arith::SubFOp::create(b, loc, right, left));
  Value intersection = arith::MulFOp::create(b, loc, height, width);
  Value sum = arith::AddFOp::create(b, loc, areaA, areaC);
  Value unionArea = arith::SubFOp::create(b, loc, sum, intersection);
  auto notPositive = [&](Value v) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, v, zero)
        .getResult();
  };
  Value degenerate = arith::OrIOp::create(
      b, loc,
      arith::OrIOp::create(b, loc, notPositive(intersection),
                           notPositive(areaA)),
      arith::OrIOp::create(b, loc, notPositive(areaC),
                           notPositive(unionArea)));
  return {intersection, unionArea, degenerate};
}

Value sift::buildNmsIoU(OpBuilder &b, Location loc, const NmsCorners &a,
                        const NmsCorners &c) {
  NmsOverlap overlap = buildNmsOverlap(b, loc, a, c);
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  Value iou =
      arith::DivFOp::create(b, loc, overlap.intersection, overlap.unionArea);
  return arith::SelectOp::create(b, loc, overlap.degenerate, zero, iou);
}

sift::NmsCorners sift::buildNmsCorners(OpBuilder &b, Location loc,
                                       NmsPerClassOp op,
                                       ValueRange batchAndBox) {
  bool center = op.getCenterPointBox() == 1;
  if (!center && hasInjectedFault(op, Fault::NmsUnnormalizedCorners))
    return buildUnnormalizedNmsCorners(b, loc, op.getBoxes(), batchAndBox);
  return buildNmsCorners(b, loc, op.getBoxes(), batchAndBox, center);
}
