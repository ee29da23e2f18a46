// The files this run has read as input, so that no output replaces one:
// `ppsim render s.toml -o s.toml --format svg` must refuse, not turn the scene
// into its own picture. ReadFile and MappedFile note every regular file they
// open; OutputFile (atomic_file.h) asks before it stages or commits.
// Thread-safe.
#pragma once

#include <sys/types.h>

#include <string>

namespace ppsim::io {

// Notes that `path`, a regular file with this device and inode, was read.
void NoteInput(const std::string& path, dev_t device, ino_t inode);

// The input (as it was named when read) that the existing file `target` is —
// the same file, by device and inode, through any link — or "" if none is.
// An input that has since been removed or replaced no longer counts.
std::string InputAt(const std::string& target);

}  // namespace ppsim::io
