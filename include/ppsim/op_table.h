// A value per op id (`missing` unless set): a dense vector when the ops
// listed fill a good part of the id space, a hash map when they are few. A
// 1 KB schedule naming microbatch 395194 then costs what it lists, not
// gigabytes for the millions of ops it lacks (docs/reliability.md).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ppsim {

template <typename T>
class OpTable {
 public:
  // `ids`: the id space's size; `listed`: how many ids will be set at most.
  OpTable(std::int64_t ids, std::int64_t listed, T missing) : sparse_(listed < ids / 4), missing_(missing) {
    if (!sparse_) dense_.assign(static_cast<size_t>(ids), missing);
  }
  T Get(std::int64_t id) const {
    if (!sparse_) return dense_[static_cast<size_t>(id)];
    auto it = map_.find(id);
    return it == map_.end() ? missing_ : it->second;
  }
  void Set(std::int64_t id, T value) {
    if (sparse_) {
      map_[id] = value;
    } else {
      dense_[static_cast<size_t>(id)] = value;
    }
  }

 private:
  bool sparse_;
  T missing_;
  std::vector<T> dense_;
  std::unordered_map<std::int64_t, T> map_;
};

}  // namespace ppsim
