#include "ppsim/render/html_writer.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "color_util.h"
#include "svg_items.h"
#include "ppsim/metric_table.h"
#include "ppsim/rational.h"

namespace ppsim::render {
namespace {

// The player. Reads the dynamic elements' data-* attributes once.
constexpr const char* kScript = R"JS(
(function () {
  'use strict';
  const root = document.documentElement;
  window.addEventListener('error', function (e) { root.dataset.error = String(e.message); });
  const last = Number(root.dataset.last);
  const msPerTick = Number(root.dataset.msPerTick);
  // Cycles one step of play advances: 1, or for a long run as many as the
  // video plays a frame (Pacing::ticks_per_frame), so that it plays in
  // about 12 s at any length. Shift+arrow steps as far; an arrow, one cycle.
  const stride = root.dataset.ticksPerStep === undefined ? 1 : Number(root.dataset.ticksPerStep);
  const holdMs = Number(root.dataset.holdMs);
  const posterMs = Number(root.dataset.posterMs);
  const els = Array.prototype.slice.call(document.querySelectorAll('[data-from]'));
  const items = els.map(function (el) {
    return {
      el: el,
      from: Number(el.dataset.from),
      until: el.dataset.until === undefined ? Infinity : Number(el.dataset.until),
      growFrom: el.dataset.growTicks === undefined ? 0 : Number(el.dataset.growFrom),
      growTicks: el.dataset.growTicks === undefined ? 0 : Number(el.dataset.growTicks),
      width: el.dataset.growTicks === undefined ? 0 : Number(el.getAttribute('width')),
      visible: el.style.display !== 'none',
      shown: -1,
    };
  });
  const scrub = document.getElementById('scrub');
  const playButton = document.getElementById('play');
  const tickLabel = document.getElementById('tick');
  const speed = document.getElementById('speed');
  const loop = document.getElementById('loop');
  let tick = 0;
  let timer = null;

  // Touches the DOM only where something changes: big scenes have tens of
  // thousands of cells. The URL's #tick= follows what is shown.
  function show(t) {
    tick = Math.max(0, Math.min(last, t));
    for (const it of items) {
      const visible = it.from <= tick && tick < it.until;
      if (visible !== it.visible) {
        it.el.style.display = visible ? '' : 'none';
        it.visible = visible;
      }
      if (visible && it.growTicks > 0) {
        const done = Math.max(0, Math.min(it.growTicks, tick - it.growFrom));
        const w = done === it.growTicks ? it.width : Math.round(it.width * done / it.growTicks);
        if (w !== it.shown) {
          it.el.setAttribute('width', String(w));
          it.shown = w;
        }
      }
    }
    scrub.value = String(tick);
    tickLabel.textContent = tick + ' of ' + last + ' cycles';
    root.dataset.tick = String(tick);
    try { history.replaceState(null, '', '#tick=' + tick); } catch (e) { /* a sandboxed frame */ }
  }
  function pace() { return msPerTick / Number(speed.value); }
  function pause() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    playButton.textContent = '\u25B6 play';
    root.dataset.playing = '0';
  }
  function advance() {
    if (tick >= last) {
      if (loop.checked) { show(0); timer = setTimeout(advance, pace()); } else { pause(); }
      return;
    }
    show(Math.min(last, tick + stride));
    timer = setTimeout(advance, tick >= last ? holdMs : pace());
  }
  function play() {
    if (timer !== null) clearTimeout(timer);
    if (tick >= last) show(0);
    playButton.textContent = '\u275A\u275A pause';
    root.dataset.playing = '1';
    timer = setTimeout(advance, pace());
  }
  function toggle() { if (timer === null) play(); else pause(); }
  function step(d) { pause(); show(tick + d); }
  playButton.addEventListener('click', toggle);
  document.getElementById('back').addEventListener('click', function () { step(-1); });
  document.getElementById('forward').addEventListener('click', function () { step(1); });
  scrub.addEventListener('input', function () { pause(); show(Number(scrub.value)); });
  // One key, one action: the focused control's own handling (a range moving,
  // a button clicking on key-up) is prevented, so an arrow is one tick.
  document.addEventListener('keydown', function (e) {
    if (e.target === speed || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === ' ') { e.preventDefault(); if (!e.repeat) toggle(); }
    else if (e.key === 'ArrowLeft') { e.preventDefault(); step(e.shiftKey ? -stride : -1); }
    else if (e.key === 'ArrowRight') { e.preventDefault(); step(e.shiftKey ? stride : 1); }
  });
  document.addEventListener('keyup', function (e) { if (e.key === ' ' && e.target !== speed) e.preventDefault(); });
  function fromHash() {
    const m = /tick=(\d+)/.exec(location.hash);
    return m ? Number(m[1]) : null;
  }
  window.addEventListener('hashchange', function () {
    const k = fromHash();
    if (k !== null && k !== tick) { pause(); show(k); }
  });
  const opened = root.dataset.openAt === undefined ? null : Number(root.dataset.openAt);
  const k = fromHash() !== null ? fromHash() : opened;
  if (k !== null) {
    show(k);
  } else {  // the final frame as a poster, then play from the start
    tick = last;
    root.dataset.tick = String(last);
    playButton.textContent = '\u275A\u275A pause';
    root.dataset.playing = '1';
    timer = setTimeout(function () { show(0); play(); }, posterMs);
  }
  root.dataset.ready = '1';
})();
)JS";

