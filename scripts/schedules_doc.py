#!/usr/bin/env python3
# Writes docs/schedules.md from the tool: scripts/schedules_doc.py build/ppsim > docs/schedules.md
import json, subprocess, sys
B = sys.argv[1] if len(sys.argv) > 1 else 'build/ppsim'
def run(args):
    return subprocess.run([B, 'simulate'] + args, capture_output=True, text=True, check=True).stdout
def stats(args):
    j = json.loads(run(args + ['--json', '--hold', 'resident']))
    P = j['P']; span = {}; busy = {}
    seen = set()
    for o in j['ops']:
        d = o['device']
        key = (d, o.get('overlap', -1), o['start']) if o.get('overlap', -1) >= 0 else None
        s = span.setdefault(d, [o['start'], o['end']]); s[0] = min(s[0], o['start']); s[1] = max(s[1], o['end'])
        if key is not None:
            if key in seen: continue
            seen.add(key)
        busy[d] = busy.get(d, 0) + o['end'] - o['start']
    span_idle = [span[d][1] - span[d][0] - busy[d] for d in range(P)]
    mk_idle = [j['makespan'] - busy[d] for d in range(P)]
    return j, span_idle, mk_idle
out = []
def section(title, text, args, rows):
    out.append('## ' + title + '\n\n' + text.strip() + '\n\n')
    out.append('```\n$ ppsim simulate ' + ' '.join(args) + ' --format text\n' + run(args + ['--format', 'text']) + '```\n\n')
    j, span_idle, mk_idle = stats(args)
    out.append('| quantity | published | ppsim |\n| --- | --- | --- |\n')
    for name, pub, fn in rows:
        out.append('| %s | %s | %s |\n' % (name, pub, fn(j, span_idle, mk_idle)))
    out.append('\n')
peak = lambda j, s, m: ' '.join(map(str, j['peak_activations_per_device']))
out.append('''# Schedules

Every schedule ppsim knows (`ppsim list` prints the same list with its
preconditions), each with a terminal chart from `ppsim simulate --format
text` and its bubble and memory against the published closed forms
(tests/data/README.md). Every run does the same work, one model's
(docs/costs.md): a stage's backward is B (input gradient) + W (weight
gradient), and a schedule that does not split it runs both as one op. The
default costs are F = 1 and a backward of 1 (B = W = 1/2, so split runs count
in half-units); the split schedules below are charted at F = B = W = 1, the
Zero Bubble paper's setting, as their commands say. The charts are the
chart `ppsim render --format text` draws, at its default 80 columns:
`F3` where an op starts (`F3c1` for a device's
second chunk) and `-` through its further cycles, `.` an idle cycle, and
`idle N` each device's idle cycles. Where the labels do not fit, one letter
a cycle: lower case for the second chunk, `+` for an overlapped pair (one
compound op). The `held` row gives the activations the fullest device holds in
each cycle, counted the allocator's way (from the start of F to the end of
its B or W), in stage-sets (a chunk's set counts 1/v); where it is drawn as
bars, the numbers follow it, ten cycles to a group, each line headed by
its first cycle. The tables measure activations in
the allocator's view (`--hold resident`). The tests in
tests/core/zoo_closed_forms_test.cc and tests/core/closed_forms_test.cc check
each formula over a grid of sizes and costs, inside its assumptions; this
page says what happens outside them. tests/core/conformance_orders_test.cc
checks every order in tests/data/pytorch_orders_public.json op
for op; tests/core/megatron_orders_test.cc and vshape_orders_test.cc check
Megatron's and the Zero Bubble team's orders in tests/data/peers_public.json
(combined_1f1b_test.cc the combined F&B order).

Split-backward schedules (zb-*, zbv, v-half, v-min, dualpipe*) run B = the input-gradient
pass and W = the weight-gradient pass; DualPipe's other backwards are *full*
(one op, B+W long, no W; `--cost BW=…`, docs/semantics.md), drawn as a B
cell as long as B+W. GPipe, 1F1B, interleaved, combined-1f1b and looped-bfs
run every backward full; the closed forms' B is then B + W. See
docs/costs.md for costs and bytes.

''')
section('gpipe', '''GPipe: every forward in microbatch order, then every backward.''',
        ['-s', 'gpipe', '-P', '4', '-M', '8'],
        [('makespan', '(M+P−1)(F+B) = 22', lambda j, s, m: j['makespan']),
         ('bubble ratio idle/busy', '(P−1)/M = 0.375', lambda j, s, m: j['bubble_ratio']),
         ('peak activations per device', 'M = 8 each', peak)])
