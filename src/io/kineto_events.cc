// The SAX pass over a Kineto trace: a handler that keeps only the fields it
// needs of each event (ph, cat, name, ts, dur, args' External id and
// correlation) and drops the event at its closing brace unless it is one of
// the kinds KinetoEvents keeps. Nothing else of the document is stored.
// A kept event whose ts or dur is no time the reader can hold (a string, a
// negative dur, beyond 2^62 ns) stops the read, naming the event and byte.
#include "kineto_events.h"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "json_stream.h"
#include "ppsim/io/kineto_trace.h"

namespace ppsim::io {
namespace {

enum class Ctx : std::uint8_t { kTop, kEvents, kEvent, kArgs, kDist, kOther };
enum class Cat : std::uint8_t { kOther, kUserAnnotation, kGpuUserAnnotation, kLaunch, kKernel };

// Times are held in ns below 2^62 in magnitude (146 years): an epoch time
// plus a duration, and any difference of two, stay inside int64.
constexpr Tick kTimeLimit = Tick{1} << 62;

const char* CatName(Cat c) {
  switch (c) {
    case Cat::kUserAnnotation: return "user_annotation";
    case Cat::kGpuUserAnnotation: return "gpu_user_annotation";
    case Cat::kLaunch: return "cuda launch";
    case Cat::kKernel: return "kernel";
    case Cat::kOther: break;
  }
  return "event";
}

// k == w, compared inline (the keys of every event are compared: a library
// call each costs more than the parse around it).
template <std::size_t N>
bool Eq(std::string_view k, const char (&w)[N]) {
  if (k.size() != N - 1) return false;
  for (std::size_t i = 0; i + 1 < N; ++i)
    if (k[i] != w[i]) return false;
  return true;
}

Cat CatOf(std::string_view cat) {
  if (Eq(cat, "user_annotation")) return Cat::kUserAnnotation;
  if (Eq(cat, "gpu_user_annotation")) return Cat::kGpuUserAnnotation;
  if (Eq(cat, "cuda_runtime") || Eq(cat, "cuda_driver")) return Cat::kLaunch;
  if (Eq(cat, "kernel") || Eq(cat, "gpu_memcpy") || Eq(cat, "gpu_memset")) return Cat::kKernel;
  return Cat::kOther;
}

// One event's fields, reset at each event's opening brace.
struct Event {
  Cat cat = Cat::kOther;
  char ph = 0;
  std::string name;
  Tick ts = 0;
  Tick dur = 0;
  bool has_ts = false;
  std::string bad;  // the first ts/dur that is no time: "dur -2 µs is negative"
  std::int64_t ext_id = -1;
  std::int64_t correlation = -1;
  int tid = -1;
};

// A part range of DeepSeek's traces: "<name>(F)", "(B)" or "(W)".
bool IsPart(std::string_view name) {
  if (name.size() < 4 || name.back() != ')' || name[name.size() - 3] != '(') return false;
  const char k = name[name.size() - 2];
  if (k != 'F' && k != 'B' && k != 'W') return false;
  for (char c : name.substr(0, name.size() - 3))
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

// Communication kernels: NCCL's and DeepEP's (expert-parallel dispatch/combine).
bool IsComm(std::string_view name) {
  return name.starts_with("nccl") || name.find("dpsk::ep") != std::string_view::npos ||
         name.find("deep_ep") != std::string_view::npos;
}

class Handler {
 public:
  Handler(KinetoEvents& out, const KinetoSource& source) : out_(out), source_(source) { stack_.reserve(16); }

  // JsonStream's calls.
  bool Literal() { return true; }
  bool Number(std::string_view text, bool integral) {
    if (key_ == Field::kNone) return true;  // no number this handler reads
    if (integral) {
      std::int64_t v = 0;
      if (std::from_chars(text.data(), text.data() + text.size(), v).ec == std::errc()) return Integer(v);
      std::uint64_t u = 0;
      if (text[0] != '-' && std::from_chars(text.data(), text.data() + text.size(), u).ec == std::errc())
        return Unsigned(u);
    }
    return Float(text);  // a fraction, an exponent, or an integer beyond 64 bits
  }
  bool String(std::string_view s) {
    if (!InEvent() || key_ == Field::kNone) return true;
    if (key_ == Field::kTs || key_ == Field::kDur) return Bad("\"" + std::string(s.substr(0, 40)) + "\" is a string, not a number");
    if (key_ == Field::kPh) ev_.ph = s.empty() ? 0 : s[0];
    else if (key_ == Field::kCat) ev_.cat = CatOf(s);
    else if (key_ == Field::kName) ev_.name.assign(s);
    return true;
  }
  bool StartObject() {
    Ctx c = Ctx::kOther;
    if (stack_.empty()) c = Ctx::kTop;
    else if (stack_.back() == Ctx::kEvents) c = Ctx::kEvent;
    else if (stack_.back() == Ctx::kEvent && key_ == Field::kArgs) c = Ctx::kArgs;
    else if (stack_.back() == Ctx::kTop && key_ == Field::kDistributed) c = Ctx::kDist;
    if (c == Ctx::kEvent) {  // a fresh event; the strings keep their buffers
      std::string name = std::move(ev_.name), bad = std::move(ev_.bad);
      name.clear(), bad.clear();
      ev_ = Event{};
      ev_.name = std::move(name), ev_.bad = std::move(bad);
    }
    stack_.push_back(c);
    key_ = Field::kNone;
    return true;
  }
  bool Key(std::string_view k) {
    key_ = Field::kNone;
    switch (stack_.back()) {
      case Ctx::kTop:
        if (Eq(k, "traceEvents")) key_ = Field::kTraceEvents;
        else if (Eq(k, "distributedInfo")) key_ = Field::kDistributed;
        else if (Eq(k, "baseTimeNanoseconds")) key_ = Field::kBase;
        break;
      case Ctx::kEvent:
        if (Eq(k, "ph")) key_ = Field::kPh;
        else if (Eq(k, "cat")) key_ = Field::kCat;
        else if (Eq(k, "name")) key_ = Field::kName;
        else if (Eq(k, "ts")) key_ = Field::kTs;
        else if (Eq(k, "dur")) key_ = Field::kDur;
        else if (Eq(k, "args")) key_ = Field::kArgs;
        else if (Eq(k, "tid")) key_ = Field::kTid;
        break;
      case Ctx::kArgs:
        if (Eq(k, "External id")) key_ = Field::kExternalId;
        else if (Eq(k, "correlation")) key_ = Field::kCorrelation;
        break;
      case Ctx::kDist:
        if (Eq(k, "rank")) key_ = Field::kRank;
        else if (Eq(k, "world_size")) key_ = Field::kWorldSize;
        break;
      default: break;
    }
    return true;
  }
  bool EndObject() {
    const Ctx c = stack_.back();
    stack_.pop_back();
    // Back in an event after its args: no key is pending.
    key_ = Field::kNone;
    return c == Ctx::kEvent ? Keep() : true;
  }
  bool StartArray() {
    const bool events = !stack_.empty() && stack_.back() == Ctx::kTop && key_ == Field::kTraceEvents;
    out_.has_trace_events = out_.has_trace_events || events;
    stack_.push_back(events ? Ctx::kEvents : Ctx::kOther);
    key_ = Field::kNone;
    return true;
  }
  bool EndArray() {
    stack_.pop_back();
    key_ = Field::kNone;
    return true;
  }
  std::size_t error_position_ = 0;
  std::string error_;
  Tick min_time_ = 0;  // the kept events' earliest start and latest end, ns, before the base
  Tick max_time_ = 0;

 private:
  enum class Field : std::uint8_t {
    kNone, kTraceEvents, kDistributed, kBase, kPh, kCat, kName, kTs, kDur, kTid, kArgs, kExternalId, kCorrelation,
    kRank, kWorldSize
  };

  bool Unsigned(std::uint64_t v) {  // above INT64_MAX
    if (InEvent() && (key_ == Field::kTs || key_ == Field::kDur)) return Bad(std::to_string(v) + " µs is out of range");
    if (!stack_.empty() && stack_.back() == Ctx::kTop && key_ == Field::kBase)
      return Stop("baseTimeNanoseconds " + std::to_string(v) + " is out of range (0 .. 2^62)");
    return Integer(INT64_MAX);
  }
  bool Float(std::string_view text) {
    if (!InEvent()) return true;
    if (key_ == Field::kTs || key_ == Field::kDur) {
      Tick ns = 0;
      if (!MicrosecondsToNs(text.data(), text.size(), ns)) return Bad(std::string(text) + " µs is out of range");
      Time(ns, std::string(text));
    }
    return true;
  }
  bool Integer(std::int64_t v) {
    if (stack_.empty()) return true;
    switch (stack_.back()) {
      case Ctx::kTop:
        if (key_ == Field::kBase) {
          if (v < 0 || v >= kTimeLimit)
            return Stop("baseTimeNanoseconds " + std::to_string(v) + " is out of range (0 .. 2^62)");
          out_.base_ns = v, out_.has_base = true;
        }
        break;
      case Ctx::kDist:
        if (key_ == Field::kRank) out_.rank = v < 0 || v > INT32_MAX ? -2 : static_cast<int>(v);
        else if (key_ == Field::kWorldSize) out_.world_size = v < 0 || v > INT32_MAX ? 0 : static_cast<int>(v);
        break;
      case Ctx::kEvent:
        if (key_ == Field::kTs || key_ == Field::kDur) {
          if (v <= -kTimeLimit / 1000 || v >= kTimeLimit / 1000) return Bad(std::to_string(v) + " µs is out of range");
          Time(v * 1000, std::to_string(v));
        } else if (key_ == Field::kTid && v >= 0 && v <= INT32_MAX) ev_.tid = static_cast<int>(v);
        break;
      case Ctx::kArgs:
        if (key_ == Field::kExternalId) ev_.ext_id = v;
        else if (key_ == Field::kCorrelation) ev_.correlation = v;
        break;
      default: break;
    }
    return true;
  }
  bool InEvent() const { return !stack_.empty() && stack_.back() == Ctx::kEvent; }
  // The event's ts or dur (the pending key) is no time; said if the event is kept.
  bool Bad(const std::string& what) {
    if (ev_.bad.empty()) ev_.bad = (key_ == Field::kTs ? "ts " : "dur ") + what;
    if (key_ == Field::kTs) ev_.has_ts = true;  // present, if unreadable
    return true;
  }
  bool Stop(const std::string& what) {
    error_position_ = static_cast<std::size_t>(source_.consumed());
    error_ = what;
    return false;
  }
  void Time(Tick ns, const std::string& text) {
    if (ns <= -kTimeLimit || ns >= kTimeLimit) Bad(text + " µs is out of range");
    else if (key_ == Field::kTs) ev_.ts = ns, ev_.has_ts = true;
    else if (ns < 0) Bad(text + " µs is negative");
    else ev_.dur = ns;
  }
  // Whether KinetoEvents keeps this event.
  bool Kept() const {
    const std::string_view name = ev_.name;
    switch (ev_.cat) {
      case Cat::kUserAnnotation:
        return ev_.ph == 'X' && (name.starts_with("PP:") || name.starts_with("ProfilerStep#") || IsPart(name));
      case Cat::kGpuUserAnnotation: return ev_.ph == 'X' && name.starts_with("PP:");
      case Cat::kLaunch: return ev_.correlation >= 0;
      case Cat::kKernel: return ev_.ph == 'X' && ev_.correlation >= 0;
      case Cat::kOther: return false;
    }
    return false;
  }
  bool Keep() {
    ++out_.events;
    if (!ev_.has_ts || !Kept()) return true;
    const Tick end = ev_.ts + ev_.dur;  // both below 2^62: no overflow
    if (ev_.bad.empty() && end >= kTimeLimit) ev_.bad = "ts + dur is out of range (2^62 ns)";
    if (!ev_.bad.empty())
      return Stop("event " + std::to_string(out_.events) + " ('" + ev_.name.substr(0, 60) + "', " +
                  CatName(ev_.cat) + "): " + ev_.bad);
    if (min_time_ > ev_.ts) min_time_ = ev_.ts;
    if (max_time_ < end) max_time_ = end;
    const std::string_view name = ev_.name;
    switch (ev_.cat) {
      case Cat::kUserAnnotation:
        if (name.starts_with("PP:"))
          out_.pp.push_back({std::string(name.substr(3)), ev_.ts, ev_.ts + ev_.dur, ev_.ext_id});
        else if (name.starts_with("ProfilerStep#"))
          out_.steps.push_back({std::string(name.substr(13)), ev_.ts, ev_.ts + ev_.dur, ev_.ext_id});
        else if (IsPart(name))
          out_.parts.push_back({std::string(name), ev_.ts, ev_.ts + ev_.dur, ev_.ext_id});
        return true;
      case Cat::kGpuUserAnnotation: out_.gpu_pp.push_back({ev_.ext_id, ev_.ts, ev_.ts + ev_.dur}); return true;
      case Cat::kLaunch: out_.launches.push_back({ev_.ts, ev_.correlation}); return true;
      case Cat::kKernel:
        out_.kernels.push_back({ev_.correlation, ev_.ts, ev_.ts + ev_.dur, ev_.tid, IsComm(name)});
        return true;
      case Cat::kOther: return true;
    }
    return true;
  }

  KinetoEvents& out_;
  const KinetoSource& source_;
  std::vector<Ctx> stack_;
  Field key_ = Field::kNone;
  Event ev_;
};

}  // namespace

Result<KinetoEvents> CollectKinetoEvents(KinetoSource& source) {
  KinetoEvents out;
  Handler handler(out, source);
  JsonStream<Handler> parser(source, handler);
  const bool ok = parser.Parse();
  if (source.failed()) return Fail(ErrorCode::kIo, "byte " + std::to_string(source.consumed()) + ": " + source.error());
  if (!ok && !parser.error().empty())
    return Fail(ErrorCode::kParse, "byte " + std::to_string(parser.error_byte()) + ": " + parser.error());
  if (!ok) return Fail(ErrorCode::kParse, "byte " + std::to_string(handler.error_position_) + ": " + handler.error_);
  // The base comes before or after the events; with it, every time stays below 2^62 ns.
  if (out.has_base && (out.base_ns + handler.max_time_ >= kTimeLimit || out.base_ns + handler.min_time_ <= -kTimeLimit))
    return Fail(ErrorCode::kParse, "baseTimeNanoseconds " + std::to_string(out.base_ns) +
                                       " plus the events' ts is out of range (2^62 ns)");
  return out;
}

bool MicrosecondsToNs(const char* text, size_t size, Tick& ns) {
  size_t i = 0;
  const bool negative = size > 0 && text[0] == '-';
  if (negative) ++i;
  Tick whole = 0;
  size_t digits = 0;
  for (; i < size && text[i] >= '0' && text[i] <= '9'; ++i, ++digits) {
    if (whole > (INT64_MAX / 10000)) return false;
    whole = whole * 10 + (text[i] - '0');
  }
  if (digits == 0) return false;
  Tick frac = 0;  // ns below the µs
  if (i < size && text[i] == '.') {
    ++i;
    int k = 0;
    bool round_up = false;
    for (; i < size && text[i] >= '0' && text[i] <= '9'; ++i, ++k) {
      if (k < 3) frac = frac * 10 + (text[i] - '0');
      else if (k == 3) round_up = text[i] >= '5';
    }
    for (; k < 3; ++k) frac *= 10;
    frac += round_up ? 1 : 0;
  }
  if (i != size) {  // an exponent: through double, rounded to ns
    const double us = std::strtod(std::string(text, size).c_str(), nullptr);
    if (!(us > -9.2e15 && us < 9.2e15)) return false;
    ns = static_cast<Tick>(us * 1000.0 + (us >= 0 ? 0.5 : -0.5));
    return true;
  }
  if (whole > (INT64_MAX - 1000) / 1000) return false;  // whole * 1000 + frac would overflow
  ns = whole * 1000 + frac;
  if (negative) ns = -ns;
  return true;
}

}  // namespace ppsim::io
