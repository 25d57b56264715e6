//===- oracles/Regenerate.cpp - An exported case's data, made again -------===//

#include "oracles/Regenerate.h"

#include "generators/InputGenerator.h"
#include "generators/Policy.h"
#include "generators/ProgramGenerator.h"
#include "oracles/Reference.h"

#include <string>

namespace sift::oracle {

Result<gen::Program> regenerateProgram(const rt::ExportedCase &info,
                                       const rt::Plan &plan) {
  if (info.families.empty())
    return makeError("meta 'case.families' is missing: the program cannot "
                     "be regenerated");
  std::optional<gen::SizeMode> sizes = gen::parseSizeMode(
      info.sizes.empty() ? std::string_view("default") : info.sizes);
  if (!sizes)
    return makeError("meta 'case.sizes' names no size mode: '" + info.sizes +
                     "'");
  gen::Program program = gen::generateProgram(
      gen::policyFor(info.families, info.exactKeys, *sizes), info.seed);
  auto differs = [&](const std::vector<int> &ids,
                     const std::vector<int> &buffers) {
    if (ids.size() != buffers.size())
      return true;
    for (size_t i = 0; i < ids.size(); ++i) {
      const gen::TensorType &type = program.values[ids[i]];
      const rt::PlanBuffer &buffer = plan.buffers[buffers[i]];
      if (type.elementType != buffer.type || type.shape != buffer.shape)
        return true;
    }
    return false;
  };
  if (differs(program.inputs, plan.inputs()) ||
      differs(program.outputs, plan.outputs()))
    return makeError("the program regenerated from seed " +
                     std::to_string(info.seed) + " (families " +
                     info.families + ", sizes " +
                     std::string(gen::toString(*sizes)) +
                     ") does not have the plan's inputs and outputs: an "
                     "artifact of another sift version?");
  return program;
}

Result<gen::Program> regenerateCase(const rt::ExportedCase &info,
                                    rt::Artifact &artifact) {
  std::optional<gen::InputMode> mode = gen::parseInputMode(info.inputs);
  if (!mode)
    return makeError("meta 'case.inputs' names no input mode: '" +
                     info.inputs + "'");
  Result<gen::Program> program = regenerateProgram(info, artifact.plan);
  if (!program.ok())
    return program;
  artifact.inputs = gen::generateInputs(*program, *mode, info.seed);
  Result<std::vector<HostTensor>> expected =
      evaluate(*program, artifact.inputs);
  if (!expected.ok())
    return makeError("the reference failed: " + expected.message());
  artifact.expected = std::move(*expected);
  return program;
}

} // namespace sift::oracle
