//===- harness/sut/iree/IreeConfigs.cpp - Forcing IREE's GPU pipelines ----===//

#include "harness/sut/iree/IreeConfigs.h"

#include "generators/Rng.h"

namespace sift::harness {

namespace {

std::string list(const std::vector<int64_t> &values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}

/// A tile for a dimension of `size`: a power of two that divides it (1
/// always does), drawn from the seed; 0 (untiled) for an empty dimension
/// or an untiled workgroup.
int64_t drawTile(gen::Rng &rng, int64_t size) {
  if (size <= 0)
    return 0;
  std::vector<int64_t> tiles;
  for (int64_t t = 1; t <= size && t <= 64; t *= 2)
    if (size % t == 0)
      tiles.push_back(t);
  return tiles[static_cast<size_t>(rng.uniform(0, tiles.size() - 1))];
}

/// The attribute for one op iterating over `shape`, sorting or selecting
/// along `dimension`.
std::string forcedConfig(PipelineKind pipeline, TargetKind target,
                         const std::vector<int64_t> &shape, int64_t dimension,
                         gen::Rng *rng) {
  std::vector<int64_t> workgroup(shape.size(), 1), thread(shape.size(), 1);
  int64_t threads = 64;
  if (rng) {
    static const int64_t kSizes[] = {32, 64, 128, 256};
    threads = kSizes[rng->uniform(0, 3)];
    for (size_t d = 0; d < shape.size(); ++d) {
      workgroup[d] = drawTile(*rng, shape[d]);
      thread[d] = drawTile(*rng, workgroup[d]);
    }
  }
  workgroup[dimension] = thread[dimension] = 0;
  // Nothing to distribute (a 1-D op): one thread runs it, as IREE itself
  // configures such ops; more threads with no distribution is a config
  // IREE rejects, not a bug.
  if (shape.size() == 1)
    threads = 1;
  int64_t subgroup = target == TargetKind::Amdgpu ? 64 : 32;
  std::string translation =
      "#iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<" +
      std::string(pipeline == PipelineKind::IreeTileAndFuse ? "TileAndFuse"
                                                            : "Distribute") +
      "> workgroup_size = [" + std::to_string(threads) +
      ", 1, 1] subgroup_size = " + std::to_string(subgroup) + ">";
  std::string lowering =
      pipeline == PipelineKind::IreeTileAndFuse
          ? "#iree_gpu.lowering_config<{workgroup = " + list(workgroup) +
                ", thread = " + list(thread) + "}>"
          : "#iree_codegen.lowering_config<tile_sizes = [" + list(workgroup) +
                "]>";
  return "compilation_info = #iree_codegen.compilation_info<lowering_config "
         "= " + lowering + ", translation_info = " + translation + ">";
}

} // namespace

std::vector<std::string> ireeOpAttributes(const gen::Program &program,
                                          PipelineKind pipeline,
                                          TargetKind target, bool randomConfig,
                                          uint64_t seed) {
  std::vector<std::string> attributes(program.ops.size());
  if (pipeline != PipelineKind::IreeTileAndFuse &&
      pipeline != PipelineKind::IreeDistribute)
    return attributes;
  gen::Rng rng(seed ^ 0x1ee5eedULL);
  for (size_t i = 0; i < program.ops.size(); ++i) {
    const gen::Op &op = program.ops[i];
    if (op.kind != gen::OpKind::Sort && op.kind != gen::OpKind::TopK)
      continue;
    const std::vector<int64_t> &shape =
        program.values[static_cast<size_t>(op.operands[0])].shape;
    attributes[i] = forcedConfig(pipeline, target, shape, op.dimension,
                                 randomConfig ? &rng : nullptr);
  }
  return attributes;
}

gen::FrontEnd ireeFrontEnd(const gen::Program &program, PipelineKind pipeline,
                           std::optional<gen::FrontEnd> chosen, uint64_t seed) {
  if (chosen)
    return *chosen;
  if (pipeline != PipelineKind::Iree)
    return gen::FrontEnd::LinalgExt;
  std::vector<gen::FrontEnd> able = gen::ireeFrontEndsFor(program);
  gen::Rng rng(seed ^ 0xf207e7dULL);
  return rng.pick(able);
}

gen::DynamicDims ireeDynamicDims(const gen::Program &program, uint64_t seed) {
  gen::Rng rng(seed ^ 0xd1a3d1aULL);
  gen::DynamicDims dims;
  if (!rng.chance(0.5))
    return dims;
  for (int input : program.inputs) {
    std::vector<bool> d;
    for (size_t j = 0; j < program.values[static_cast<size_t>(input)].shape.size(); ++j)
      d.push_back(rng.chance(0.5));
    dims.push_back(std::move(d));
  }
  return dims;
}

} // namespace sift::harness
