import torch


def program(*args):
    v0 = args[0]
    dev = args[0].device
    v1 = v0.to(torch.float16)
    v2 = torch.mul(v1, -3.0)
    return (v2, )
