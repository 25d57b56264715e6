import torch
import torch._inductor.config as config
config.emulate_precision_casts = True
def f(x, y):
    return x.to(torch.float16) * y
x = torch.tensor([1.0 + 3 * 2**-12], dtype=torch.float32)
y = torch.tensor([3.0], dtype=torch.float16)
print(torch.__version__, "eager   ", f(x, y).item())
print(torch.__version__, "inductor", torch.compile(f, backend="inductor", fullgraph=True)(x, y).item())
