"""Training loop with NVTX ranges.

A docstring that mentions nvtx.annotate("not_a_range") must not count.
"""
import nvtx
import torch
from torch.profiler import record_function

# with nvtx.annotate("commented_out"):
PREFIX = 'nvtx.annotate("in_a_string")'


@nvtx.annotate("train_step", color="blue")
def train_step(model, batch):
    '''Docstring: torch.cuda.nvtx.range_push("docstring_push")'''
    with nvtx.annotate("forward"):
        out = model(batch)
        loss = out.sum()

    with nvtx.annotate(message="backward", color="red"):
        loss.backward()
    return loss


@nvtx.annotate()
def evaluate(model):
    torch.cuda.nvtx.range_push("eval_loop")
    for i in range(3):
        with torch.cuda.nvtx.range(f"eval_step {i}"):
            model(i)
    torch.cuda.nvtx.range_pop()


class Trainer:
    def fit(self, steps):
        for step in range(steps):
            nvtx.push_range("epoch " + str(step))
            with torch.profiler.record_function("optimizer"):
                self.opt.step()
            with torch.autograd.profiler.record_function("zero_grad"): self.opt.zero_grad()
            nvtx.pop_range()
        x = r"raw \d string"  # nvtx.annotate("after_raw")
        y = """triple
        nvtx.annotate("inside_triple")
        """
        with record_function("data"), nvtx.annotate(rf"multi_{steps}"):
            pass
        with nvtx.annotate("fmt %d" % steps):
            pass


async def serve():
    async with nvtx.annotate('async_serve'):
        await other()
    range_push("bare_push")
    log("custom scope")