section('1f1b', '''1F1B (PipeDream-Flush): device d runs min(P−1−d, M) warm-up forwards, then
one forward and one backward at a time, then the remaining backwards. Equals
PyTorch's Schedule1F1B.''',
        ['-s', '1f1b', '-P', '4', '-M', '8'],
        [('makespan', '(M+P−1)(F+B) = 22', lambda j, s, m: j['makespan']),
         ('bubble ratio', '(P−1)/M = 0.375', lambda j, s, m: j['bubble_ratio']),
         ('peak activations per device', 'P−d = 4 3 2 1', peak)])
section('interleaved', '''Interleaved 1F1B (Megatron-LM; equals PyTorch's ScheduleInterleaved1F1B):
v chunks per device, microbatches in rounds of P. The formula assumes M a
multiple of P and chunk cost = stage cost / v (here each chunk costs 1).
For other M PyTorch's rounds of M / max(1, M/P) are used, and M must be a
multiple of the number of rounds.

`--group g` is Megatron's microbatch_group_size_per_vp_stage: microbatches go
through each chunk in groups of g, and a last group shorter than g (M not a
multiple of g) goes through whole. Device d warms up with (v−1)·g + 2(P−1−d)
forwards. Megatron's checks apply and ppsim refuses the rest (exit 5, with
Megatron's reason): P ≤ g ≤ M, and M mod g is 0 or at least P. With g = P
the order is the one above. The bubble formula holds for every group
Megatron accepts (tests/core/megatron_orders_test.cc), e.g. M = 9, g = 5:''',
        ['-s', 'interleaved', '-P', '4', '-M', '8', '--chunks', '2'],
        [('bubble ratio', '(P−1)/(v·M) = 0.1875', lambda j, s, m: j['bubble_ratio']),
         ('same, -M 9 --group 5', '(P−1)/(v·M) = 0.1667', lambda j, s, m: '%.4f' % stats(['-s', 'interleaved', '-P', '4', '-M', '9', '--chunks', '2', '--group', '5'])[0]['bubble_ratio']),
         ('peak activations per device', '—', peak)])
