//===- generators/StableHloNms.cpp - NMS as StableHLO while loops --------===//
//
// ONNX NonMaxSuppression (docs/SEMANTICS.md) written out in StableHLO for
// emitStableHlo: f32 corners and areas per box, the pairwise "suppresses"
// matrix (IoU > threshold), candidates ordered by a total sort (score
// descending, NaN first, then box index), a stablehlo.while that visits
// one rank per step in every (batch, class) and keeps a candidate no kept
// box suppresses, then the kept boxes moved to their output rows by a
// one-hot matching; rows past the count are -1.
//
//===----------------------------------------------------------------------===//

#include "generators/StableHloWriter.h"

#include <algorithm>

namespace sift::gen::stablehlo {

template <typename Cond, typename Body>
std::vector<Val> Writer::whileLoop(const std::vector<Val> &state, Cond cond,
                                   Body body) {
  const std::string base = fresh();
  std::string names, types;
  for (size_t i = 0; i < state.size(); ++i) {
    names += (i ? ", " : "") + state[i].name;
    types += (i ? ", " : "") + state[i].type();
  }
  auto region = [&](auto emitBody, bool last) {
    std::vector<Val> args;
    std::string params;
    for (size_t i = 0; i < state.size(); ++i) {
      args.push_back(Val{fresh(), state[i].elem, state[i].shape});
      params += (i ? ", " : "") + args[i].name + ": " + args[i].type();
    }
    line("^bb0(" + params + "):");
    ++depth;
    std::vector<Val> yielded = emitBody(args);
    std::string ynames, ytypes;
    for (size_t i = 0; i < yielded.size(); ++i) {
      ynames += (i ? ", " : "") + yielded[i].name;
      ytypes += (i ? ", " : "") + yielded[i].type();
    }
    line("\"stablehlo.return\"(" + ynames + ") : (" + ytypes + ") -> ()");
    --depth;
    line(last ? "}) : (" + types + ") -> (" + types + ")" : "}, {");
  };
  line(base + ":" + std::to_string(state.size()) + " = \"stablehlo.while\"(" +
       names + ") ({");
  region([&](const std::vector<Val> &a) { return std::vector<Val>{cond(a)}; },
         false);
  region(body, true);
  std::vector<Val> results;
  for (size_t i = 0; i < state.size(); ++i)
    results.push_back(
        Val{base + "#" + std::to_string(i), state[i].elem, state[i].shape});
  return results;
}

Val Writer::dynamicSlice(const Val &a, const std::vector<Val> &starts,
                         const Shape &sizes) {
  std::vector<Val> operands{a};
  operands.insert(operands.end(), starts.begin(), starts.end());
  return gen("stablehlo.dynamic_slice", operands,
             "slice_sizes = " + i64Array(sizes), a.elem, sizes);
}

Val Writer::boxGeometry(const Op &op, const Val &boxes) {
  const Shape bn{boxes.shape[0], boxes.shape[1]};
  std::vector<Val> c;
  for (int64_t i = 0; i < 4; ++i)
    c.push_back(reshape(slice(boxes, {0, 0, i}, {bn[0], bn[1], i + 1},
                              {1, 1, 1}, {bn[0], bn[1], 1}),
                        bn));
  Val ymin, xmin, ymax, xmax;
  if (op.centerPointBox) { // [xc, yc, w, h], no reordering
    Val two = splatOf(2.0, 0, kF32, bn);
    Val hw = binary("stablehlo.divide", c[2], two);
    Val hh = binary("stablehlo.divide", c[3], two);
    xmin = binary("stablehlo.subtract", c[0], hw);
    xmax = binary("stablehlo.add", c[0], hw);
    ymin = binary("stablehlo.subtract", c[1], hh);
    ymax = binary("stablehlo.add", c[1], hh);
  } else { // [y1, x1, y2, x2], any two diagonal corners
    ymin = binary("stablehlo.minimum", c[0], c[2]);
    ymax = binary("stablehlo.maximum", c[0], c[2]);
    xmin = binary("stablehlo.minimum", c[1], c[3]);
    xmax = binary("stablehlo.maximum", c[1], c[3]);
  }
  // (Sibling arguments never both print: their order would be the
  // compiler's.)
  Val height = binary("stablehlo.subtract", ymax, ymin);
  Val area = binary("stablehlo.multiply", height,
                    binary("stablehlo.subtract", xmax, xmin));
  std::vector<Val> parts;
  for (const Val &v : {ymin, xmin, ymax, xmax, area})
    parts.push_back(reshape(v, {bn[0], bn[1], 1}));
  return concatenate(parts, 2);
}

Val Writer::suppressedBy(const Op &op, const Val &geometry, const Val &cand,
                         int64_t classes) {
  const int64_t b = geometry.shape[0], n = geometry.shape[1];
  const Shape bc{b, classes}, bcn{b, classes, n};
  // The candidate's geometry [B, C, 5], gathered at (b, cand[b, c]).
  Val at = concatenate({reshape(iota(kI64, bc, 0), {b, classes, 1}),
                        reshape(cand, {b, classes, 1})},
                       2);
  Val mine = gen("stablehlo.gather", {geometry, at},
                 "dimension_numbers = #stablehlo.gather<offset_dims = [2], "
                 "collapsed_slice_dims = [0, 1], start_index_map = [0, 1], "
                 "index_vector_dim = 2>, indices_are_sorted = false, "
                 "slice_sizes = array<i64: 1, 1, 5>",
                 kF32, {b, classes, 5});
  std::vector<Val> a, o; // the candidate's and every box's, as [B, C, N]
  for (int64_t i = 0; i < 5; ++i) {
    Val m = reshape(
        slice(mine, {0, 0, i}, {b, classes, i + 1}, {1, 1, 1}, {b, classes, 1}),
        bc);
    a.push_back(broadcast(m, {0, 1}, bcn));
    Val g =
        reshape(slice(geometry, {0, 0, i}, {b, n, i + 1}, {1, 1, 1}, {b, n, 1}),
                {b, n});
    o.push_back(broadcast(g, {0, 2}, bcn));
  }
  Val zero = splatOf(0.0, 0, kF32, bcn);
  auto extent = [&](int lo, int hi) {
    Val top = binary("stablehlo.minimum", a[hi], o[hi]);
    Val d = binary("stablehlo.subtract", top,
                   binary("stablehlo.maximum", a[lo], o[lo]));
    return binary("stablehlo.maximum", zero, d);
  };
  Val dy = extent(0, 2);
  Val inter = binary("stablehlo.multiply", dy, extent(1, 3));
  Val uni =
      binary("stablehlo.subtract", binary("stablehlo.add", a[4], o[4]), inter);
  Val odd = compare("LE", inter, zero);
  for (const Val *v : {&a[4], &o[4], &uni})
    odd = binary("stablehlo.or", odd, compare("LE", *v, zero));
  Val iou = select(odd, zero, binary("stablehlo.divide", inter, uni));
  return compare("GT", iou,
                 splat(literal(op.iouThreshold, 0, kF32), kF32, bcn));
}

// State: rank r, keep [B, C, N] i1, count [B, C] i64, kept [B, C, maxOut]
// i64, order [B, C, N] i64, valid [B, C, N] i1, geometry [B, N, 5].
std::vector<Val> Writer::nmsStep(const Op &op, const std::vector<Val> &s,
                                 int64_t maxOut) {
  const Shape &bcn = s[1].shape, bc = s[2].shape, bcm = s[3].shape;
  Val zero = splatOf(0, 0, kI64, {});
  Val cand =
      reshape(dynamicSlice(s[4], {zero, zero, s[0]}, {bc[0], bc[1], 1}), bc);
  Val ok =
      reshape(dynamicSlice(s[5], {zero, zero, s[0]}, {bc[0], bc[1], 1}), bc);
  Val hit =
      reduce(binary("stablehlo.and", s[1], suppressedBy(op, s[6], cand, bc[1])),
             "stablehlo.or", "false", {2});
  Val room = compare("LT", s[2], splatOf(0, maxOut, kI64, bc));
  Val take =
      binary("stablehlo.and",
             binary("stablehlo.and", ok, unary("stablehlo.not", hit)), room);
  auto at = [&](const Val &where, const Shape &shape) { // iota == where, taken
    Val position = iota(kI64, shape, 2);
    Val same = compare("EQ", position, broadcast(where, {0, 1}, shape));
    return binary("stablehlo.and", same, broadcast(take, {0, 1}, shape));
  };
  Val mark = at(cand, bcn), slot = at(s[2], bcm);
  Val kept = select(slot, broadcast(cand, {0, 1}, bcm), s[3]);
  Val count = binary("stablehlo.add", s[2], convert(take, kI64));
  Val next = binary("stablehlo.add", s[0], splatOf(0, 1, kI64, {}));
  return {next, binary("stablehlo.or", s[1], mark), count, kept, s[4], s[5],
          s[6]};
}

Val Writer::nmsRows(const Val &count, const Val &kept, int64_t maxOut) {
  // Group g = (b, c) writes its maxOut slots (b, c, box), or -1 past its
  // count, at row offset(g); the next group overwrites the -1 tail.
  const int64_t classes = count.shape[1], groups = count.shape[0] * classes;
  const int64_t cap = groups * maxOut;
  Val counts = reshape(count, {groups});
  Val boxes = reshape(kept, {groups, maxOut});
  Val rows = splatOf(0, -1, kI64, {cap, 3});
  Val zero = splatOf(0, 0, kI64, {});
  auto cond = [&](const std::vector<Val> &a) {
    return compare("LT", a[0], splatOf(0, groups, kI64, {}));
  };
  auto body = [&](const std::vector<Val> &a) {
    const Shape col{maxOut, 1};
    Val box = reshape(dynamicSlice(a[4], {a[0], zero}, {1, maxOut}), col);
    Val used = compare("NE", box, splatOf(0, -1, kI64, col));
    Val c = splatOf(0, classes, kI64, {});
    Val none = splatOf(0, -1, kI64, col);
    auto column = [&](const Val &scalar) {
      return select(used, broadcast(scalar, {}, col), none);
    };
    Val update =
        concatenate({column(binary("stablehlo.divide", a[0], c)),
                     column(binary("stablehlo.remainder", a[0], c)), box},
                    1);
    Val written = gen("stablehlo.dynamic_update_slice",
                      {a[1], update, a[2], zero}, "", kI64, {cap, 3});
    Val n = reshape(dynamicSlice(a[3], {a[0]}, {1}), {});
    return std::vector<Val>{
        binary("stablehlo.add", a[0], splatOf(0, 1, kI64, {})), written,
        binary("stablehlo.add", a[2], n), a[3], a[4]};
  };
  return whileLoop({zero, rows, zero, counts, boxes}, cond, body)[1];
}

void Writer::nmsOp(const Op &op) {
  const TensorType &sel = program.values[static_cast<size_t>(op.results[0])];
  const Val &boxesIn = value(op.operands[0]), &scoresIn = value(op.operands[1]);
  const int64_t maxOut = std::max<int64_t>(op.maxOutputBoxesPerClass, 0);
  const Shape bcn = scoresIn.shape, bc{bcn[0], bcn[1]};
  if (sel.shape[0] == 0 || bcn[2] == 0) {
    define(op.results[0], splatOf(0, -1, kI64, sel.shape));
    define(op.results[1], splatOf(0, 0, kI64, {1}));
    return;
  }
  Val boxes = boxesIn.elem == kF32 ? boxesIn : convert(boxesIn, kF32);
  Val scores = scoresIn.elem == kF32 ? scoresIn : convert(scoresIn, kF32);
  Val geometry = boxGeometry(op, boxes);
  // Candidates by descending score (NaN first), equal scores by box index:
  // a total order, so the sort's stability does not matter.
  const std::string base = fresh();
  Val sa{fresh(), kF32, {}}, sb{fresh(), kF32, {}}, ia{fresh(), kI64, {}},
      ib{fresh(), kI64, {}};
  Val index = iota(kI64, bcn, 2);
  line(base + ":2 = \"stablehlo.sort\"(" + scores.name + ", " + index.name +
       ") ({");
  line("^bb0(" + sa.name + ": tensor<f32>, " + sb.name + ": tensor<f32>, " +
       ia.name + ": tensor<i64>, " + ib.name + ": tensor<i64>):");
  ++depth;
  Val above = lessThan(sa, sb, true);
  Val notBelow = unary("stablehlo.not", lessThan(sb, sa, true));
  Val tie = binary("stablehlo.and", notBelow, compare("LT", ia, ib));
  Val before = binary("stablehlo.or", above, tie);
  line("\"stablehlo.return\"(" + before.name + ") : (tensor<i1>) -> ()");
  --depth;
  line("}) {dimension = 2 : i64, is_stable = true} : (" + scores.type() + ", " +
       index.type() + ") -> (" + scores.type() + ", " + index.type() + ")");
  Val sorted{base + "#0", kF32, bcn}, order{base + "#1", kI64, bcn};
  Val valid =
      op.scoreThreshold
          ? compare("GT", sorted,
                    splat(literal(*op.scoreThreshold, 0, kF32), kF32, bcn))
          : splat("true", kI1, bcn);
  Val zero = splatOf(0, 0, kI64, {});
  std::vector<Val> state{zero,
                         splat("false", kI1, bcn),
                         splatOf(0, 0, kI64, bc),
                         splatOf(0, -1, kI64, {bc[0], bc[1], maxOut}),
                         order,
                         valid,
                         geometry};
  auto cond = [&](const std::vector<Val> &a) {
    return compare("LT", a[0], splatOf(0, bcn[2], kI64, {}));
  };
  auto step = [&](const std::vector<Val> &a) { return nmsStep(op, a, maxOut); };
  std::vector<Val> done = whileLoop(state, cond, step);
  define(op.results[0], nmsRows(done[2], done[3], maxOut));
  Val total = reduce(done[2], "stablehlo.add", "0", {0, 1});
  define(op.results[1], reshape(total, {1}));
}

} // namespace sift::gen::stablehlo