constexpr const char* kStyle = R"CSS(
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; padding: 8px; font-family: 'DejaVu Sans', sans-serif; color: #222; background: #fff; }
.controls { position: sticky; top: 0; z-index: 1; background: #fff; display: flex; flex-wrap: wrap; gap: 6px 8px;
            align-items: center; padding: 6px 0; max-width: 1920px; }
.controls input[type=range] { flex: 1 1 12em; min-width: 8em; }
button, select { font: inherit; padding: 4px 10px; }
#tick { min-width: 8em; font-variant-numeric: tabular-nums; }
.chart { overflow-x: auto; max-width: 100%; }
.chart svg { display: block; width: 100%; height: auto; }
.numbers { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin-top: 8px; }
th, td { padding: 4px 12px; text-align: right; border-bottom: 1px solid #ddd; }
th:first-child, td:first-child { text-align: left; }
p { overflow-wrap: anywhere; }
)CSS";

// A metric of the run, printed the one way (metric_table.h): "18", "1/3 (0.3333)".
std::string Metric(const RunSummary& r, const MetricInfo& metric) {
  const std::optional<Rational> v = metric.value(r.metrics, r.problem, -1);
  return v ? v->ToText() : "-";
}

// Above the chart, and sticky, so that they stay on screen on a laptop.
std::string Controls(const DisplayList& list) {
  const std::string last = std::to_string(list.last_tick);
  return "<div class=\"controls\">\n"
         "<button id=\"back\" title=\"one cycle back (arrow left)\">&#9664; step</button>\n"
         "<button id=\"play\" title=\"play / pause (space)\">&#9654; play</button>\n"
         "<button id=\"forward\" title=\"one cycle forward (arrow right)\">step &#9654;</button>\n"
         "<input id=\"scrub\" type=\"range\" min=\"0\" max=\"" + last + "\" step=\"1\" value=\"" + last +
         "\" aria-label=\"tick\">\n<span id=\"tick\">" + last + " of " + last + " cycles</span>\n"
         "<label>speed <select id=\"speed\"><option value=\"0.25\">0.25\u00D7</option>"
         "<option value=\"0.5\">0.5\u00D7</option><option value=\"1\" selected>1\u00D7</option>"
         "<option value=\"2\">2\u00D7</option><option value=\"4\">4\u00D7</option></select></label>\n"
         "<label><input id=\"loop\" type=\"checkbox\"> loop</label>\n</div>\n";
}

