//===- support/Process.cpp - Child-process helpers ----------------===//

#include "support/Process.h"

#include <csignal>
#include <cstdio>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>

void sift::dieWithParent(pid_t parent) {
#ifdef __linux__
  prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
  if (getppid() != parent)
    _exit(3); // the parent died before the request took effect
}

pid_t sift::forkTiedChild() {
  std::fflush(nullptr);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0)
    dieWithParent(parent);
  return pid;
}
