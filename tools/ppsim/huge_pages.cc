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
#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <new>

void* operator new(std::size_t size) {
  if (size == 0) size = 1;
  void* p = nullptr;
  while ((p = std::malloc(size)) == nullptr) {
    const std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  if (size >= 2 * kHuge) {
    const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t begin = (at + kHuge - 1) & ~(kHuge - 1), end = (at + size) & ~(kHuge - 1);
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);  // a hint: errors ignored
  }
  return p;
}

#endif  // PPSIM_ASAN