section('combined-1f1b', '''Megatron-LM's combined 1F1B (`overlap_moe_expert_parallel_comm`:
schedules.py's interleaved schedule calling `combined_1f1b.py` for every
step, used to hide MoE expert-parallel all-to-all behind the other
microbatch's compute). The order is interleaved's with `--group g` (default
P), but device d runs one more warm-up forward, (v−1)·g + 2(P−1−d) + 1 (capped
at v·M), "so that the forward and backward computations are independent in
all 1f1b steps"; each steady step is then one overlapped call `F3+b0`, an
(F;B) pair whose backward is Megatron's full backward_step (the pair costs
F+B, or `--cost FB=…`). Warm-up forwards and cool-down backwards run alone.
With P = 1 it is `combined_1f1b_schedule_for_no_pipelining`: F0, (F1;B0), …,
B(M−1). Megatron's checks apply (exit 5, with its reason): v ≥ 2 when P > 1
(with EP A2A overlap, virtual_pipeline_model_parallel_size must be
specified), v = 1 when P = 1, and interleaved's group rules.

At F+B per pair the makespan and bubble are interleaved's, (vM+P−1)(F+B)
and (P−1)/(vM), for every group Megatron accepts and any F, B; the extra
warm-up forward costs memory instead: device d holds min((v−1)·g + 2(P−1−d)
+ 2, vM) chunk sets (allocator view), one more than interleaved on all but
saturated devices. A pair that overlaps better (FB < F+B) shortens the
steady state; ppsim then measures it and gives no formula.
tests/core/combined_1f1b_test.cc checks both public Megatron orders op for
op, these forms over P 2–8, v 2–3 and every accepted group, and the
refusals.''',
        ['-s', 'combined-1f1b', '-P', '4', '-M', '8', '--chunks', '2'],
        [('makespan', 'interleaved\'s (vM+P−1)(F+B) = 38', lambda j, s, m: j['makespan']),
         ('bubble ratio', 'interleaved\'s (P−1)/(v·M) = 0.1875', lambda j, s, m: j['bubble_ratio']),
         ('peak activations per device', '— (ppsim\'s form min((v−1)g+2(P−1−d)+2, vM) = 12 10 8 6)', peak),
         ('interleaved, same size', 'one less: 11 9 7 5', lambda j, s, m: ' '.join(map(str, stats(['-s', 'interleaved', '-P', '4', '-M', '8', '--chunks', '2'])[0]['peak_activations_per_device']))),
         ('same, `--cost F=1,BW=1,FB=1` (pair fully overlapped)', '—', lambda j, s, m: stats(['-s', 'combined-1f1b', '-P', '4', '-M', '8', '--chunks', '2', '--cost', 'F=1,BW=1,FB=1'])[0]['makespan'])])
section('looped-bfs', '''Looped BFS (PyTorch ScheduleLoopedBFS): each chunk's forwards for all
microbatches, then its backwards. No published closed form; it holds every
microbatch of every chunk, like GPipe.''',
        ['-s', 'looped-bfs', '-P', '4', '-M', '8', '--chunks', '2'],
        [('bubble ratio', '—', lambda j, s, m: j['bubble_ratio']),
         ('peak activations per device', 'v·M = 16', peak)])
section('zb-h1', '''ZB-H1 (Qi et al., Zero Bubble Pipeline Parallelism, ICLR 2024): 1F1B with
the backward split; device d holds its first d W back, so every device keeps
P microbatches in flight, and the held-back W fill the cool-down. Equals
zb1p with one chunk. The bubble is measured per device span (the paper's
definition): (P−1)(F+B−W) when W ≤ F; with W > F the W no longer fit the
gaps they are meant to fill and ppsim measures more, e.g. 6 instead of 3 at
P = 4, F = 1, B = 2, W = 2.''',
        ['-s', 'zb-h1', '-P', '4', '-M', '8', '--cost', 'F=2,B=2,W=1'],
        [('largest idle in a device span', '(P−1)(F+B−W) = 9', lambda j, s, m: max(s)),
         ('1F1B, same costs (its backward whole: B + W = 3)', '(P−1)(F+B+W) = 15', lambda j, s, m: max(stats(['-s', '1f1b', '-P', '4', '-M', '8', '--cost', 'F=2,B=2,W=1'])[1])),
         ('peak activations per device', 'P = 4', peak)])
section('zb-h2', '''ZB-H2 (Qi et al. 2024): more warm-up forwards (up to 2P−1 microbatches in
flight) fill the bubble before the first B, and W are pushed to the tail,
turning the trapezoid into a parallelogram. ppsim builds it as the order a
unit-cost pipeline produces with the priorities B, then F (while fewer than
2P−1 in flight), then W. Inside M ≥ 2P−1 and W ≤ F the bubble per device span
is (P−1)(F+B−2W) (zero at equal costs); with fewer microbatches the warm-up
cannot be filled and the bubble grows.''',
        ['-s', 'zb-h2', '-P', '4', '-M', '8', '--cost', 'F=1,B=1,W=1'],
        [('largest idle in a device span', '(P−1)(F+B−2W) = 0 at F = B = W = 1', lambda j, s, m: max(s)),
         ('same, --cost F=2,B=2,W=1', '(P−1)(F+B−2W) = 6', lambda j, s, m: max(stats(['-s', 'zb-h2', '-P', '4', '-M', '8', '--cost', 'F=2,B=2,W=1'])[1])),
         ('peak activations per device', '2P−1 = 7', peak)])
