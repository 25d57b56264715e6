//===- harness/StopSignals.cpp - Ctrl-C and SIGTERM as a request ----------===//

#include "harness/StopSignals.h"

#include <csignal>

namespace sift::harness {

namespace {

volatile std::sig_atomic_t stopRequested = 0;

extern "C" void requestStop(int) { stopRequested = 1; }

} // namespace

StopSignals::StopSignals() {
  stopRequested = 0;
  previousInt_ = std::signal(SIGINT, requestStop);
  previousTerm_ = std::signal(SIGTERM, requestStop);
}

StopSignals::~StopSignals() {
  std::signal(SIGINT, previousInt_);
  std::signal(SIGTERM, previousTerm_);
}

bool StopSignals::requested() const { return stopRequested != 0; }

} // namespace sift::harness
