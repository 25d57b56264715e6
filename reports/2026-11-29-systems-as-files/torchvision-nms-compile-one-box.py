import torch, torchvision, warnings
warnings.simplefilter("ignore", FutureWarning)
boxes = torch.tensor([[0., 0., 1., 1.]])
scores = torch.tensor([1.])
print("eager:", torchvision.ops.nms(boxes, scores, 0.5))
for backend in ("eager", "aot_eager", "inductor"):
    torch._dynamo.reset()
    f = torch.compile(lambda b, s: torchvision.ops.nms(b, s, 0.5) + 0, backend=backend, fullgraph=True)
    try:
        print(backend, f(boxes, scores))
    except Exception as e:
        print(backend, type(e).__name__, str(e).splitlines()[0])
