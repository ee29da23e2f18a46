// Megatron-LM's interleaved order (forward_backward_pipelining_with_
// interleaving), shared by `interleaved` and `combined-1f1b`.
//
// Microbatches go in groups of g (Megatron's
// microbatch_group_size_per_vp_stage): the forward stream runs group 0
// through chunk 0, then chunk 1, ..., then group 1 likewise; a last group
// shorter than g (M not a multiple of g) runs whole through each chunk in
// turn. The k-th backward runs the k-th entry of the same table with its
// chunk mirrored (v-1-c). Device d runs W = (v-1)·g + 2(P-1-d) warm-up
// forwards (plus `extra_warmup`), capped at v·M, then pairs the next
// forward with the next backward, then drains the backwards.
#pragma once

#include <string>

#include "ppsim/error.h"
#include "ppsim/problem.h"
#include "ppsim/schedule.h"

namespace ppsim {

// Megatron's group for `p`: p.group if set, else P (its default).
int MegatronGroup(const Problem& p);

// Megatron's own checks of the group (its ValueError and RuntimeError),
// named after `schedule`: P ≤ g ≤ M, and M mod g is 0 or at least P.
Error CheckMegatronGroup(const Problem& p, const std::string& schedule);

// REQUIRES: 1 ≤ group ≤ M; a last group shorter than `group` is allowed.
// `overlap`: each steady step is one overlapped (F;B) pair instead of F, B.
Schedule InterleavedOrder(const Problem& p, int group, int extra_warmup, bool overlap);

}  // namespace ppsim
