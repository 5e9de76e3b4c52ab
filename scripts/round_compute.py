#!/usr/bin/env python3
"""The CPU a round of the PyTorch example's pure compute takes on this machine: no Kafka, no all-reduce.

PROCS processes (default 4, the example's workers), each with one thread as the example's workers have, run the
example's LeNet (examples/pytorch/model.py) forward and backward on a batch of 32 random 28x28 images: WARMUP
steps, then STEPS timed ones. It prints one JSON line without the optimizer and one with Adam's step added (DDP's
workers run Adam themselves; ParamHub's aggregator does). Each line gives the CPU seconds of all the processes
together a step, and the wall time of the slowest process a step.

  /usr/bin/python3 scripts/round_compute.py [--procs 4] [--steps 200] [--warmup 20]
"""

import argparse
import json
import multiprocessing
import os
import sys
import time

os.environ["OPENBLAS_NUM_THREADS"] = "1"
os.environ["OMP_NUM_THREADS"] = "1"
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "pytorch"))


def work(rank, steps, warmup, adam, results):
    import torch
    import torch.nn.functional as F
    import model as networks

    torch.set_num_threads(1)
    torch.manual_seed(rank)
    net = networks.LeNet()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    images, labels = torch.randn(32, 1, 28, 28), torch.randint(0, 10, (32,))
    for step in range(warmup + steps):
        if step == warmup:
            cpu, wall = time.process_time(), time.perf_counter()
        net.zero_grad()
        F.cross_entropy(net(images), labels).backward()
        if adam:
            optimizer.step()
    results.put((time.process_time() - cpu, time.perf_counter() - wall))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--procs", type=int, default=4)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    args = parser.parse_args()
    for adam in (False, True):
        results = multiprocessing.Queue()
        processes = [multiprocessing.Process(target=work, args=(rank, args.steps, args.warmup, adam, results))
                     for rank in range(args.procs)]
        for process in processes:
            process.start()
        measured = [results.get() for _ in processes]
        for process in processes:
            process.join()
        print(json.dumps({
            "procs": args.procs,
            "adam": adam,
            "cpu_ms_per_step_all": round(1000 * sum(cpu for cpu, _ in measured) / args.steps, 1),
            "wall_ms_per_step": round(1000 * max(wall for _, wall in measured) / args.steps, 1),
        }), flush=True)


if __name__ == "__main__":
    main()
