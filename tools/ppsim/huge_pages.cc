// Large blocks in transparent huge pages.
//
// `ppsim simulate` at 10^7 ops fills a few hundred MB once, front to back (a
// timeline's start and end ticks, 8 bytes each per op). In 4 KiB pages every
// 4 KiB is a page fault, and on this project's virtual machines the faults
// cost more CPU than placing the ops (docs/performance.md). Debian's kernels
// give a range 2 MiB pages only when asked (transparent_hugepage=madvise),
// so this replacement of the global operator new asks, for blocks of 4 MiB
// or more, on the block's 2 MiB-aligned interior: 512 times fewer faults
// there. Blocks still come from malloc and go back through the default
// operator delete (free). It lives in the binary because core uses the
// standard library only.
//
// Medium blocks (a device's queue, 0.5–1 MB per device at 10^7 ops) would
// each get an mmap of their own from glibc, too small to hold an aligned
// 2 MiB page, so every 4 KiB of the schedule faulted. The first block of
// 256 KiB or more makes malloc keep blocks up to 64 MiB on its heap, where
// they sit side by side and never shrink back (a sweep reuses them), and
// each such block marks the heap from its first 2 MiB page to the heap's end
// (the untouched top, where the next blocks go); a small run is left alone.
//
// Not under AddressSanitizer: its own operator delete would see blocks this
// operator new took from malloc and abort on the mismatch (and ASan's
// allocator manages pages itself).
#if defined(__SANITIZE_ADDRESS__)
#define PPSIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PPSIM_ASAN 1
#endif
#endif

#ifndef PPSIM_ASAN
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <new>

namespace {

constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
constexpr int kHeapBlocks = 64 << 20;  // blocks up to this size stay on malloc's heap
constexpr std::size_t kMedium = std::size_t{256} << 10;  // from here on, blocks ask for huge pages

// Done at the first medium block, so a small run (start-up) is not touched.
void TuneHeap() {
  static const bool tuned = [] {
    mallopt(M_MMAP_THRESHOLD, kHeapBlocks);
    mallopt(M_TRIM_THRESHOLD, 2 * kHeapBlocks);
    mallopt(M_TOP_PAD, 16 << 20);  // grow the heap by 16 MiB at a time: whole 2 MiB pages inside it
    return true;
  }();
  (void)tuned;
}

}  // namespace

void* operator new(std::size_t size) {
  if (size == 0) size = 1;
  if (size >= kMedium) TuneHeap();
  void* p = nullptr;
  while ((p = std::malloc(size)) == nullptr) {
    const std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
  if (size >= static_cast<std::size_t>(kHeapBlocks)) {  // its own mmap: the 2 MiB pages inside it
    const std::uintptr_t begin = (at + kHuge - 1) & ~(kHuge - 1), end = (at + size) & ~(kHuge - 1);
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);  // a hint: errors ignored
  } else if (size >= kMedium) {
    // On the heap: from the block's first 2 MiB page to the heap's end, so
    // the untouched top (where the next blocks go) is marked before malloc
    // writes its header there — a page touched first in 4 KiB stays so.
    const std::uintptr_t begin = at & ~(kHuge - 1), end = reinterpret_cast<std::uintptr_t>(sbrk(0));
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  }
  return p;
}

#endif  // PPSIM_ASAN
