"""PyTorch DistributedDataParallel peer on CPU (gloo): N worker processes, global batch split evenly,
the same Fashion-MNIST task as `paramhub demo`. Prints per-epoch test accuracy and wall time, then one
JSON line. Usage: scripts/ddp-peer --model softmax|mlp --workers 4 --epochs 3 --batch 128"""
import argparse, gzip, json, os, time
import numpy as np
import torch, torch.distributed as dist, torch.multiprocessing as mp, torch.nn as nn

DATA = os.environ.get("FASHION_MNIST_DIR", "/usr/share/datasets/fashion-mnist")

def idx(name, images):
    with gzip.open(os.path.join(DATA, name)) as f:
        raw = f.read()
    if images:
        return np.frombuffer(raw, np.uint8, offset=16).reshape(-1, 784).astype(np.float32) / 255.0
    return np.frombuffer(raw, np.uint8, offset=8).astype(np.int64)

def model_for(kind):
    if kind == "softmax":
        return nn.Linear(784, 10)
    if kind == "mlp":
        return nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10))
    raise SystemExit("unknown model " + kind)

def run(rank, a, out):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", "29517")
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=a.workers)
    xtr, ytr = torch.from_numpy(idx("train-images-idx3-ubyte.gz", True)), torch.from_numpy(idx("train-labels-idx1-ubyte.gz", False))
    xte, yte = torch.from_numpy(idx("t10k-images-idx3-ubyte.gz", True)), torch.from_numpy(idx("t10k-labels-idx1-ubyte.gz", False))
    torch.manual_seed(7)
    net = nn.parallel.DistributedDataParallel(model_for(a.model))
    if a.model == "softmax":
        opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
    else:
        opt = torch.optim.Adam(net.parameters(), lr=0.002)
    loss_fn = nn.CrossEntropyLoss()
    per = a.batch // a.workers
    g = torch.Generator().manual_seed(7)
    dist.barrier(); t0 = time.time(); epochs = []
    for e in range(a.epochs):
        perm = torch.randperm(len(xtr), generator=g)
        for i in range(len(xtr) // a.batch):
            idxs = perm[i * a.batch + rank * per: i * a.batch + (rank + 1) * per]
            opt.zero_grad(); loss_fn(net(xtr[idxs]), ytr[idxs]).backward(); opt.step()
        if rank == 0:
            with torch.no_grad():
                acc = (net(xte).argmax(1) == yte).float().mean().item()
            epochs.append({"epoch": e + 1, "at_s": round(time.time() - t0, 2), "test_accuracy": round(acc, 4)})
            print(json.dumps(epochs[-1]), flush=True)
        dist.barrier()
    if rank == 0:
        rounds = a.epochs * (len(xtr) // a.batch)
        out.put({"peer": "torch-ddp-gloo", "torch": torch.__version__, "model": a.model, "workers": a.workers,
                 "batch": a.batch, "wall_seconds": round(time.time() - t0, 2), "rounds": rounds,
                 "ms_per_round": round(1000 * (time.time() - t0) / rounds, 2), "epochs": epochs})
    dist.destroy_process_group()

if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="softmax"); p.add_argument("--workers", type=int, default=4)
    p.add_argument("--epochs", type=int, default=3); p.add_argument("--batch", type=int, default=128)
    a = p.parse_args()
    ctx = mp.get_context("spawn"); q = ctx.Queue()
    t = time.time()
    mp.spawn(run, args=(a, q), nprocs=a.workers, join=True)
    r = q.get(); r["process_seconds"] = round(time.time() - t, 2)
    print(json.dumps(r))
