#include "h264_splice/h264_splice.h"

#include "h264_splice/h264_repeat.h"
#include "h264_splice/mp4_writer.h"

namespace ppsim::render {

Result<std::string> SpliceMp4(const std::string& annexb, const std::vector<long long>& copies, int width,
                              int height, int fps) {
  Result<std::string> stream = RepeatPictures(annexb, copies);
  if (!stream.ok()) return stream.error();
  // Frame N at N/fps exactly, in a clock of fps doubled up to >= 10000
  // ticks per second (the one ffmpeg picks when it writes an MP4).
  Mp4Track track{width, height, fps, 1};
  while (track.timescale < 10000) track.timescale *= 2, track.frame_ticks *= 2;
  return Mp4FromAnnexB(*stream, track);
}

}  // namespace ppsim::render
