//===- generators/PendingEmitters.cpp - Formats whose writers are to come --===//
//
// The exchange formats of generators/Exchange.h whose writers are not in
// yet: every program is unsupported in them (the harness counts such runs
// as `unsupported`). Each writer replaces its line here when it lands.
//
//===----------------------------------------------------------------------===//

#include "generators/Exchange.h"

namespace sift::gen {

namespace {
Error notYet(const char *format) {
  return makeError(std::string("sift does not write the ") + format +
                   " format yet");
}
} // namespace

Result<std::string> emitStableHlo(const Program &) {
  return notYet("stablehlo");
}

} // namespace sift::gen
