#pragma once
// A and B include each other: a circle the checker must refuse.
#include "pipelines/Kernels/B/B.h"
