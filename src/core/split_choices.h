// The splits a family offers (split_search.h): how many there are, all of
// them when few, and the seeds of a large family — the even split and the
// splits balancing a per-layer weight (stage work, or bytes) over the
// stages, which a linear-partition search finds exactly at stage level.
#pragma once

#include <cstdint>
#include <vector>

#include "ppsim/split_search.h"

namespace ppsim::split {

// Fewest decoder layers each of S stages needs: 0 for a middle stage (with
// none it is empty, its ops take 0 ticks: Problem::empty_stages); for the
// first (last) stage, which builds the embedding (the MTP layers and loss),
// 0 when those alone already sum to F, B and W ≥ 1, else 1. One stage: 0
// when E, m and L alone do, else 1.
std::vector<int> MinimumLayers(const Model& model, int S);

// C(n − Σlo + S − 1, S − 1): the splits of n decoder layers with at least
// lo[s] on stage s; capped at 2^62.
std::int64_t CountSplits(int n, const std::vector<int>& lo);

// Every such split, in lexicographic order. REQUIRES: CountSplits small.
std::vector<std::vector<int>> AllSplits(int n, const std::vector<int>& lo);

// As even as possible: n / S each, the remainder one more on stages 1, 2, …
// (lo respected). Empty when n < Σlo.
std::vector<int> EvenSplit(int n, const std::vector<int>& lo);

// The split minimising the heaviest stage's weight: first[s] is what stage
// s weighs without decoder layers (the embedding, the MTP layers and loss),
// layer[i] what decoder layer i adds. Empty when n < Σlo.
std::vector<int> BalancedSplit(const std::vector<std::int64_t>& layer, const std::vector<std::int64_t>& fixed,
                               const std::vector<int>& lo);

}  // namespace ppsim::split
