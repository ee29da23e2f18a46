// The gauge in bytes, with each run's send buffers stacked on its
// activations (docs/rendering.md, "Send buffers"). With communication as ops
// a device holds, besides its activations, the buffers of the sends it has
// posted (until their transfers complete, or to the step's end as PyTorch's
// runtime keeps them: Metrics::send_bytes_per_device). The two add up only
// in bytes, so the gauges count bytes when some run holds send buffers and
// every run gives its activations' bytes (memory.activation_bytes); else
// they count stage-sets as before and nothing of this is drawn.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ppsim/render/layout.h"

namespace ppsim::render {

// Whether the runs' gauges count bytes and stack send buffers.
bool GaugeInBytes(const std::vector<RunInput>& runs);

// `in` with each run's metrics (kept in `storage`) holding, as
// activations, the bytes of its activations plus its send buffers, per
// device and as the gauge's series (the fullest device at each tick,
// counted the allocator's way, or the cluster's sum, as in.gauge says), and
// the send buffers' share of each (in `sends`). REQUIRES: GaugeInBytes(in.runs).
LayoutInput BytesGaugeInput(const LayoutInput& in, std::vector<Metrics>& storage, std::vector<GaugeSend>& sends);

// "800 B", "1.5 KiB", "12 MiB", "11.9 GiB": one decimal, dropped when it is 0.
std::string ByteText(std::int64_t bytes);

}  // namespace ppsim::render