section('zb1p', '''ZB1P (PyTorch ScheduleInterleavedZeroBubble): interleaved 1F1B with the
backward split, a warm-up of one forward per hop (not Megatron's two), and
device d's first d W held back. Equals PyTorch's per-rank order; with v = 1
it is ZB-H1. No published closed form for v > 1.''',
        ['-s', 'zb1p', '-P', '4', '-M', '8', '--chunks', '2', '--cost', 'F=1,B=1,W=1'],
        [('largest idle in a device span', '—', lambda j, s, m: max(s)),
         ('bubble ratio', '—', lambda j, s, m: j['bubble_ratio']),
         ('peak activations per device', '—', peak)])
section('zbv', '''ZB-V (Qi et al. 2024, §6; equals PyTorch's ScheduleZBVZeroBubble): V-shape
placement, device d holds stages d and 2P−1−d, so a microbatch goes down the
devices and back up, and the first and last stage share device 0. Zero
bubble inside the steady state when F = B = W; the README gives no closed
form. For M < 2P−1 the order is built for 2P−1 microbatches and the missing
ones dropped, as PyTorch does.''',
        ['-s', 'zbv', '-P', '4', '-M', '8', '--cost', 'F=1,B=1,W=1'],
        [('largest idle in a device span', '—', lambda j, s, m: max(s)),
         ('bubble ratio', '—', lambda j, s, m: j['bubble_ratio']),
         ('peak activations per device (chunk-microbatches)', '—', peak)])
def vshape_rows(name, formula, per_mb, paper_ratio):
    most = lambda args: max(stats(args)[0]['peak_activations_per_device'])
    one_f_one_b = lambda P, M: max(stats(['-s', '1f1b', '-P', str(P), '-M', str(M)])[0]['peak_activations_per_device'])
    rate = lambda args: '%.4f' % stats(args + ['--cost', 'F=1,B=1,W=1'])[0]['bubble_rate_span']
    from fractions import Fraction
    ratio = lambda P, M: str(Fraction(most(['-s', name, '-P', str(P), '-M', str(M)]), 2 * one_f_one_b(P, M)))
    return [('peak activations, fullest device (chunk sets, 2 per microbatch)', '%s = %d' % (formula, 2 * per_mb(4)),
             lambda j, s, m: max(j['peak_activations_per_device'])),
            ('1F1B on the same model (microbatches)', 'P = 4', lambda j, s, m: one_f_one_b(4, 8)),
            ('peak / 1F1B\'s, P = 4', '≈ %s; table %d/4' % (paper_ratio, per_mb(4)), lambda j, s, m: ratio(4, 8)),
            ('peak / 1F1B\'s, P = 8, M = 16', '≈ %s; table %d/8' % (paper_ratio, per_mb(8)), lambda j, s, m: ratio(8, 16)),
            ('peak / 1F1B\'s, P = 16, M = 32', '≈ %s; table %d/16' % (paper_ratio, per_mb(16)), lambda j, s, m: ratio(16, 32)),
            ('bubble rate (idle / span of the widest device), P = 8, M = 64', '', lambda j, s, m: rate(['-s', name, '-P', '8', '-M', '64'])),
            ('1F1B, same work (its backward whole, B + W = 2), P = 8, M = 64', '~P/M = 0.125', lambda j, s, m: rate(['-s', '1f1b', '-P', '8', '-M', '64']))]
