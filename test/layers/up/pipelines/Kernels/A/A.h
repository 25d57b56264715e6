#pragma once
// A kernel that reaches up into the passes: the checker must refuse it.
#include "pipelines/Transforms/Passes.h"
