#!/usr/bin/env python3
"""Records the P2P calls DeepSeek's DualPipe and DualPipeV step() make.

Runs the real step() of deepseek-ai/DualPipe (a checkout given as the first
argument; read at 3da1bbe) once per rank, with stand-ins for torch, the
modules and torch.distributed, and prints each rank's program in ppsim's
names: its computes in order and, in brackets, each batch
_commit_and_wait_comm hands to batch_isend_irecv. Pairs are "F+B", a full
backward (no zero-bubble split) ends in "(full)". Writes the lines
tests/core/comm_dualpipe_test.cc compares `--comms dualpipe` with:

    python3 scripts/record_dualpipe_calls.py ../DualPipe > tests/data/dualpipe/step_calls.txt

Nothing of DualPipe is copied; its package is imported from the checkout.
"""
import os
import sys
import tempfile

# Just enough of torch for step() to run without a GPU: tensors are tokens.
STANDINS = {
    "torch/__init__.py": """
class Tensor:
    def __init__(self, *a, **k):
        self._base, self.grad, self.data = None, None, None
    def detach(self): return Tensor()
    def requires_grad_(self): return self
    def backward(self): pass
    def detach_(self): return self
class dtype: pass
def is_grad_enabled(): return True
def stack(xs): return Tensor()
def empty(*a, **k): return Tensor()
def device(x): return x
class cuda:
    @staticmethod
    def current_device(): return 0
from . import nn, distributed, autograd
""",
    "torch/nn.py": "class Module:\n    def __init__(self): pass\nclass ModuleList(list): pass\n",
    "torch/autograd.py": "class Variable: _execution_engine = None\n",
    "torch/distributed.py": """
def irecv(*a): pass
def isend(*a): pass
class P2POp:
    def __init__(self, op, tensor, peer): self.op, self.tensor, self.peer = op, tensor, peer
class ProcessGroup: pass
class distributed_c10d:
    @staticmethod
    def get_global_rank(group, r): return r
def batch_isend_irecv(ops): return []
""",
}


def load(checkout):
    root = tempfile.mkdtemp(prefix="dualpipe_standins_")
    for path, text in STANDINS.items():
        os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(root, path), "w") as f:
            f.write(text)
    sys.path[:0] = [root, checkout]
    import torch
    import dualpipe.comm as comm
    import dualpipe.dualpipe as dp
    import dualpipe.dualpipev as dpv
    from dualpipe.utils import WeightGradStore
    for m in (dp, dpv):
        m.scatter = lambda x, n, dim: [[torch.Tensor()] for _ in range(n)]
        m.run_backward = lambda *a, **k: None
    comm.TENSOR_SHAPES, comm.TENSOR_DTYPE = [(1,)], "bf16"
    return torch, dp, dpv, WeightGradStore


class Module:
    def __init__(self, torch):
        self.torch = torch

    def __call__(self, *inputs):
        for t in inputs:
            t.grad = self.torch.Tensor()
        return self.torch.Tensor()


def record(lib, v, P, M, rank):
    torch, dp, dpv, store = lib
    cls = dpv.DualPipeV if v else dp.DualPipe
    self = cls.__new__(cls)  # __init__ wants CUDA parameters and a process group
    self.module, self.overlapped_forward_backward = [Module(torch), Module(torch)], False
    self.batch_dim, self.group, self.num_ranks, self.rank = 0, None, P, rank
    self.prev_rank, self.next_rank, self.first_rank, self.last_rank = rank - 1, rank + 1, 0, P - 1
    self.is_first_rank, self.is_last_rank = rank == 0, rank == P - 1
    self.is_in_second_half = rank >= P // 2
    self.is_middle_rank = rank in (P // 2 - 1, P // 2)
    out, queued_w = [], []

    def real(phase):  # DualPipe's second-half ranks swap their phases
        return phase if v else phase ^ self.is_in_second_half

    def name(phase, chunk):  # ppsim's (stage, microbatch) of (real phase, chunk id)
        stage = rank if phase == 0 else 2 * P - 1 - rank
        return stage, chunk if v or phase == 0 else M // 2 + chunk

    def label(method, kind, counter):
        original = getattr(cls, method)

        def call(phase, *a, **k):
            before = len(self.comm_ops)
            original(self, phase, *a, **k)
            if len(self.comm_ops) > before:
                stage, m = name(real(phase), getattr(self, counter)[real(phase)] - 1)
                self.comm_ops[-1].label = f"{kind}{m}@s{stage}"
        setattr(self, method, call)

    label("_recv_forward", "RECV_F", "current_recv_f_chunk_id")
    label("_send_forward", "SEND_F", "current_send_f_chunk_id")
    label("_recv_backward", "RECV_B", "current_recv_b_chunk_id")
    label("_send_backward", "SEND_B", "current_send_b_chunk_id")
    forward, backward, commit = cls._forward_compute_chunk, cls._backward_compute_chunk, cls._commit_and_wait_comm

    def f(phase):
        stage, m = name(real(phase), self.current_f_chunk_id[real(phase)])
        out.append(f"F{m}@s{stage}")
        forward(self, phase)

    def b(phase, enable_zb=False):
        stage, m = name(real(phase), self.current_b_chunk_id[real(phase)])
        out.append(f"B{m}@s{stage}" + ("" if enable_zb else "(full)"))
        if enable_zb:
            queued_w.append(f"W{m}@s{stage}")
        backward(self, phase, enable_zb)

    def pair(phase0, phase1):  # one compound op, as the model's overlapped_forward_backward runs it
        f(phase0)
        b(phase1)
        full_b = out.pop()
        out[-1] += "+" + full_b

    def commit_and_wait():
        if self.comm_ops:
            out.append("[" + " ".join(op.label for op in self.comm_ops) + "]")
        commit(self)

    pop = store.pop

    def pop_w():
        out.append(queued_w.pop(0))
        pop()

    self._forward_compute_chunk, self._backward_compute_chunk = f, b
    self._forward_backward_compute_chunk, self._commit_and_wait_comm = pair, commit_and_wait
    store.pop = staticmethod(pop_w)
    try:
        self.step(torch.Tensor(), num_chunks=M, criterion=lambda *a: torch.Tensor(), labels=[torch.Tensor()])
    finally:
        store.pop = pop
    return " ".join(out)


SIZES = [("dualpipev", P, M) for P in (2, 3, 4, 5) for M in (2 * P, 2 * P + 1, 2 * P + 4)] + \
        [("dualpipe", P, M) for P in (2, 4, 6) for M in (2 * P, 2 * P + 2, 2 * P + 6)]


def main():
    lib = load(os.path.abspath(sys.argv[1]))
    print("# DualPipe's step() calls per rank, by scripts/record_dualpipe_calls.py (deepseek-ai/DualPipe @ 3da1bbe)")
    for schedule, P, M in SIZES:
        for rank in range(P):
            print(f"{schedule} P={P} M={M} device {rank}: {record(lib, schedule == 'dualpipev', P, M, rank)}")


if __name__ == "__main__":
    main()
