#include "h264_splice/h264_repeat.h"

#include <cstdint>

#include "h264_splice/annex_b.h"

namespace ppsim::render {
namespace {

// Without emulation prevention bytes (00 00 03 -> 00 00).
std::string Unescape(const std::string& nal) {
  std::string out;
  out.reserve(nal.size());
  int zeros = 0;
  for (char c : nal) {
    if (zeros >= 2 && c == 3) {
      zeros = 0;
      continue;
    }
    out.push_back(c);
    zeros = c == 0 ? zeros + 1 : 0;
  }
  return out;
}

std::string Escape(const std::string& rbsp) {
  std::string out;
  out.reserve(rbsp.size() + 16);
  int zeros = 0;
  for (char c : rbsp) {
    if (zeros >= 2 && static_cast<unsigned char>(c) <= 3) {
      out.push_back(3);
      zeros = 0;
    }
    out.push_back(c);
    zeros = c == 0 ? zeros + 1 : 0;
  }
  return out;
}

class BitReader {
 public:
  BitReader(const std::string& data, size_t byte_offset) : data_(data), pos_(byte_offset * 8) {}
  uint32_t Bits(int n) {
    uint32_t v = 0;
    for (int k = 0; k < n; ++k) v = (v << 1) | Bit();
    return v;
  }
  uint32_t Ue() {
    int zeros = 0;
    while (Bit() == 0 && zeros < 32) ++zeros;
    return (zeros == 0 ? 0 : ((1u << zeros) - 1) + Bits(zeros));
  }
  int32_t Se() {
    const uint32_t k = Ue();
    return (k & 1) ? static_cast<int32_t>((k + 1) / 2) : -static_cast<int32_t>(k / 2);
  }
  size_t pos() const { return pos_; }
  bool overrun() const { return overrun_; }

 private:
  uint32_t Bit() {
    if (pos_ >= data_.size() * 8) {
      overrun_ = true;
      return 1;  // ends any exp-Golomb prefix
    }
    const uint32_t b = (static_cast<unsigned char>(data_[pos_ / 8]) >> (7 - pos_ % 8)) & 1;
    ++pos_;
    return b;
  }
  const std::string& data_;
  size_t pos_;
  bool overrun_ = false;
};

class BitWriter {
 public:
  void Bits(uint32_t v, int n) {
    for (int k = n - 1; k >= 0; --k) Bit((v >> k) & 1);
  }
  void Ue(uint32_t v) {
    const uint64_t x = static_cast<uint64_t>(v) + 1;
    int len = 0;
    while ((x >> len) > 1) ++len;
    Bits(0, len);
    for (int k = len; k >= 0; --k) Bit((x >> k) & 1);
  }
  // rbsp_trailing_bits.
  std::string Finish() {
    Bit(1);
    while (bits_ % 8 != 0) Bit(0);
    return out_;
  }