std::string Attr(const char* name, long long v) { return std::string(" data-") + name + "=\"" + std::to_string(v) + "\""; }

// The list as an inline SVG whose dynamic items carry their ticks for the
// player: the markup is the final frame. `cls` names which layout it is.
void AppendChart(std::string& out, const DisplayList& list, const std::string& cls) {
  out += SvgOpen(list, " class=\"" + cls + "\" role=\"img\"");
  for (const Item& item : list.items) {
    std::string attrs;
    if (item.role == Role::kOp) {
      attrs += " class=\"op\"";
      attrs += Attr("run", item.run) + Attr("device", item.device) + Attr("start", item.tick0) +
               Attr("end", item.tick1) + " data-op=\"" + std::string(1, item.op_kind) + std::to_string(item.microbatch) +
               "@s" + std::to_string(item.stage) + "\"";
    } else if (item.role == Role::kBubble) {
      attrs += " class=\"bubble\"" + Attr("run", item.run) + Attr("device", item.device) + Attr("start", item.tick0);
    } else if (item.role == Role::kTransfer || item.role == Role::kTransferLink) {
      attrs += std::string(item.role == Role::kTransfer ? " class=\"transfer\"" : " class=\"link\"") +
               Attr("run", item.run) + Attr("device", item.device) + Attr("start", item.tick0) +
               Attr("end", item.tick1) + " data-side=\"" + std::string(1, item.op_kind) + "\" data-transfer=\"" +
               (item.value ? "B" : "F") + std::to_string(item.microbatch) + "@b" + std::to_string(item.stage) + "\"";
    } else if (item.role == Role::kCollective) {
      attrs += " class=\"collective\"" + Attr("run", item.run) + Attr("device", item.device) +
               Attr("start", item.tick0) + Attr("end", item.tick1) + " data-op=\"" +
               (item.op_kind == 'U' ? "UNSHARD" : "REDUCE_GRAD") + "@s" + std::to_string(item.stage) + "\"";
    } else if (item.role == Role::kCommWait) {
      attrs += " class=\"comm-wait\"" + Attr("run", item.run) + Attr("device", item.device) +
               Attr("start", item.tick0) + Attr("end", item.tick1);
    } else if (item.role == Role::kGaugeBar || item.role == Role::kSendBuffer) {
      attrs += std::string(item.role == Role::kGaugeBar ? " class=\"held\"" : " class=\"send-buffers\"") +
               Attr("run", item.run) + Attr("tick", item.tick0) + Attr("value", item.value);
      if (item.device >= 0) attrs += Attr("device", item.device);
    }
    const bool dynamic = item.from > 0 || item.until != kForever;
    if (dynamic) {
      attrs += Attr("from", item.from);
      if (item.until != kForever) attrs += Attr("until", item.until);
      if (item.grow_ticks > 0) attrs += Attr("grow-from", item.grow_from) + Attr("grow-ticks", item.grow_ticks);
      // The markup is the final frame; what is gone by then starts hidden.
      if (!item.VisibleAt(list.last_tick)) attrs += " style=\"display:none\"";
    }
    AppendSvgItem(out, item, item.box.w, attrs, "");
  }
  out += "</svg>\n";
}

// Where the chart laid out for the page's display width would not fit
// unscrolled (the viewport under its width and the body's 16 px of padding),
// the phone's layout is shown instead, at the box's width.
std::string PhoneStyle(const DisplayList& list, int min_w) {
  if (list.phone == nullptr) return "";
  return ".chart svg.phone { display: none; width: 100%; max-width: " + std::to_string(list.phone->width) +
         "px; }\n@media (max-width: " + std::to_string(min_w + 15) +
         "px) { .chart svg.wide { display: none; } .chart svg.phone { display: block; } }\n";
}

}  // namespace

