"""One worker of the PyTorch example: trains model.py's network on Fashion-MNIST through ParamHub, or, with
--ddp, under torch DDP (gloo, CPU), on the same samples clock by clock. run.sh starts N of these.

    train.py export   --out FILE.json [--network lenet] [--seed 7]
    train.py paramhub --bootstrap-servers B --registry-url R --job J --index W --workers N [--slow F]
                      [--host-group 0,1,...] --result FILE
    train.py ddp      --master-port P --index W --workers N --epochs E --batch B --lr LR [--lr-schedule cosine]
                      [--seed 7] [--slow F] --result FILE

Both modes train on clock c's global batch of the protocol's permutation (paramhub_worker.plan), worker W on
its share of it (round-robin, or the orchestrator's contiguous chunk under ParamHub), one compute thread
(ParamHub: as many as the plan's `threads` say). Worker 0 evaluates on the 10,000 test images at each epoch's
end. Each writes a JSON result (--result) with wall-clock stamps: `ready` (every worker can start clock 0),
`end` (its last step is done: ParamHub's worker 0 holds the final model, DDP's optimizer has stepped) and the
seconds spent evaluating before `end`, which run.sh (summary.py) takes out of the wall time. Under ParamHub,
--host-group names the workers of this host, W among them, that sum their gradients before publishing
(protocol 2: the lowest index publishes one record a shard for all of them).
"""

import argparse
import json
import math
import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "clients", "python"))

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import model as networks  # noqa: E402
from paramhub_worker.data import fashion_mnist  # noqa: E402
from paramhub_worker.plan import BatchPlan, round_robin_share  # noqa: E402
from paramhub_worker.torch_adapter import TorchModel  # noqa: E402


def log(index, message):
    print("[worker %d %s] %s" % (index, time.strftime("%H:%M:%S"), message), file=sys.stderr, flush=True)


class Data:
    """Fashion-MNIST as torch tensors: images N x 1 x 28 x 28 in [0, 1], labels int64."""

    def __init__(self, directory):
        (train_x, train_y), (test_x, test_y) = fashion_mnist(directory)
        self.train_x = torch.from_numpy(np.ascontiguousarray(train_x)).reshape(-1, 1, 28, 28)
        self.train_y = torch.from_numpy(train_y)
        self.test_x = torch.from_numpy(np.ascontiguousarray(test_x)).reshape(-1, 1, 28, 28)
        self.test_y = torch.from_numpy(test_y)

    @property
    def n(self):
        return len(self.train_y)

    def batch(self, samples):
        index = torch.from_numpy(np.asarray(samples, dtype=np.int64))
        return self.train_x[index], self.train_y[index]


def evaluate(net, data):
    """(accuracy, mean loss) of ``net`` on the test set, 250 images at a time (at 1,000 a time, six times slower:
    the convolutions' buffers outgrow the caches)."""
    net.eval()
    correct, loss = 0, 0.0
    with torch.no_grad():
        for first in range(0, len(data.test_y), 250):
            x, y = data.test_x[first:first + 250], data.test_y[first:first + 250]
            out = net(x)
            loss += F.cross_entropy(out, y, reduction="sum").item()
            correct += (out.argmax(1) == y).sum().item()
    net.train()
    return correct / len(data.test_y), loss / len(data.test_y)


class Slowdown:
    """Makes a worker's compute take ``factor`` times as long: sleeps (factor - 1) x the compute just measured."""

    def __init__(self, factor):
        self.factor = factor
        self.slept = 0.0

    def after(self, compute_s):
        if self.factor > 1:
            pause = (self.factor - 1) * compute_s
            time.sleep(pause)
            self.slept += pause


def mark_ready(result_path):
    """Says (a file beside the result) that this worker is ready, for run.sh's CPU accounting; returns the CPU
    seconds this process has used so far."""
    open(result_path + ".ready", "w").close()
    return time.process_time()


def write_result(path, result):
    with open(path + ".tmp", "w") as f:
        json.dump(result, f)
    os.replace(path + ".tmp", path)


def export(args):
    net = networks.create(args.network, args.seed)
    TorchModel(net).export(args.out)
    print(json.dumps({"parameters": sum(p.numel() for p in net.parameters()), "file": args.out}))


