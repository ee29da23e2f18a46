# Microbatch lengths from Python: simulate(..., microbatch_lengths="uniform",
# length_range=[MIN, MAX], length_seed=S) is the CLI's --microbatch-lengths,
# the draw is the documented splitmix64 rule (transcribed here on its own),
# and bad input raises ppsim.Error with the CLI's message and exit code.
import json

import pytest

import ppsim
from conftest import as_python, run_cli

MASK = (1 << 64) - 1


def splitmix64_lengths(seed, lo, hi, count):
    """docs/costs.md: splitmix64 from state = seed; lo + x mod n, again while x < 2^64 mod n."""
    n, state, out = hi - lo + 1, seed, []
    while len(out) < count:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        x = z ^ (z >> 31)
        if x >= (1 << 64) % n:
            out.append(lo + x % n)
    return out


def test_uniform_lengths_are_the_cli_json():
    code, out, err = run_cli("simulate", "-s", "1f1b", "-P", "2", "-M", "4", "--microbatch-lengths", "uniform",
                             "--length-range", "1:8", "--length-seed", "7", "--json")
    assert code == 0, err
    got = json.loads(ppsim.simulate("1f1b", P=2, M=4, microbatch_lengths="uniform", length_range=[1, 8],
                                    length_seed=7).to_json())
    assert got == json.loads(out)
    assert got["microbatch_lengths"] == [8, 5, 3, 4]


@pytest.mark.parametrize("seed", [1, 2, 99, 4294967296])
def test_the_draw_follows_the_documented_rule(seed):
    t = json.loads(ppsim.simulate("1f1b", P=2, M=16, microbatch_lengths="uniform", length_range=[512, 4096],
                                  length_seed=seed).to_json())
    assert t["microbatch_lengths"] == splitmix64_lengths(seed, 512, 4096, 16)


def test_causal_lengths():
    t = json.loads(ppsim.simulate("1f1b", P=2, M=2, microbatch_lengths=[1, 2], length_cost="causal",
                                  hidden=1).to_json())
    assert t["microbatch_costs"] == [14, 30]


CASES = [
    (["simulate", "-M", "2", "--microbatch-lengths", "uniform"],
     lambda: ppsim.simulate(M=2, microbatch_lengths="uniform")),
    (["simulate", "-M", "2", "--microbatch-lengths", "uniform", "--length-range", "5:3"],
     lambda: ppsim.simulate(M=2, microbatch_lengths="uniform", length_range=[5, 3])),
    (["simulate", "-M", "2", "--microbatch-lengths", "1:2", "--length-cost", "causal"],
     lambda: ppsim.simulate(M=2, microbatch_lengths=[1, 2], length_cost="causal")),
]


@pytest.mark.parametrize("args,call", CASES)
def test_same_message_and_code_as_cli(args, call):
    code, out, err = run_cli(*args)
    assert code == 3 and out == ""
    with pytest.raises(ppsim.Error) as e:
        call()
    assert e.value.code == code
    assert str(e.value) == as_python(err)
