// The libFuzzer entry point of one target, chosen at compile time:
// -DPPSIM_FUZZ_TARGET=ClaimParser (see CMakeLists.txt, PPSIM_FUZZ).
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return ppsim::fuzz::PPSIM_FUZZ_TARGET(data, size);
}
