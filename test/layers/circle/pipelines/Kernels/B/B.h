#pragma once
// B and A include each other: a circle the checker must refuse.
#include "pipelines/Kernels/A/A.h"
