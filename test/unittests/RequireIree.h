//===- test/unittests/RequireIree.h - IREE tests fail, not skip -*- C++ -*-===//
//
// A test that needs IREE skips without it only where the build says IREE
// is optional (-DSIFT_REQUIRE_IREE=OFF, bootstrap's SIFT_WITH_IREE=0); by
// default, and in CI, a missing IREE fails it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <gtest/gtest.h>

#if defined(SIFT_REQUIRE_IREE) && SIFT_REQUIRE_IREE
#define SIFT_NEEDS_IREE(why)                                                   \
  FAIL() << (why) << " (SIFT_REQUIRE_IREE is ON: run scripts/bootstrap.sh, "   \
         << "or configure with -DSIFT_REQUIRE_IREE=OFF)"
#else
#define SIFT_NEEDS_IREE(why) GTEST_SKIP() << (why)
#endif