def train_paramhub(args):
    from paramhub_worker import Worker, WorkerConfig

    torch.set_num_threads(1)
    data = Data(args.data)
    net = networks.create(args.network, args.seed)  # the layout only: every value comes from the model topic
    adapter = TorchModel(net)
    config = WorkerConfig(bootstrap_servers=args.bootstrap_servers, registry_url=args.registry_url, job=args.job,
                          index=args.index, workers=args.workers, model_timeout_s=args.model_timeout,
                          host_group=args.host_group)
    slow = Slowdown(args.slow)
    result = {"mode": "paramhub", "index": args.index, "evaluations": [], "eval_seconds": 0.0}
    compute_s, wait_ms, samples_seen = [], [], []
    with Worker(config) as worker:
        spec = worker.join(dataset_size=data.n)
        result["ready"] = time.time()  # joined and holding version 0
        cpu = mark_ready(args.result)
        if spec["parameters"] != adapter.parameter_count:
            raise SystemExit("job %s has %d parameters, the %s network %d" % (
                args.job, spec["parameters"], args.network, adapter.parameter_count))
        per_epoch = worker.total_clocks // spec["epochs"]
        log(args.index, "joined job %s at clock %d: %d clocks, %d a clock, %d shards" % (
            args.job, worker.start_clock, worker.total_clocks, spec["globalBatch"], spec["shards"]))
        pending = None  # the evaluation of an epoch's model, reported with the next clock's telemetry
        threads = 1
        for step in worker.clocks():
            if step.threads is not None and step.threads != threads:
                threads = step.threads
                torch.set_num_threads(threads)
            started = time.perf_counter()
            adapter.load(step.parameters)
            x, y = data.batch(step.samples)
            net.zero_grad(set_to_none=False)
            if len(step.samples) > 0:
                loss = F.cross_entropy(net(x), y, reduction="sum")  # the SUM: the aggregator divides by B
                loss.backward()
                loss_sum = loss.item()
            else:
                loss_sum = 0.0
            gradient = adapter.flat_gradient()
            spent = time.perf_counter() - started
            slow.after(spent)
            step.publish(gradient, loss_sum, evaluation=pending)
            pending = None
            compute_s.append(spent)
            wait_ms.append(step.wait_ms)
            samples_seen.append(len(step.samples))
            if args.index == 0 and step.clock % per_epoch == 0 and step.clock > 0:
                # step.parameters is the model after epoch clock / per_epoch - 1; evaluated after publishing, so
                # the time counts in no compute time (the orchestrator's speeds) and is taken out of the wall time
                evaluated = time.perf_counter()
                accuracy, test_loss = evaluate(net, data)
                result["eval_seconds"] += time.perf_counter() - evaluated
                pending = {"version": step.version, "samples": len(data.test_y), "accuracy": accuracy,
                           "loss": test_loss}
                result["evaluations"].append({"epoch": step.clock // per_epoch, "clock": step.clock,
                                              "accuracy": accuracy, "loss": test_loss})
                log(args.index, "epoch %d: test accuracy %.4f, loss %.4f" % (step.clock // per_epoch, accuracy,
                                                                            test_loss))
        result["end"] = time.time()
        result["cpu_seconds"] = time.process_time() - cpu
        worker.leave()
        if args.index == 0:
            final = worker.final_parameters(args.model_timeout)
            result["end"] = time.time()  # the last step is done when its model is in hand
            result["cpu_seconds"] = time.process_time() - cpu
            adapter.load(final)
            accuracy, test_loss = evaluate(net, data)
            result["evaluations"].append({"epoch": spec["epochs"], "clock": worker.total_clocks,
                                          "accuracy": accuracy, "loss": test_loss})
            log(args.index, "epoch %d: test accuracy %.4f, loss %.4f" % (spec["epochs"], accuracy, test_loss))
    result.update(rounds=len(compute_s), parameters=adapter.parameter_count, epochs=spec["epochs"],
                  batch=spec["globalBatch"], shards=spec["shards"], slept_seconds=slow.slept,
                  compute_ms_mean=1000 * float(np.mean(compute_s)) if compute_s else 0.0,
                  wait_ms_mean=float(np.mean(wait_ms)) if wait_ms else 0.0,
                  samples_first_clock=samples_seen[0] if samples_seen else 0,
                  samples_last_clock=samples_seen[-1] if samples_seen else 0,
                  samples_min=min(samples_seen) if samples_seen else 0,
                  samples_mean=float(np.mean(samples_seen)) if samples_seen else 0.0, threads_last=threads)
    write_result(args.result, result)


def cosine(clocks):
    """The aggregator's COSINE factor at clock c: (1 + cos(pi c / T)) / 2 (LearningRateSchedule)."""
    return lambda clock: (1 + math.cos(math.pi * clock / clocks)) / 2


def probe(ddp, data, share):
    """DDP: the seconds one clock's compute takes here, without the all-reduce (a median of 5 local passes, the
    gradients then cleared), which a slowed rank multiplies; a rank cannot tell its compute from its wait."""
    x, y = data.batch(np.arange(share))
    times = []
    with ddp.no_sync():
        for _ in range(5):
            started = time.perf_counter()
            F.cross_entropy(ddp(x), y, reduction="sum").backward()
            times.append(time.perf_counter() - started)
    ddp.module.zero_grad(set_to_none=False)
    return float(np.median(times))


