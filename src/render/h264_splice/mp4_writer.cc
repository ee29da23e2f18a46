#include "h264_splice/mp4_writer.h"

#include <cstdint>
#include <vector>

#include "h264_splice/annex_b.h"

namespace ppsim::render {
namespace {

// Big-endian box writer: Open() a box, fill it, Close() patches its size.
class Boxes {
 public:
  void U8(std::uint32_t v) { out_.push_back(static_cast<char>(v & 0xFF)); }
  void U16(std::uint32_t v) { U8(v >> 8), U8(v); }
  void U32(std::uint32_t v) { U16(v >> 16), U16(v); }
  void Bytes(std::string_view b) { out_.append(b); }
  void Zeros(size_t n) { out_.append(n, '\0'); }
  void Open(const char type[5], int version_flags = -1) {
    open_.push_back(out_.size());
    U32(0);
    Bytes(std::string_view(type, 4));
    if (version_flags >= 0) U32(static_cast<std::uint32_t>(version_flags));  // a "full box"
  }
  void Close() {
    const size_t at = open_.back();
    open_.pop_back();
    const auto size = static_cast<std::uint32_t>(out_.size() - at);
    for (int i = 0; i < 4; ++i) out_[at + i] = static_cast<char>(size >> (24 - 8 * i));
  }
  void Matrix() {  // identity, 16.16 and 2.30 fixed point
    for (std::uint32_t v : {0x10000u, 0u, 0u, 0u, 0x10000u, 0u, 0u, 0u, 0x40000000u}) U32(v);
  }
  std::string& out() { return out_; }