std::string WriteHtml(const DisplayList& list, const Pacing& pacing, Tick open_at) {
  const long long ms_per_tick = static_cast<long long>(pacing.SecondsPerTick() * 1000 + 0.5);
  const long long hold_ms = static_cast<long long>(pacing.HoldSeconds() * 1000 + 0.5);
  const long long poster_ms = static_cast<long long>(1000.0 * pacing.poster_frames / pacing.fps + 0.5);
  // The chart is never drawn narrower than the width its text was sized for
  // (nor wider than its pixels): narrower screens are shown the phone's
  // layout instead (PhoneStyle), or, without one, scroll it inside its box.
  const int min_w = std::min(list.width, list.display_width > 0 ? list.display_width : list.width);
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\" data-last=\"" + std::to_string(list.last_tick) +
                    "\" data-ms-per-tick=\"" + std::to_string(ms_per_tick) + "\" data-hold-ms=\"" +
                    std::to_string(hold_ms) + "\" data-poster-ms=\"" + std::to_string(poster_ms) + "\"";
  if (pacing.ticks_per_frame > 1) out += " data-ticks-per-step=\"" + std::to_string(pacing.ticks_per_frame) + "\"";
  if (open_at >= 0) out += " data-open-at=\"" + std::to_string(open_at) + "\"";
  out += ">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
         XmlEscape(list.title.empty() ? "ppsim" : list.title) + "</title>\n<style>" + kStyle +
         ".chart svg.wide { min-width: " + std::to_string(min_w) + "px; max-width: " + std::to_string(list.width) +
         "px; width: min(100%, calc((100vh - 4.5em) * " + Num(static_cast<double>(list.width) / list.height) +
         ")); }\n" + PhoneStyle(list, min_w) + "</style>\n</head>\n<body>\n";
  out += Controls(list);
  // The chart fits a laptop's viewport height (its width follows the
  // frame's aspect) but is never narrower than its text was sized for.
  out += "<div class=\"chart\">\n";
  AppendChart(out, list, "wide");
  if (list.phone != nullptr) {  // its own hatch pattern: the other SVG's is not rendered where that SVG is hidden
    std::string phone;
    AppendChart(phone, *list.phone, "phone");
    for (const auto& [from, to] : {std::pair<std::string, std::string>{"id=\"hatch\"", "id=\"hatch-phone\""},
                                   {"url(#hatch)", "url(#hatch-phone)"}}) {
      for (size_t at = phone.find(from); at != std::string::npos; at = phone.find(from, at + to.size()))
        phone.replace(at, from.size(), to);
    }
    out += phone;
  }
  out += "</div>\n";
  // The metric table's columns for the page (shown_in), among them what must
  // fit on one device; the cluster's peak after them when the gauge shows the
  // cluster.
  std::vector<const MetricInfo*> columns = MetricsShownIn(kHtmlPage);
  if (list.gauge == GaugeMode::kCluster)
    for (const MetricInfo* metric : MetricsShownIn(kHtmlPageCluster)) columns.push_back(metric);
  out += "<div class=\"numbers\"><table>\n<tr><th>run</th>";
  for (const MetricInfo* metric : columns) out += "<th>" + std::string(MetricHeading(*metric)) + "</th>";
  out += "<th>P</th><th>M</th><th>v</th></tr>\n";
  for (const RunSummary& r : list.runs) {
    out += "<tr><td>" + XmlEscape(r.name) + "</td>";
    for (const MetricInfo* metric : columns) out += "<td>" + Metric(r, *metric) + "</td>";
    for (const int shape : {r.problem.P, r.problem.M, r.problem.v}) out += "<td>" + std::to_string(shape) + "</td>";
    out += "</tr>\n";
  }
  out += "</table></div>\n";
  // The closing lines, as on the chart: once the runs are done.
  for (const std::string& line : list.closing)
    out += "<p class=\"closing\" data-from=\"" + std::to_string(list.last_tick) + "\">" + XmlEscape(line) + "</p>\n";
  out += "<script>" + std::string(kScript) + "</script>\n</body>\n</html>\n";
  return out;
}

}  // namespace ppsim::render