 private:
  void Bit(uint32_t b) {
    if (bits_ % 8 == 0) out_.push_back(0);
    if (b) out_.back() = static_cast<char>(out_.back() | (1 << (7 - bits_ % 8)));
    ++bits_;
  }
  std::string out_;
  size_t bits_ = 0;
};

// Overwrites `n` bits at bit position `pos` of `data` with `v`.
void PutBits(std::string& data, size_t pos, int n, uint32_t v) {
  for (int k = 0; k < n; ++k, ++pos) {
    const uint32_t b = (v >> (n - 1 - k)) & 1;
    char& byte = data[pos / 8];
    const int mask = 1 << (7 - pos % 8);
    byte = static_cast<char>(b ? (byte | mask) : (byte & ~mask));
  }
}

struct Params {
  bool have_sps = false, have_pps = false;
  int log2_max_frame_num = 0;
  int poc_type = 0;
  int log2_max_poc_lsb = 0;
  uint32_t max_num_ref_frames = 0;
  uint32_t mbs = 0;  // PicSizeInMbs
  uint32_t pps_id = 0;
  bool cabac = false;
  bool bottom_field_poc = false;
  bool weighted_pred = false;
  bool deblocking_control = false;
  bool redundant_pic_cnt = false;
};

Error ParseSps(const std::string& rbsp, Params& p) {
  BitReader r(rbsp, 1);
  const uint32_t profile = r.Bits(8);
  r.Bits(16);  // constraint flags, level
  r.Ue();      // seq_parameter_set_id
  if (profile == 100 || profile == 110 || profile == 122 || profile == 244 || profile == 44 || profile == 83 ||
      profile == 86 || profile == 118 || profile == 128 || profile == 138 || profile == 139 || profile == 134 ||
      profile == 135) {
    if (r.Ue() == 3) r.Bits(1);  // chroma_format_idc, separate_colour_plane_flag
    r.Ue();                      // bit_depth_luma_minus8
    r.Ue();                      // bit_depth_chroma_minus8
    r.Bits(1);                   // qpprime_y_zero_transform_bypass_flag
    if (r.Bits(1)) return Fail(ErrorCode::kInvalidValue, "H.264 stream: scaling matrices are not supported");
  }
  p.log2_max_frame_num = static_cast<int>(r.Ue()) + 4;
  p.poc_type = static_cast<int>(r.Ue());
  if (p.poc_type == 0) {
    p.log2_max_poc_lsb = static_cast<int>(r.Ue()) + 4;
  } else if (p.poc_type != 2) {
    return Fail(ErrorCode::kInvalidValue, "H.264 stream: pic_order_cnt_type 1 is not supported");
  }
  p.max_num_ref_frames = r.Ue();
  r.Bits(1);  // gaps_in_frame_num_value_allowed_flag
  const uint32_t width = r.Ue() + 1;
  const uint32_t height = r.Ue() + 1;
  if (r.Bits(1) != 1) return Fail(ErrorCode::kInvalidValue, "H.264 stream: interlaced coding is not supported");
  if (r.overrun()) return Fail(ErrorCode::kInvalidValue, "H.264 stream: truncated SPS");
  p.mbs = width * height;
  p.have_sps = true;
  return Error::Ok();
}

Error ParsePps(const std::string& rbsp, Params& p) {
  BitReader r(rbsp, 1);
  p.pps_id = r.Ue();
  r.Ue();  // seq_parameter_set_id
  p.cabac = r.Bits(1) == 1;
  p.bottom_field_poc = r.Bits(1) == 1;
  if (r.Ue() != 0) return Fail(ErrorCode::kInvalidValue, "H.264 stream: slice groups are not supported");
  r.Ue();     // num_ref_idx_l0_default_active_minus1 (the copies override it)
  r.Ue();     // num_ref_idx_l1_default_active_minus1
  p.weighted_pred = r.Bits(1) == 1;
  r.Bits(2);  // weighted_bipred_idc
  r.Se();     // pic_init_qp_minus26
  r.Se();     // pic_init_qs_minus26
  r.Se();     // chroma_qp_index_offset
  p.deblocking_control = r.Bits(1) == 1;
  r.Bits(1);  // constrained_intra_pred_flag
  p.redundant_pic_cnt = r.Bits(1) == 1;
  if (r.overrun()) return Fail(ErrorCode::kInvalidValue, "H.264 stream: truncated PPS");
  if (p.cabac) return Fail(ErrorCode::kInvalidValue, "H.264 stream: CABAC is not supported (copies are CAVLC)");
  if (p.weighted_pred) return Fail(ErrorCode::kInvalidValue, "H.264 stream: weighted prediction is not supported");
  p.have_pps = true;
  return Error::Ok();
}

// A P slice (nal_ref_idc 2) covering the picture with P_Skip macroblocks.
std::string SkipPicture(const Params& p, uint32_t n) {
  BitWriter w;
  w.Bits(0x41, 8);  // forbidden_zero_bit 0, nal_ref_idc 2, nal_unit_type 1
  w.Ue(0);          // first_mb_in_slice
  w.Ue(5);          // slice_type: P, every slice of the picture
  w.Ue(p.pps_id);
  w.Bits(n & ((1u << p.log2_max_frame_num) - 1), p.log2_max_frame_num);
  if (p.poc_type == 0) {
    w.Bits((2 * n) & ((1u << p.log2_max_poc_lsb) - 1), p.log2_max_poc_lsb);
    if (p.bottom_field_poc) w.Ue(0);  // delta_pic_order_cnt_bottom se(0)
  }
  if (p.redundant_pic_cnt) w.Ue(0);
  w.Bits(1, 1);  // num_ref_idx_active_override_flag
  w.Ue(0);       // num_ref_idx_l0_active_minus1: the picture just before
  w.Bits(0, 1);  // ref_pic_list_modification_flag_l0
  w.Bits(0, 1);  // adaptive_ref_pic_marking_mode_flag: sliding window
  w.Ue(0);       // slice_qp_delta se(0)
  if (p.deblocking_control) w.Ue(1);  // disable_deblocking_filter_idc
  w.Ue(p.mbs);   // mb_skip_run: the whole picture
  return std::string("\0\0\0\1", 4) + Escape(w.Finish());
}

}  // namespace

Result<std::string> RepeatPictures(const std::string& annexb, const std::vector<long long>& copies) {
  Params p;
  std::string out;
  out.reserve(annexb.size() + copies.size() * 64);
  size_t picture = 0;
  uint32_t n = 0;  // pictures since the last IDR
  for (std::string_view view : SplitAnnexB(annexb)) {
    const std::string nal(view);
    const int type = nal[0] & 0x1f;
    const int ref_idc = (nal[0] >> 5) & 3;
    std::string escaped = nal;
    if (type == 7 || type == 8) {
      Error e = type == 7 ? ParseSps(Unescape(nal), p) : ParsePps(Unescape(nal), p);
      if (e.code != ErrorCode::kOk) return e;
    } else if (type == 1 || type == 5) {
      if (!p.have_sps || !p.have_pps) return Fail(ErrorCode::kInvalidValue, "H.264 stream: slice before SPS/PPS");
      if (p.max_num_ref_frames > 1) {
        return Fail(ErrorCode::kInvalidValue, "H.264 stream: more than one reference frame is not supported");
      }
      if (ref_idc == 0) return Fail(ErrorCode::kInvalidValue, "H.264 stream: non-reference pictures are not supported");
      if (picture >= copies.size()) return Fail(ErrorCode::kInvalidValue, "H.264 stream: more pictures than expected");
      if (type == 5) n = 0;
      std::string rbsp = Unescape(nal);
      BitReader r(rbsp, 1);
      if (r.Ue() != 0) return Fail(ErrorCode::kInvalidValue, "H.264 stream: several slices per picture");
      r.Ue();  // slice_type
      r.Ue();  // pic_parameter_set_id
      PutBits(rbsp, r.pos(), p.log2_max_frame_num, n & ((1u << p.log2_max_frame_num) - 1));
      r.Bits(p.log2_max_frame_num);
      if (type == 5) r.Ue();  // idr_pic_id
      if (p.poc_type == 0) PutBits(rbsp, r.pos(), p.log2_max_poc_lsb, (2 * n) & ((1u << p.log2_max_poc_lsb) - 1));
      if (r.overrun()) return Fail(ErrorCode::kInvalidValue, "H.264 stream: truncated slice");
      escaped = Escape(rbsp);
    }
    out.append("\0\0\0\1", 4);
    out += escaped;
    if (type == 1 || type == 5) {
      for (long long c = 1; c < copies[picture]; ++c) out += SkipPicture(p, ++n);
      ++n;
      ++picture;
    }
  }
  if (picture != copies.size()) {
    return Fail(ErrorCode::kInvalidValue, "H.264 stream: " + std::to_string(picture) + " pictures, expected " +
                                              std::to_string(copies.size()));
  }
  return out;
}

}  // namespace ppsim::render