def train_ddp(args):
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel

    torch.set_num_threads(1)
    data = Data(args.data)
    net = networks.create(args.network, args.seed)
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:%d" % args.master_port, rank=args.index,
                            world_size=args.workers)
    ddp = DistributedDataParallel(net)
    # torch.optim.Adam's step is the aggregator's (ml/.../Adam.java): m, v, bias corrections, eps outside the root
    optimizer = torch.optim.Adam(ddp.parameters(), lr=args.lr, betas=(0.9, 0.999), eps=1e-8)
    plan = BatchPlan(data.n, args.batch, args.seed)
    total = args.epochs * plan.clocks_per_epoch
    schedule = (torch.optim.lr_scheduler.LambdaLR(optimizer, cosine(total)) if args.lr_schedule == "cosine"
                else None)
    slow = Slowdown(args.slow)
    result = {"mode": "ddp", "index": args.index, "evaluations": [], "eval_seconds": 0.0}
    compute_s = []
    slow_base = probe(ddp, data, args.batch // args.workers) if args.slow > 1 else 0.0
    dist.barrier()
    result["ready"] = time.time()
    cpu = mark_ready(args.result)
    for clock in range(total):
        samples = round_robin_share(plan.batch(clock), args.index, args.workers)
        started = time.perf_counter()
        x, y = data.batch(samples)
        optimizer.zero_grad(set_to_none=False)
        loss = F.cross_entropy(ddp(x), y, reduction="sum")
        # DDP averages the ranks' gradients (divides their sum by N); ParamHub divides the workers' gradient
        # sums by the clock's samples B. Scaling each rank's summed loss by N / B makes DDP's average the sum over
        # the whole batch divided by B: the same mean gradient, for any shares (equal ones give each rank's mean).
        (loss * (args.workers / args.batch)).backward()
        spent = time.perf_counter() - started  # includes the all-reduce, which backward overlaps
        slow.after(slow_base)
        optimizer.step()
        if schedule is not None:
            schedule.step()
        compute_s.append(spent)
        if args.index == 0 and (clock + 1) % plan.clocks_per_epoch == 0:
            if clock + 1 == total:
                result["end"] = time.time()
                result["cpu_seconds"] = time.process_time() - cpu
            evaluated = time.perf_counter()
            accuracy, test_loss = evaluate(net, data)
            if clock + 1 < total:
                result["eval_seconds"] += time.perf_counter() - evaluated
            epoch = (clock + 1) // plan.clocks_per_epoch
            result["evaluations"].append({"epoch": epoch, "clock": clock + 1, "accuracy": accuracy,
                                          "loss": test_loss})
            log(args.index, "epoch %d: test accuracy %.4f, loss %.4f" % (epoch, accuracy, test_loss))
    if "end" not in result:
        result["end"] = time.time()
        result["cpu_seconds"] = time.process_time() - cpu
    dist.destroy_process_group()
    result.update(rounds=total, parameters=sum(p.numel() for p in net.parameters()), epochs=args.epochs,
                  batch=args.batch, slept_seconds=slow.slept, step_ms_mean=1000 * float(np.mean(compute_s)),
                  samples_last_clock=len(samples))
    write_result(args.result, result)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["export", "paramhub", "ddp"])
    parser.add_argument("--network", default="lenet", choices=sorted(networks.NETWORKS))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out")
    parser.add_argument("--data", default=os.environ.get("PARAMHUB_FASHION_MNIST_DIR",
                                                         "/usr/share/datasets/fashion-mnist"))
    parser.add_argument("--index", type=int, default=0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--slow", type=float, default=1.0, help="compute takes this many times as long")
    parser.add_argument("--result")
    parser.add_argument("--bootstrap-servers")
    parser.add_argument("--registry-url")
    parser.add_argument("--job")
    parser.add_argument("--model-timeout", type=float, default=120.0)
    parser.add_argument("--host-group", type=lambda text: [int(index) for index in text.split(",")],
                        help="ParamHub: comma-separated indices of the workers of this host that sum their gradients")
    parser.add_argument("--master-port", type=int)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=0.005)
    parser.add_argument("--lr-schedule", default="cosine", choices=["constant", "cosine"])
    args = parser.parse_args()
    run = {"export": export, "paramhub": train_paramhub, "ddp": train_ddp}[args.mode]
    profile = os.environ.get("PARAMHUB_EXAMPLE_PROFILE")  # a path prefix: cProfile each worker to PREFIX-MODE-W.prof
    if profile and args.mode != "export":
        import cProfile
        cProfile.runctx("run(args)", globals(), {"run": run, "args": args}, "%s-%s-%d.prof" % (profile, args.mode, args.index))
    else:
        run(args)


if __name__ == "__main__":
    main()