 private:
  std::string out_;
  std::vector<size_t> open_;
};

struct Sample {
  std::uint32_t size = 0;  // bytes in mdat: each NAL with a 4-byte length
  bool sync = false;       // holds an IDR slice
};

void WriteStbl(Boxes& b, const Mp4Track& t, std::string_view sps, std::string_view pps,
               const std::vector<Sample>& samples, std::uint32_t mdat_offset) {
  b.Open("stbl");
  b.Open("stsd", 0);
  b.U32(1);
  b.Open("avc1");
  b.Zeros(6), b.U16(1);  // reserved, data_reference_index
  b.Zeros(16);           // pre_defined, reserved
  b.U16(t.width), b.U16(t.height);
  b.U32(0x480000), b.U32(0x480000);  // 72 dpi
  b.U32(0), b.U16(1);                // reserved, frame_count
  b.Zeros(32);                       // compressorname (empty: bitexact)
  b.U16(0x18), b.U16(0xFFFF);        // depth, pre_defined = -1
  b.Open("avcC");
  b.U8(1), b.U8(static_cast<unsigned char>(sps[1])), b.U8(static_cast<unsigned char>(sps[2])),
      b.U8(static_cast<unsigned char>(sps[3]));
  b.U8(0xFF);  // 4-byte NAL lengths
  b.U8(0xE1), b.U16(static_cast<std::uint32_t>(sps.size())), b.Bytes(sps);
  b.U8(1), b.U16(static_cast<std::uint32_t>(pps.size())), b.Bytes(pps);
  b.Close();  // avcC
  b.Close();  // avc1
  b.Close();  // stsd
  b.Open("stts", 0);
  b.U32(1), b.U32(static_cast<std::uint32_t>(samples.size())), b.U32(static_cast<std::uint32_t>(t.frame_ticks));
  b.Close();
  b.Open("stss", 0);
  std::uint32_t syncs = 0;
  for (const Sample& s : samples) syncs += s.sync;
  b.U32(syncs);
  for (size_t i = 0; i < samples.size(); ++i)
    if (samples[i].sync) b.U32(static_cast<std::uint32_t>(i + 1));
  b.Close();
  b.Open("stsc", 0);
  b.U32(1), b.U32(1), b.U32(static_cast<std::uint32_t>(samples.size())), b.U32(1);  // one chunk holds all
  b.Close();
  b.Open("stsz", 0);
  b.U32(0), b.U32(static_cast<std::uint32_t>(samples.size()));
  for (const Sample& s : samples) b.U32(s.size);
  b.Close();
  b.Open("stco", 0);
  b.U32(1), b.U32(mdat_offset);
  b.Close();
  b.Close();  // stbl
}

void WriteMoov(Boxes& b, const Mp4Track& t, std::string_view sps, std::string_view pps,
               const std::vector<Sample>& samples, std::uint32_t mdat_offset) {
  const std::uint64_t ticks = std::uint64_t{samples.size()} * static_cast<std::uint64_t>(t.frame_ticks);
  const auto ms = static_cast<std::uint32_t>(ticks * 1000 / static_cast<std::uint64_t>(t.timescale));
  b.Open("moov");
  b.Open("mvhd", 0);
  b.U32(0), b.U32(0), b.U32(1000), b.U32(ms);  // times, timescale (ms), duration
  b.U32(0x10000), b.U16(0x100), b.Zeros(10);   // rate 1.0, volume 1.0, reserved
  b.Matrix();
  b.Zeros(24), b.U32(2);  // pre_defined, next_track_ID
  b.Close();
  b.Open("trak");
  b.Open("tkhd", 3);  // enabled, in movie
  b.U32(0), b.U32(0), b.U32(1), b.U32(0), b.U32(ms);
  b.Zeros(8), b.U16(0), b.U16(0), b.U16(0), b.U16(0);  // reserved, layer, group, volume, reserved
  b.Matrix();
  b.U32(static_cast<std::uint32_t>(t.width) << 16), b.U32(static_cast<std::uint32_t>(t.height) << 16);
  b.Close();
  b.Open("mdia");
  b.Open("mdhd", 0);
  b.U32(0), b.U32(0), b.U32(static_cast<std::uint32_t>(t.timescale)), b.U32(static_cast<std::uint32_t>(ticks));
  b.U16(0x55C4), b.U16(0);  // language "und"
  b.Close();
  b.Open("hdlr", 0);
  b.U32(0), b.Bytes("vide"), b.Zeros(12), b.Bytes(std::string_view("VideoHandler", 13));
  b.Close();
  b.Open("minf");
  b.Open("vmhd", 1);
  b.Zeros(8);
  b.Close();
  b.Open("dinf");
  b.Open("dref", 0);
  b.U32(1);
  b.Open("url ", 1);  // the samples are in this file
  b.Close();
  b.Close();
  b.Close();
  WriteStbl(b, t, sps, pps, samples, mdat_offset);
  b.Close();  // minf
  b.Close();  // mdia
  b.Close();  // trak
  b.Close();  // moov
}

}  // namespace

Result<std::string> Mp4FromAnnexB(std::string_view annexb, const Mp4Track& track) {
  std::string_view sps, pps;
  std::vector<Sample> samples;
  std::vector<std::string_view> payload;  // NALs that go into mdat, in order
  std::uint64_t pending = 0;              // bytes of the access unit being gathered
  bool pending_sync = false;
  for (std::string_view nal : SplitAnnexB(annexb)) {
    const int type = nal[0] & 0x1F;
    if (type == 7 && sps.empty()) sps = nal;
    if (type == 8 && pps.empty()) pps = nal;
    if (type == 7 || type == 8 || type == 9) continue;  // parameter sets go to avcC; no access unit delimiters
    payload.push_back(nal);
    pending += 4 + nal.size();
    pending_sync = pending_sync || type == 5;
    if (type == 1 || type == 5) {  // a picture's one slice ends its access unit
      if (pending > UINT32_MAX) return Fail(ErrorCode::kInvalidValue, "an H.264 picture over 4 GiB");
      samples.push_back({static_cast<std::uint32_t>(pending), pending_sync});
      pending = 0;
      pending_sync = false;
    }
  }
  if (sps.size() < 4 || pps.empty()) return Fail(ErrorCode::kInvalidValue, "the H.264 stream has no SPS or PPS");
  if (samples.empty()) return Fail(ErrorCode::kInvalidValue, "the H.264 stream has no picture");
  std::uint64_t data = 0;
  for (const Sample& s : samples) data += s.size;

  Boxes b;
  b.Open("ftyp");
  b.Bytes("isom"), b.U32(0x200), b.Bytes("isomiso2avc1mp41");
  b.Close();
  // The moov's size does not depend on the offset it records: write it once
  // to learn where mdat starts, then again with that offset.
  const size_t ftyp = b.out().size();
  WriteMoov(b, track, sps, pps, samples, 0);
  const std::uint64_t mdat_offset = b.out().size() + 8;
  if (mdat_offset + data > UINT32_MAX) return Fail(ErrorCode::kInvalidValue, "the MP4 would exceed 4 GiB");
  b.out().resize(ftyp);
  WriteMoov(b, track, sps, pps, samples, static_cast<std::uint32_t>(mdat_offset));
  b.out().reserve(b.out().size() + 8 + data);
  b.U32(static_cast<std::uint32_t>(8 + data));
  b.Bytes("mdat");
  for (std::string_view nal : payload) {
    b.U32(static_cast<std::uint32_t>(nal.size()));
    b.Bytes(nal);
  }
  return std::move(b.out());
}

}  // namespace ppsim::render
