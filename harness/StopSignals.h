//===- harness/StopSignals.h - Ctrl-C and SIGTERM as a request ---*- C++ -*-===//
//
// Long commands (a campaign, a reduction) finish the step in progress and
// keep what they have when they are asked to stop, instead of dying with
// their work unsaved.
//
//===----------------------------------------------------------------------===//

#pragma once

namespace sift::harness {

/// While alive, SIGINT and SIGTERM set a flag instead of ending the
/// process (the handlers before it are restored at its end). One at a time.
class StopSignals {
public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals &) = delete;
  StopSignals &operator=(const StopSignals &) = delete;

  /// Whether SIGINT or SIGTERM arrived since construction.
  bool requested() const;

private:
  void (*previousInt_)(int);
  void (*previousTerm_)(int);
};

} // namespace sift::harness
