//===- runtime/emu/LargeMemory.cpp - Big, hot arrays on large pages -------===//
//
// An anonymous mapping rounded to whole 2 MiB pages and aligned to one (the
// kernel backs only aligned ranges with huge pages), with MADV_HUGEPAGE on
// Linux; calloc where there is no mmap. Running out of memory throws
// std::bad_alloc like any allocation.
//
//===----------------------------------------------------------------------===//

#include "runtime/emu/LargeMemory.h"

#include <cstdint>
#include <cstdlib>
#include <new>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#define SIFT_EMU_MMAP 1
#else
#define SIFT_EMU_MMAP 0
#endif

namespace sift::emu {

namespace {
constexpr size_t kLargePage = size_t{2} << 20;
} // namespace

LargeBlock::LargeBlock(size_t bytes) {
  if (bytes == 0)
    return;
#if SIFT_EMU_MMAP
  size_t rounded = (bytes + kLargePage - 1) / kLargePage * kLargePage;
  size_t mapped = rounded + kLargePage;
  void *raw = mmap(nullptr, mapped, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED)
    throw std::bad_alloc();
  // Keep the aligned part, give back the rest.
  auto start = reinterpret_cast<uintptr_t>(raw);
  uintptr_t aligned = (start + kLargePage - 1) / kLargePage * kLargePage;
  if (aligned > start)
    munmap(raw, aligned - start);
  uintptr_t end = start + mapped, used = aligned + rounded;
  if (end > used)
    munmap(reinterpret_cast<void *>(used), end - used);
#ifdef MADV_HUGEPAGE
  madvise(reinterpret_cast<void *>(aligned), rounded, MADV_HUGEPAGE);
#endif
  data_ = reinterpret_cast<void *>(aligned);
  bytes_ = rounded;
#else
  data_ = std::calloc(bytes, 1);
  if (!data_)
    throw std::bad_alloc();
  bytes_ = bytes;
#endif
}

LargeBlock::~LargeBlock() {
  if (!data_)
    return;
#if SIFT_EMU_MMAP
  munmap(data_, bytes_);
#else
  std::free(data_);
#endif
}

} // namespace sift::emu
