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
  /// The first of them that arrived (0: none).
  int signalNumber() const;
  /// The exit code of a job stopped by it, as the shell reports a process
  /// it ended: 128 + the signal (130 for SIGINT, 143 for SIGTERM).
  int exitCode() const { return 128 + signalNumber(); }
  /// "SIGINT", "SIGTERM" or "" for none.
  const char *signalName() const;

private:
  void (*previousInt_)(int);
  void (*previousTerm_)(int);
};

} // namespace sift::harness
