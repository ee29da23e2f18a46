// The bad-input catalogue: inputs that once crashed, hung, overflowed or lost
// a file, each with the one line and the exit code a user now gets. The test
// runs every row (bad_input_catalogue_test.cc) and docs/reliability.md shows
// them as a table generated from these rows (the test checks it is current).
#pragma once

#include <ostream>

#include "ppsim/error.h"

namespace ppsim::testing {

struct BadInput {
  const char *name;     // the test's name: letters, digits and underscores
  const char *klass;    // the row's class in docs/reliability.md
  const char *setup;    // shell commands run first in a fresh directory ("" = none)
  const char *args;     // what the user types after `ppsim` (shell syntax)
  ErrorCode code;       // the exit status
  const char *message;  // stderr, after "ppsim: ", the whole single line
};

// Failure messages print the row's name, not its bytes.
inline void PrintTo(const BadInput &c, std::ostream *os) { *os << c.name; }

// Set-up helpers: `scene CLAIM` writes s.toml, one gpipe run and that claim;
// `rep N TEXT` prints TEXT N times.
#define PPSIM_SCENE_FN                                                         \
  "rep() { local i; for ((i = 0; i < $1; i++)); do printf '%s' \"$2\"; done; " \
  "}; "                                                                        \
  "scene() { printf 'P = 4\\nM = 6\\n[[run]]\\nname = \"A\"\\nschedule = "     \
  "\"gpipe\"\\n[[claim]]\\n"                                                   \
  "check = \"%s\"\\n' \"$1\" > s.toml; }; "
#define PPSIM_BIG "1099511627776"  // 2^40, the largest cost

inline constexpr BadInput kBadInputs[] = {
    // Arithmetic that would overflow int64 is refused before simulating.
    {"WorkOverflowSimulate", "overflow", "", "simulate -s gpipe -P 4096 -M 1 --cost F=" PPSIM_BIG ",BW=" PPSIM_BIG,
     ErrorCode::kTooLarge,
     "P × M × Σ over stages of (F+B+W+3·comm) = more than 2^63 device-ticks "
     "exceeds the limit 2^62 (P × makespan must fit in 64 bits; use coarser "
     "ticks)"},
    {"WorkOverflowCompare", "overflow", "", "compare -s gpipe,1f1b -P 4096 -M 1 --cost F=" PPSIM_BIG ",BW=" PPSIM_BIG,
     ErrorCode::kTooLarge,
     "P × M × Σ over stages of (F+B+W+3·comm) = more than 2^63 device-ticks "
     "exceeds the limit 2^62 (P × makespan must fit in 64 bits; use coarser "
     "ticks)"},
    {"WorkOverflowCriticalPath", "overflow", "",
     "simulate -s gpipe -P 4096 -M 1 --cost F=" PPSIM_BIG ",BW=" PPSIM_BIG " --critical-path", ErrorCode::kTooLarge,
     "P × M × Σ over stages of (F+B+W+3·comm) = more than 2^63 device-ticks "
     "exceeds the limit 2^62 (P × makespan must fit in 64 bits; use coarser "
     "ticks)"},
    {"WorkOverflowScene", "overflow", PPSIM_SCENE_FN "scene 'makespan(A) > 0'",
     "check s.toml --set P=4096 --set M=1 --set costs.F=" PPSIM_BIG " --set costs.BW=" PPSIM_BIG, ErrorCode::kTooLarge,
     "s.toml:3: run A: P × M × Σ over stages of (F+B+W+3·comm) = more than "
     "2^63 device-ticks exceeds the limit 2^62 (P × makespan must fit in 64 "
     "bits; use coarser ticks)"},
    // Claims: no recursion without a depth limit.
    {"ClaimNestedParentheses", "claim depth", PPSIM_SCENE_FN "scene \"$(rep 10000 '(')P$(rep 10000 ')') == 4\"",
     "check s.toml", ErrorCode::kParse,
     "s.toml:7:266: claim: the expression nests deeper than 256 levels "
     "(parentheses, operators or function calls); split it into several "
     "claims"},
    {"ClaimNestedNot", "claim depth", PPSIM_SCENE_FN "scene \"$(rep 10000 'not ')P == 4\"", "check s.toml",
     ErrorCode::kParse,
     "s.toml:7:1034: claim: the expression nests deeper than 256 levels "
     "(parentheses, operators or function calls); split it into several "
     "claims"},
    {"ClaimNestedUnaryMinus", "claim depth", PPSIM_SCENE_FN "scene \"$(rep 10000 '-')P == 4\"", "check s.toml",
     ErrorCode::kParse,
     "s.toml:7:266: claim: the expression nests deeper than 256 levels "
     "(parentheses, operators or function calls); split it into several "
     "claims"},
    {"ClaimNestedFloor", "claim depth", PPSIM_SCENE_FN "scene \"$(rep 5000 'floor(')P$(rep 5000 ')') == 4\"",
     "check s.toml", ErrorCode::kParse,
     "s.toml:7:1546: claim: the expression nests deeper than 256 levels "
     "(parentheses, operators or function calls); split it into several "
     "claims"},
    {"ClaimLongChain", "claim depth", PPSIM_SCENE_FN "scene \"$(rep 300 'P+')P > 0\"", "check s.toml",
     ErrorCode::kParse,
     "s.toml:7:10: claim: the expression nests deeper than 256 levels "
     "(parentheses, operators or function calls); split it into several "
     "claims"},
    {"Claim100000Terms", "claim size", PPSIM_SCENE_FN "scene \"$(rep 100000 'P+')P > 0\"", "check s.toml",
     ErrorCode::kParse,
     "s.toml:7:10: claim: the claim is 200005 bytes long, over the limit "
     "65536"},
    // Sizes checked before any work: sweep ranges, thread counts.
    {"SweepOverTheWholeInt64", "sweep size", "",
     "check $PPSIM_EXAMPLES/gpipe_vs_1f1b.toml --sweep P=-9223372036854775808..9223372036854775807",
     ErrorCode::kTooLarge, "--sweep P=-9223372036854775808..9223372036854775807: more than 10000000 values"},
    {"NegativeThreads", "sweep size", "", "check $PPSIM_EXAMPLES/gpipe_vs_1f1b.toml --sweep P=1..2 --threads -3",
     ErrorCode::kUsage, "--threads: Value -3 not in range 0 to 2147483647"},
    {"RenderTooLargeToDraw", "chart size", "", "render $PPSIM_EXAMPLES/gpipe_vs_1f1b.toml --set P=4096 --set M=2048 -o a.svg",
     ErrorCode::kTooLarge,
     "render: the runs hold 16777216 stage-microbatches (P·v·M summed over the runs), over the limit 4194304 a "
     "picture is drawn from; use smaller P or M (simulate handles more)"},
    {"SimulateTextTooLargeToDraw", "chart size", "", "simulate -s 1f1b -P 64 -M 8192 --format text",
     ErrorCode::kTooLarge,
     "--format text: 524288 stage-microbatches (P·v·M), over the limit 262144 a text chart is drawn from; use "
     "smaller P or M, or another format"},
    // Timeline JSON: limits checked before anything is sized by them, every
    // number outside int64 an error naming its field.
    {"TimelineNegativeP", "timeline JSON", "printf '{\"P\": -1, \"ops\": []}' >t.json", "validate t.json",
     ErrorCode::kInvalidValue, "t.json: P must be ≥ 1, got -1"},
    {"TimelineNegativeM", "timeline JSON", "printf '{\"M\": -1, \"ops\": []}' >t.json", "validate t.json",
     ErrorCode::kInvalidValue, "t.json: M must be ≥ 1, got -1"},
    {"TimelineNegativeStages", "timeline JSON", "printf '{\"stages\": -1, \"ops\": []}' >t.json", "validate t.json",
     ErrorCode::kInvalidValue, "t.json: stages must be ≥ 1, got -1"},
    {"TimelinePAsAFloat", "timeline JSON", "printf '{\"P\": 3e9, \"ops\": []}' >t.json", "validate t.json",
     ErrorCode::kParse, "t.json: P: expected an integer, got 3e9"},
    {"TimelinePBeyondInt32", "timeline JSON", "printf '{\"P\": 3000000000, \"ops\": []}' >t.json", "validate t.json",
     ErrorCode::kTooLarge, "t.json: P: 3000000000 exceeds the limit 4096"},
    {"TimelinePInt32Max", "timeline JSON", "printf '{\"P\": 2147483647, \"ops\": []}' >t.json", "validate t.json",
     ErrorCode::kTooLarge, "t.json: P: 2147483647 exceeds the limit 4096"},
    {"TimelineStagesSixtyMillion", "timeline JSON", "printf '{\"stages\": 60000000, \"M\": 1, \"ops\": []}' >t.json",
     "validate t.json", ErrorCode::kTooLarge, "t.json: stages: 60000000 exceeds the limit 262144"},
    {"TimelineNumberBeyondInt64", "timeline JSON", "printf '{\"comm\": 99999999999999999999, \"ops\": []}' >t.json",
     "validate t.json", ErrorCode::kInvalidValue, "t.json: comm: 99999999999999999999 is outside the int64 range"},
    {"TimelineEmptyCostList", "timeline JSON", "printf '{\"costs\": {\"F\": []}, \"ops\": []}' >t.json",
     "validate t.json", ErrorCode::kParse, "t.json: costs.F: expected an integer or a non-empty list of integers"},
    // Inputs that are not regular files, or too big.
    {"SceneIsDevZero", "input size", "", "check /dev/zero", ErrorCode::kTooLarge,
     "/dev/zero holds more than 67108864 bytes, the limit for an input file "
     "(refused before reading it all)"},
    {"ScheduleIsEndlessFifo", "input size", "mkfifo f.txt; (yes 0F0 >f.txt 2>/dev/null &)",
     "simulate --schedule-file f.txt", ErrorCode::kTooLarge,
     "f.txt holds more than 67108864 bytes, the limit for an input file "
     "(refused before reading it all)"},
    {"ScheduleIsFifoWithoutWriter", "input size", "mkfifo f.txt", "simulate --schedule-file f.txt",
     ErrorCode::kBadSchedule, "f.txt: no ops (one line per device expected)"},
    {"ScheduleIsDirectory", "unreadable input", "mkdir d.txt", "simulate --schedule-file d.txt", ErrorCode::kIo,
     "cannot read d.txt: it is a directory"},
    {"TimelineIsDirectory", "unreadable input", "mkdir d.json", "validate d.json", ErrorCode::kIo,
     "cannot read d.json: it is a directory"},
    {"CostFileIsDirectory", "unreadable input", "mkdir d.toml", "simulate --cost-file d.toml", ErrorCode::kIo,
     "--cost-file: cannot read d.toml: it is a directory"},
    {"TinyScheduleNamingAHugeMicrobatch", "input size", "yes F0 | head -n 999 >s.txt; echo B59999 >>s.txt",
     "simulate --schedule-file s.txt", ErrorCode::kBadSchedule, "s.txt: F1@s0 is missing (expected on device 0)"},
    {"CsvWithTenMillionRows", "input size", "yes 0F0 | head -n 10000000 >big.csv", "simulate --schedule-file big.csv",
     ErrorCode::kTooLarge, "big.csv:4097:1: more than 4096 devices (rows)"},
    {"CsvBackwardBeforeItsForward", "schedule CSV",
     "printf '0F0,0F1,0B0,0F2,0B1,0F3,0B2,0B3\\r\\n1F1,1B0,1F2,1B1,1F3,1B2,1F4,1B3\\r\\n' >s.csv", "validate s.csv",
     ErrorCode::kBadSchedule,
     "s.csv:2:5: 1B0 runs the full backward without its forward 1F0 before it (PyTorch's _validate_schedule: "
     "'Rank 1, step 1: Running Full Backward for stage 1, microbatch 0 without first running Forward')"},
    // Outputs: a write error is exit 12, and nothing partial is left behind.
    {"OutputOntoDevFull", "output", "", "simulate -o /dev/full", ErrorCode::kIo,
     "cannot write /dev/full: No space left on device"},
    {"SimulateStdoutFull", "output", "", "simulate >/dev/full", ErrorCode::kIo,
     "cannot write to stdout: No space left on device"},
    {"CompareStdoutFull", "output", "", "compare >/dev/full", ErrorCode::kIo,
     "cannot write to stdout: No space left on device"},
    {"CheckJsonStdoutFull", "output", "", "check $PPSIM_EXAMPLES/gpipe_vs_1f1b.toml --json >/dev/full", ErrorCode::kIo,
     "cannot write to stdout: No space left on device"},
    {"RenderTextStdoutFull", "output", "", "render $PPSIM_EXAMPLES/gpipe_vs_1f1b.toml -o - --format text >/dev/full",
     ErrorCode::kIo, "cannot write to stdout: No space left on device"},
    {"ValidateStdoutFull", "output", "\"$PPSIM\" simulate --json -o t.json 2>/dev/null", "validate t.json >/dev/full",
     ErrorCode::kIo, "cannot write to stdout: No space left on device"},
    {"RenderAllOrNothing", "output", "", "render $PPSIM_EXAMPLES/gpipe_vs_1f1b.toml -o a.svg -o /nonexistent/b.svg",
     ErrorCode::kIo, "cannot write /nonexistent/b.svg: no directory /nonexistent"},
    {"FfmpegFailsInOneLine", "output",
     "mkdir bin; printf '#!/bin/sh\\necho first problem >&2\\necho second "
     "problem >&2\\nexit 1\\n' >bin/ffmpeg; "
     "chmod +x bin/ffmpeg; export PATH=$PWD/bin:$PATH",
     "render $PPSIM_EXAMPLES/gpipe_vs_1f1b.toml -o a.webm", ErrorCode::kIo,
     "ffmpeg failed writing a.webm (exit status 1): first problem; second "
     "problem"},
};

}  // namespace ppsim::testing
