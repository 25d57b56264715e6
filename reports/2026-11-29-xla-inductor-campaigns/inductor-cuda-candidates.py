#!/usr/bin/env python3
"""Two candidate TorchInductor bugs from the H200 campaign, reduced: each
function compiled with torch.compile against the same function run eagerly,
on CUDA and on the CPU.

1. torch.neg of +0.0 gives +0.0 compiled (eager: -0.0, IEEE 754's negate
   flips the sign bit).
2. A stable sort's int64 indices times 2^20 wrap around 2^31 compiled
   (eager: int64, no overflow below 2^63).
"""
import torch


def neg(x):
    return torch.neg(x)


def neg_of_difference(x):
    return torch.neg(x - x)


def neg_then_add(x):
    return torch.neg(x), torch.neg(x) + 1.0


def sort_indices_scaled(x):
    return torch.sort(x, dim=0, stable=True).indices * 1048576


def gather_arange_scaled(x):
    n = x.shape[0]
    rows = torch.arange(n, dtype=torch.int64, device=x.device).reshape(n, 1)
    return torch.gather(rows, 0, torch.sort(x, dim=0, stable=True).indices) * 1048576


def arange_scaled(x):
    n = x.shape[0]
    return torch.arange(n, dtype=torch.int64, device=x.device) * 1048576 + x.shape[1]


def describe(t):
    if t.is_floating_point():
        return f"{t.dtype} signbit {t.signbit().int().tolist()[:4]}"
    return f"{t.dtype} min {t.min().item()} max {t.max().item()}"


def compare(name, fn, *args):
    torch._dynamo.reset()
    eager = fn(*args)
    compiled = torch.compile(fn, fullgraph=True)(*args)
    eager = eager if isinstance(eager, tuple) else (eager,)
    compiled = compiled if isinstance(compiled, tuple) else (compiled,)
    for i, (e, c) in enumerate(zip(eager, compiled)):
        same = e.dtype == c.dtype and torch.equal(
            e.view(torch.uint8) if e.is_floating_point() else e,
            c.view(torch.uint8) if c.is_floating_point() else c)
        print(f"  {name}[{i}] {args[0].device}: {'same' if same else 'DIFFERENT'}; "
              f"eager {describe(e)}; compiled {describe(c)}", flush=True)


def main():
    print("torch", torch.__version__)
    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    for device in devices:
        for dtype in (torch.float32, torch.float16, torch.float64):
            zeros = torch.zeros(8, dtype=dtype, device=device)
            compare(f"neg {dtype}", neg, zeros)
            compare(f"neg(x - x) {dtype}", neg_of_difference,
                    torch.arange(8, dtype=dtype, device=device))
            compare(f"neg, neg + 1 {dtype}", neg_then_add, zeros)
        x = torch.randn(3099, 1, device=device)
        compare("sort indices * 2^20", sort_indices_scaled, x)
        compare("gather(arange, sort indices) * 2^20", gather_arange_scaled, x)
        compare("arange * 2^20", arange_scaled, x)


if __name__ == "__main__":
    main()
