# A training step annotated with the names PyTorch gives its operator ranges (test data for the source mapping).
import torch
import torch.cuda.nvtx as cuda_nvtx
import nvtx


def attention(q, k, v):
    with torch.profiler.record_function("flash_attn::_flash_attn_forward"):
        out = flash_attn_func(q, k, v)
    return out


def exchange(x, y):
    cuda_nvtx.range_push("nccl:all_to_all")
    out = all_to_all(x)
    cuda_nvtx.range_pop()
    with torch.cuda.nvtx.range("aten::cat"):
        joined = torch.cat([out, y])
    return joined


@nvtx.annotate("aten::copy_")
def copy(dst, src):
    dst.copy_(src)


def convert(x, seq):
    with torch.cuda.nvtx.range(f"aten::_to_copy, seq = {seq}"):
        return x.to(torch.float16)


def send(t):
    with nvtx.annotate("ncclSend"):
        dist.send(t, 1)


def optimizer_step(opt):
    with torch.cuda.nvtx.range("optimizer.step"):
        opt.step()
    log_scope("aten::view")
    log_scope("not a range name")
