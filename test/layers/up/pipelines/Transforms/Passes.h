#pragma once
// Declarations only.
