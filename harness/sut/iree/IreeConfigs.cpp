//===- harness/sut/iree/IreeConfigs.cpp - Forcing IREE's GPU pipelines ----===//

#include "harness/sut/iree/IreeConfigs.h"

#include "generators/Rng.h"

#include <algorithm>
#include <regex>

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

/// A tile for a dimension of unknown size (dynamic): a power of two up to 8
/// (IREE cannot know whether it divides the size, so it must handle the
/// partial tile).
int64_t drawDynamicTile(gen::Rng &rng) {
  static const int64_t kTiles[] = {1, 2, 4, 8};
  return kTiles[rng.uniform(0, 3)];
}

/// The attribute for one op iterating over `shape` (-1: dynamic), sorting
/// or selecting along `dimension`.
std::string forcedConfig(PipelineKind pipeline, TargetKind target,
                         const std::vector<int64_t> &shape, int64_t dimension,
                         gen::Rng *rng) {
  std::vector<int64_t> workgroup(shape.size(), 1), thread(shape.size(), 1);
  int64_t threads = 64;
  if (rng) {
    static const int64_t kSizes[] = {32, 64, 128, 256};
    threads = kSizes[rng->uniform(0, 3)];
    for (size_t d = 0; d < shape.size(); ++d) {
      workgroup[d] =
          shape[d] < 0 ? drawDynamicTile(*rng) : drawTile(*rng, shape[d]);
      thread[d] = drawTile(*rng, workgroup[d]);
    }
  }
  workgroup[dimension] = thread[dimension] = 0;
  // Nothing to distribute (a 1-D op, or every other dimension of size 0,
  // whose tile is 0): one thread runs it, as IREE itself configures such
  // ops; more threads with no distribution is a config IREE rejects ("write
  // affecting operations on shared resources are restricted to lane or
  // thread distributed contexts"), not a bug.
  const std::vector<int64_t> &spread =
      pipeline == PipelineKind::IreeTileAndFuse ? thread : workgroup;
  if (std::none_of(spread.begin(), spread.end(),
                   [](int64_t tile) { return tile > 0; }))
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

namespace {

/// The iteration shape of the op whose custom form starts `header` (after
/// the op's name, up to the end of its line): its `ins` operand's type for
/// a top-k, its first `outs` operand's for a sort.
std::optional<std::vector<int64_t>> iterationShape(const std::string &header,
                                                   bool topk) {
  size_t at = header.find(topk ? " ins(" : " outs(");
  if (at == std::string::npos)
    return std::nullopt;
  size_t colon = header.find(" : ", at);
  size_t open = header.find("tensor<", colon == std::string::npos ? at : colon);
  if (colon == std::string::npos || open == std::string::npos)
    return std::nullopt;
  size_t close = header.find('>', open);
  if (close == std::string::npos)
    return std::nullopt;
  std::string body = header.substr(open + 7, close - open - 7);
  std::vector<int64_t> shape;
  size_t start = 0;
  for (size_t x; (x = body.find('x', start)) != std::string::npos;
       start = x + 1) {
    std::string dim = body.substr(start, x - start);
    if (dim == "?")
      shape.push_back(-1);
    else if (!dim.empty() &&
             dim.find_first_not_of("0123456789") == std::string::npos)
      shape.push_back(std::stoll(dim));
    else
      break; // the element type (a vector<...> element would say "x")
  }
  return shape;
}

} // namespace

Result<std::string> forceLinalgExtOps(const std::string &text,
                                      PipelineKind pipeline, TargetKind target,
                                      bool randomConfig, uint64_t seed,
                                      int &forced) {
  forced = 0;
  static const std::regex op(
      R"(iree_linalg_ext\.(sort|topk)( \{[^\n]*compilation_info)?)");
  static const std::regex dimension(R"(dimension\((\d+)\))");
  gen::Rng rng(seed ^ 0x1ee5eedULL);
  std::string out;
  size_t from = 0;
  std::smatch match;
  std::string::const_iterator cursor = text.begin();
  while (std::regex_search(cursor, text.end(), match, op)) {
    size_t at = static_cast<size_t>(match.position(0)) +
                static_cast<size_t>(cursor - text.begin());
    size_t nameEnd = at + std::string("iree_linalg_ext.").size() +
                     match[1].str().size();
    cursor = text.begin() + static_cast<std::ptrdiff_t>(nameEnd);
    if (match[2].matched)
      continue; // forced already (the linalg_ext front end's own ops)
    size_t lineEnd = text.find('\n', nameEnd);
    std::string header = text.substr(nameEnd, lineEnd - nameEnd);
    std::smatch dim;
    std::optional<std::vector<int64_t>> shape =
        iterationShape(header, match[1] == "topk");
    if (!std::regex_search(header, dim, dimension) || !shape ||
        shape->empty())
      return makeError("cannot read the iteration shape and dimension of "
                       "iree_linalg_ext." + match[1].str() + " in `" +
                       header + "`");
    int64_t d = std::stoll(dim[1].str());
    if (d >= static_cast<int64_t>(shape->size()))
      return makeError("iree_linalg_ext." + match[1].str() + " sorts along " +
                       "dimension " + std::to_string(d) + " of a rank " +
                       std::to_string(shape->size()) + " shape");
    out += text.substr(from, nameEnd - from);
    out += " {" +
           forcedConfig(pipeline, target, *shape, d,
                        randomConfig ? &rng : nullptr) +
           "}";
    from = nameEnd;
    ++forced;
  }
  out += text.substr(from);
  return out;
}

std::string forcedConfigRejection(const std::string &line) {
  // Only a size a config can ask for: a sort along a dynamic dimension
  // makes IREE report sizes near 2^55 (an unbounded allocation it sized
  // from the dynamic marker), which IREE's own pipeline choice reaches
  // too (as a stack frame on ROCm): that stays a finding.
  static const std::regex sharedMemory(
      R"(uses (\d+) bytes of shared memory; exceeded the limit of \d+ bytes)");
  std::smatch match;
  if (!std::regex_search(line, match, sharedMemory) ||
      match[1].str().size() > 10 || std::stoull(match[1].str()) > (1ULL << 32))
    return "";
  return "the forced config needs more workgroup memory than the chip has";
}

gen::FrontEnd ireeFrontEnd(const gen::Program &program,
                           std::optional<gen::FrontEnd> chosen, uint64_t seed) {
  if (chosen)
    return *chosen;
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