rows = vshape_rows('v-half', '2⌊(P+2)/2⌋', lambda P: (P + 2) // 2, '1/2')
rows[-2] = (rows[-2][0], '~P/(2M) = 0.0625', rows[-2][2])
section('v-half', '''V-Half (Qi et al., "Pipeline Parallelism with Controllable Memory",
NeurIPS 2024): V-shape placement like ZB-V, in the order the Zero Bubble
team's greedy generator (zbv_greedy.py) produces. A repeating pattern spreads
each microbatch's four passes (F and B of both chunks) over 6-slot periods
on device d; every op is then moved to the earliest free slot that its
dependencies and the pattern's memory allow (twice), and the W fill the idle
slots, chunk 1's first. The paper claims about 1/2 of 1F1B's activations; the
authors' table gives ⌊(P+2)/2⌋ microbatches against 1F1B's P, and a bubble
rate ~P/(2M) at F = B = W.

Measured (allocator view, `--hold resident`): the fullest device holds
exactly 2⌊(P+2)/2⌋ chunk sets, i.e. ⌊(P+2)/2⌋ microbatches, at every P ≤ 8
and M ≥ P (tests/core/vshape_orders_test.cc), so ppsim agrees with the table.
It differs from "1/2" at small P: the ratio is 1/2 + 1/P for even P (3/4 at
P = 4, 5/8 at P = 8) and reaches 1/2 only as P grows. Other devices may hold
one chunk set less. The bubble rates in the table are the authors' rough
~P/M-style figures; measured at P = 8, M = 64, V-Half's is 0.43 of 1F1B's
(not 1/2) and below its ~P/(2M).

Size limits (V-Half and V-Min): the greedy squeeze re-counts a device's
memory for every move it tries, so its time grows faster than P·M. ppsim
refuses P > 256 or P·M > 262144 before allocating (exit 6, naming the
limit). Measured at the limits on the 2-core development machine: P = 256,
M = 1024 takes 6.2 s of CPU (V-Min 3.2 s) and 68 MB; P = 4, M = 65536
takes 1.1 s. Beyond them it grew to 13 s at P = 1024, M = 256 and 44 s at
P = 4096, M = 64.''',
        ['-s', 'v-half', '-P', '4', '-M', '8', '--cost', 'F=1,B=1,W=1'], rows)
rows = vshape_rows('v-min', '2⌊(P+4)/3⌋', lambda P: (P + 4) // 3, '1/3')
rows[-2] = (rows[-2][0], '~2P/(3M) = 0.0833', rows[-2][2])
section('v-min', '''V-Min (Qi et al. 2024): the same construction from a tighter pattern
(a microbatch's passes closer together on each device), so fewer
microbatches are in flight. The paper claims about 1/3 of 1F1B's
activations; the authors' table gives ⌊(P+4)/3⌋ microbatches, and a bubble
rate ~2P/(3M) at F = B = W.

Measured: the fullest device holds exactly 2⌊(P+4)/3⌋ chunk sets at every
P ≤ 8 and M ≥ P (tests/core/vshape_orders_test.cc), as the table says. It
differs from "1/3" at small P: 1/2 of 1F1B's at P = 4 and P = 8, 3/8 at
P = 16, 2/3 at P = 3; the +4 is the pattern's ramp, so the ratio nears 1/3
only as P grows. Its bubble rate at P = 8, M = 64 is 2/3 of 1F1B's, as the
table's ~2P/(3M) against ~P/M says, though both sit below those figures.''',
        ['-s', 'v-min', '-P', '4', '-M', '8', '--cost', 'F=1,B=1,W=1'], rows)
idle_of = lambda args: max(stats(args)[2])
section('dualpipe', '''DualPipe (DeepSeek-V3, `dualpipe/dualpipe.py`): two copies of the model run
in opposite directions (placement `dualpipe`): microbatches 0..M/2−1 go down
copy 0 (stages 0..P−1), microbatches M/2..M−1 go up copy 1 (stages P..2P−1,
stage P on device P−1). Rank r and its mirror P−1−r run the same eight steps
as V-rank min(r, P−1−r) of P/2, each with the direction that enters at its
own end as phase 0. Needs even P and an even M ≥ 2P (DeepSeek's asserts).
DeepSeek's table: bubble (PP/2−1)(F&B+B−3W) with B the full backward (ppsim's
`BW`, default B+W) and F&B the overlapped pair (ppsim's `FB`, default F+BW);
activations PP+1 per device; parameters 2×.

**DeepSeek's eight steps as ppsim slots** (src/core/dual_order.cc, the same
for DualPipeV with n = P ranks and M microbatches; here n = P/2 half-ranks
and M/2 microbatches per direction; rank r, phase 0 the direction entering
at this rank's end). Each compute call of `step()` is one slot:
`_forward_chunk` an F; `_backward_chunk` with `enable_zb=False` one *full*
backward (one op, B+W, no W), with `enable_zb=True` an input-gradient B
whose weight pass is queued (WeightGradStore); `_weight_chunk` the W of the
oldest queued one (FIFO); `_forward_backward_chunk` one overlapped pair —
the F and a full B as one compound op, or with `--no-overlap` (no
`overlapped_forward_backward` on the model) its F, then its full B.

| step | DeepSeek | ppsim slots per iteration | iterations |
| --- | --- | --- | --- |
| 1 | nF0 | F0 | 2(n−r−1) |
| 2 | nF0F1 | F0, F1 | r+1 |
| 3 | nB1W1F1 (zero bubble) | B1 (input), W, F1 | n−r−1 |
| 4 | nF0B1F1B0 (main) | (F0;B1), (F1;B0) — on the middle rank(s) the first F0 and B1 run apart: F0, full B1 | M/2−2n+r+1 (DualPipe), M−2n+r+1 (DualPipeV) |
| 5 | nB1F1B0 | full B1, (F1;B0) | n−r−1 |
| 6 | nB1B0 | B1, B0 — full in the first half, input-only from the middle on (the switch point depends on r's parity) | r+1 |
| 7 | nWB0 (zero bubble) | W, B0 (input) | n−r−1 |
| 8 | nW | W | r+1 |

tests/core/conformance_dualpipe_test.cc compares this with orders recorded
from DeepSeek's code (tests/data/peers_public.json), op for op, in both
overlap modes: which ops are pairs and which backwards are full or split.
Where ppsim deliberately differs: only in time, never in order. DeepSeek
posts its sends and receives in batches and waits for a whole batch before
the next compute call (so, e.g., step 3's W also waits for the next
forward's input); ppsim adds `--comm` to each dependency on its own and
starts an op as soon as its own inputs are there. A pair starts when both of
its inputs are there and both of its ops end together, as the overlapped
call returns both.

The bubble formula is exact in ppsim (largest idle of one device over the
makespan) when F = B, W ≤ F and F + W ≤ FB ≤ F + BW, i.e. from a pair
that hides all but W up to no overlap benefit at all (unit costs, second
row); tests/core/zoo_closed_forms_test.cc checks it there. Without overlap
(`--no-overlap`) each pair is two ops and the bubble is smaller still
(third row): a lone F need not wait for its partner's gradient.''',
        ['-s', 'dualpipe', '-P', '4', '-M', '8', '--cost', 'F=2,B=2,W=1,FB=3'],
        [('largest device idle over the makespan', '(P/2−1)(F&B+B−3W) = 1·(3+3−3) = 3', lambda j, s, m: max(m)),
         ('same at unit costs (FB = F+BW = 3, BW = 2)', '(P/2−1)(F&B+B−3W) = 2', lambda j, s, m: idle_of(['-s', 'dualpipe', '-P', '4', '-M', '8', '--cost', 'F=1,B=1,W=1'])),
         ('unit costs, `--no-overlap`', '—', lambda j, s, m: idle_of(['-s', 'dualpipe', '-P', '4', '-M', '8', '--cost', 'F=1,B=1,W=1', '--no-overlap'])),
         ('peak activations per device', 'PP+1 = 5 (unit costs)', lambda j, s, m: ' '.join(map(str, stats(['-s', 'dualpipe', '-P', '4', '-M', '8', '--cost', 'F=1,B=1,W=1'])[0]['peak_activations_per_device']))),
         ('parameters per device', '2× (two model copies)', lambda j, s, m: '2× (tests/core/memory_bytes_test.cc)')])
section('dualpipev', '''DualPipeV (DeepSeek's `dualpipe/dualpipev.py`, DualPipe folded into a V;
its order equals PyTorch's ScheduleDualPipeV): V-shape placement like ZB-V,
the same eight steps (table above) on P devices with chunk 0 and chunk 1 as
the two phases, no second model copy; the first F0, B1 of the main step run
apart on the last rank (the V's tip). Needs M ≥ 2P; odd P and odd M are
fine. DeepSeek's numbers apply with PP/2 = P: bubble (P−1)(F&B+B−3W),
activations 2P+1 chunk-microbatches per device, parameters 1×. PyTorch
writes the same order with `B` for a full backward, `I` for an input-only one
and `(F;B)OVERLAP_F_B` for a pair; ppsim exports and re-imports it byte for
byte.''',
        ['-s', 'dualpipev', '-P', '4', '-M', '10', '--cost', 'F=2,B=2,W=1,FB=3'],
        [('largest device idle over the makespan', '(P−1)(F&B+B−3W) = 3·(3+3−3) = 9', lambda j, s, m: max(m)),
         ('same at unit costs (FB = F+BW = 3, BW = 2)', '(P−1)(F&B+B−3W) = 6', lambda j, s, m: idle_of(['-s', 'dualpipev', '-P', '4', '-M', '10', '--cost', 'F=1,B=1,W=1'])),
         ('unit costs, `--no-overlap`', '—', lambda j, s, m: idle_of(['-s', 'dualpipev', '-P', '4', '-M', '10', '--cost', 'F=1,B=1,W=1', '--no-overlap'])),
         ('peak activations per device', '2P+1 = 9 (unit costs)', lambda j, s, m: ' '.join(map(str, stats(['-s', 'dualpipev', '-P', '4', '-M', '10', '--cost', 'F=1,B=1,W=1'])[0]['peak_activations_per_device'])))])
section('seq1f1b', '''Seq1F1B (Sun et al., NAACL 2025; the Zero Bubble repository's
`scheduler/seq1f1b.py`): 1F1B over K sequence slices per microbatch
(`--slices K`, docs/semantics.md "Sequence slices"). Device d runs
min(P−d−2+K, M·K) warm-up forward slices in (microbatch, slice) order, then
one forward slice, one backward slice, then drains; a microbatch's backward
slices run K−1 … 0. Each B is a full backward. Slice k's forward also waits
on slice k−1's on its stage, its backward on slice k+1's. K = 1 is 1F1B.
Without latency the makespan is (M + (P−1)/K)(F+B+W); a slice holds 1/K of a
microbatch's activations, so the fullest device holds (P+K−1)/K stage-sets
against 1F1B's P. Orders equal tests/data/seq1f1b_public.json (P = 2, M = 4,
K = 2) op for op. Cells are labelled F3.1: slice 1 of microbatch 3.''',
        ['-s', 'seq1f1b', '-P', '4', '-M', '4', '--slices', '2'],
        [('makespan', '(M+(P−1)/K)(F+B+W) = (4+3/2)·2 = 11 = 22 ticks of 1/2', lambda j, s, m: j['makespan']),
         ('fullest device peak (allocator view)', '(P+K−1)/K = 5/2 stage-sets', lambda j, s, m: j['device_peak_stage_sets'])])
sys.stdout.write(''.join(out))
