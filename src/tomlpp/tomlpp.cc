// toml++'s parser, compiled once into ppsim (the library ppsim_tomlpp).
//
// Why not Debian's libtomlplusplus.so: `ppsim` links libstdc++ and libgcc
// statically (start-up, docs/performance.md), and a parse error that the
// shared toml++ throws through its own libstdc++ cannot be caught by ours —
// every TOML syntax error aborted the tool (issue 21). Compiled here, the
// parser throws and we catch with one runtime.
//
// Why apart from our sources, with NDEBUG and without the sanitizers in
// every build type: toml++ asserts, and UBSan reports undefined behaviour
// inside it, on inputs it reports as parse errors ("[\x01]", "[=x]":
// tests/fuzz/scene_loader/). Compiled so, it is the code Debian's library
// runs (CMakeLists.txt sets the flags); our own code around it keeps its
// assertions and sanitizers.
#define TOML_IMPLEMENTATION
#include <toml++/toml.h>
