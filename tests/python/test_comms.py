# Communication as ops from Python: simulate(comms=..., link_...) is
# `ppsim simulate --comms ... --json`, errors name the keyword.
import json

import pytest

import ppsim
from conftest import as_python, run_cli


def test_is_the_cli_json():
    args = dict(P=4, chunks=2, M=8, comms="pytorch", link_latency=1)
    t = ppsim.simulate("interleaved", **args)
    code, out, err = run_cli("simulate", "-s", "interleaved", "-P", "4", "--chunks", "2", "-M", "8",
                             "--comms", "pytorch", "--link-latency", "1", "--json")
    assert code == 0, err
    cli = json.loads(out)
    assert t.makespan == cli["makespan"]
    assert list(t.exposed_comm_per_device) == cli["exposed_comm_per_device"]


def test_deferring_recvs_closes_the_bubble():
    eager = ppsim.simulate("interleaved", P=4, chunks=2, M=8, comms="pytorch")
    deferred = ppsim.simulate("interleaved", P=4, chunks=2, M=8, comms="pytorch-deferred")
    assert (eager.makespan, deferred.makespan) == (48, 38)


def test_bad_link_value_names_the_keyword():
    with pytest.raises(ppsim.Error, match="link_bandwidth must be ≥ 1, got 0"):
        ppsim.simulate("1f1b", comms="pytorch", link_bandwidth=0)


def test_send_release_frees_buffers_at_completion():
    # PyTorch PR #193903: held to the step's end, devices 1 and 2 hold all 32
    # of their sends' buffers; freed at completion, at most 3.
    args = dict(P=4, chunks=2, M=8, comms="pytorch", link_bytes=1000)
    end = ppsim.simulate("interleaved", **args)
    done = ppsim.simulate("interleaved", link_send_release="completion", **args)
    assert end.makespan == done.makespan
    assert (end.peak_send_bytes, done.peak_send_bytes) == (32000, 3000)
    with pytest.raises(ppsim.Error, match="link_send_release: 'soon' is not one of step_end, completion"):
        ppsim.simulate("interleaved", link_send_release="soon", **args)


def test_megatron_overlap_is_the_cli_and_refuses_1f1b():
    args = dict(P=4, chunks=2, M=8, costs={"F": 10, "BW": 20}, link_latency=3)
    blocking = ppsim.simulate("interleaved", comms="megatron", **args)
    overlap = ppsim.simulate("interleaved", comms="megatron-overlap", **args)
    assert (blocking.makespan, overlap.makespan) == (360, 332)
    assert (blocking.exposed_comm, overlap.exposed_comm) == (278, 233)
    with pytest.raises(ppsim.Error) as e:
        ppsim.simulate("1f1b", P=4, M=8, comms="megatron-overlap")
    assert e.value.code == 5
    assert str(e.value) == ("--comms megatron-overlap: Megatron-LM runs overlap_p2p_comm only in its interleaved "
                            "loop (v > 1; its 1F1B loop raises \"Non-interleaved pipeline parallelism does not "
                            "support overlapping p2p communication\"): 1f1b has one stage per device")


def test_link_parameters_without_comms_are_the_clis_error():
    # A link parameter is read by the comm model only: refused, not ignored.
    code, out, err = run_cli("simulate", "-s", "1f1b", "-P", "4", "-M", "8", "--link-latency", "3")
    assert code == 2 and out == "" and err.count("\n") == 1
    with pytest.raises(ppsim.Error) as e:
        ppsim.simulate("1f1b", P=4, M=8, link_latency=3)
    assert (e.value.code, str(e.value)) == (code, as_python(err))
    with pytest.raises(ppsim.Error, match="link_latency is a parameter of the comm model"):
        ppsim.compare(["1f1b", "gpipe"], P=4, M=8, link_latency=3)
    both = ppsim.compare(["1f1b"], P=4, M=8, link_latency=1, with_={"comms": "pytorch"})
    assert len(both) == 2
    code, out, err = run_cli("compare", "-s", "1f1b", "-P", "4", "-M", "8", "--comms", "pytorch", "--link-latency", "1",
                             "--json")
    assert code == 0, err
    cli = json.loads(out)
    with_comms = ppsim.compare(["1f1b"], P=4, M=8, comms="pytorch", link_latency=1)
    assert with_comms[0].makespan == cli["runs"][0]["makespan"]


def test_dualpipes_own_batches():
    # docs/comms.md: dualpipev P=4 M=8, link latency 1; --comms dualpipe.
    own = ppsim.simulate("dualpipev", P=4, M=8, comms="dualpipe", link_latency=1)
    pytorch = ppsim.simulate("dualpipev", P=4, M=8, comms="pytorch", link_latency=1)
    assert (own.makespan, own.exposed_comm) == (189, 374)
    assert (pytorch.makespan, pytorch.exposed_comm) == (289, 469)
    with pytest.raises(ppsim.Error, match="--comms dualpipe lowers DeepSeek's DualPipe and DualPipeV step\\(\\): "
                                          "zbv is neither dualpipe nor dualpipev"):
        ppsim.simulate("zbv", P=4, M=8, comms="dualpipe")


def test_a_compute_comms_file_is_written_back_byte_for_byte():
    # PyTorch's own artifact (test/distributed/pipelining/artifacts/): its
    # SEND/RECV program, read and exported as PyTorch's csv.writer wrote it
    # (CRLF; the stored copy has LF), with comms modelled or not.
    import os
    path = os.path.join(os.path.dirname(__file__), "..", "data", "pytorch_artifacts", "zb1p_2rank_2stagep_comms.csv")
    with open(path, "rb") as f:
        want = f.read().replace(b"\n", b"\r\n").decode()
    assert ppsim.simulate(schedule_file=path).export("pytorch-comms-csv") == want
    assert ppsim.simulate(schedule_file=path, comms="pytorch").export("pytorch-comms-csv") == want
