//===- harness/StopSignals.cpp - Ctrl-C and SIGTERM as a request ----------===//

#include "harness/campaign/StopSignals.h"

#include <csignal>

namespace sift::harness {

namespace {

volatile std::sig_atomic_t stopRequested = 0;

extern "C" void requestStop(int signal) {
  if (stopRequested == 0)
    stopRequested = signal;
}

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

int StopSignals::signalNumber() const { return stopRequested; }

const char *StopSignals::signalName() const {
  switch (stopRequested) {
  case SIGINT:
    return "SIGINT";
  case SIGTERM:
    return "SIGTERM";
  default:
    return "";
  }
}

} // namespace sift::harness
