"""A model whose ranges launch several kernels: the edits refine them."""
import nvtx
import torch


@nvtx.annotate("train_step")
def train_step(model, batch, opt):
    """Docstring: stays as it is."""
    opt.zero_grad()
    out = model(batch)  # forward
    loss = torch.nn.functional.mse_loss(
        out,
        batch.target,
        reduction="mean",
    )
    loss.backward()
    return loss


def evaluate(model, loader):
    results = []
    with nvtx.annotate("evaluate"):
        for i, batch in enumerate(loader):
            # a comment between statements
            x = batch.to("cuda:0")
            label = "step: %d" % i
            y = model(x)
            text = """multi-line
string: with a colon
    and its own indentation"""
            results.append(torch.softmax(y, dim=-1))
            if i % 10 == 0:
                print(label, text)
            else:
                y = y.relu()
    return results


def steps(model, x):
    with nvtx.annotate("steps"):
        x = model.layer(x)
        x = model.layer(x)
        x = x @ x.T
        name = "plain"
        del name
        x = model.norm(x); x = x.relu()
    return x
