// Where a stream stops being JSON. `validate` reads a timeline from stdin, a
// FIFO or a device without knowing its length; /dev/zero or an endless pipe
// would be read up to the 4 GiB limit before the parser saw its first byte.
// JsonPrefix is fed the bytes as they arrive and says at which byte the
// text can no longer be one JSON object or list nested at most `max_depth`
// deep: a control character outside a string's escapes (JSON allows none),
// a first byte other than '{' or '[' (after white space), nesting deeper
// than `max_depth`, or anything but white space after the value closed.
// The reader stops there and hands the parser the bytes up to and including
// that one, so the parser reports the error it would have reported anyway,
// at its usual position (exit 7), after one read instead of 4 GiB.
#pragma once

#include <cstddef>
#include <string_view>

namespace ppsim::io {

class JsonPrefix {
 public:
  explicit JsonPrefix(int max_depth) : max_depth_(max_depth) {}
  // Returns the offset within `chunk` of the first byte that cannot belong
  // to such a text, or npos if every byte so far can.
  size_t Feed(std::string_view chunk);

 private:
  int max_depth_;
  int depth_ = 0;
  bool started_ = false;  // the first '{' or '[' was seen
  bool in_string_ = false;
  bool escaped_ = false;  // the previous byte in a string was a backslash
};

}  // namespace ppsim::io
