"""run.sh's last line: one JSON object made of the workers' results (train.py --result) and, under ParamHub, the
orchestrator's view of the workers (GET /jobs/{job}/workers) when run.sh could read it.

wall_seconds = max(end) - max(ready) - worker 0's evaluation seconds before its end, the same in both modes:
from the moment every worker can start clock 0 to the end of the last step, evaluation excluded (under BSP and
DDP every worker waits while worker 0 evaluates, so its evaluation time is everyone's).
"""

import argparse
import json
import os
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def orchestrator_view(path):
    """The orchestrator's answer, trimmed to what shows a straggler: per worker speed, fixed ms a clock, share,
    planned share, threads, straggler flag."""
    try:
        answer = load(path)
    except (OSError, ValueError):
        return None
    workers = answer.get("workers", answer) if isinstance(answer, dict) else answer
    if isinstance(workers, dict):
        workers = [dict(worker=name, **value) if isinstance(value, dict) else {"worker": name, "value": value}
                   for name, value in sorted(workers.items())]
    keep = ("worker", "speed", "fixedMs", "share", "plannedShare", "threads", "plannedThreads", "straggler",
            "appliedEpoch")
    view = {"epoch": answer.get("epoch") if isinstance(answer, dict) else None, "workers": []}
    for worker in workers if isinstance(workers, list) else []:
        view["workers"].append({k: worker[k] for k in keep if k in worker} or worker)
    return view


def ticks(path):
    """{name: (user, system) CPU clock ticks} of run.sh's cpu_ticks file, {} when there is none."""
    try:
        with open(path) as f:
            return {name: (int(user), int(system)) for name, user, system in (line.split() for line in f if line.strip())}
    except (OSError, ValueError):
        return {}


def cpu_per_round(results, rounds, start, end):
    """CPU milliseconds a round, by process, from all workers ready to the end of training: the workers' own
    (their process_time) and, when run.sh started them, the broker with its registry, the aggregator and the
    orchestrator (/proc/PID/stat)."""
    tick = os.sysconf("SC_CLK_TCK")
    cpu = {"workers": 1000 * sum(r.get("cpu_seconds", 0.0) for r in results) / rounds}
    system = {}
    before, after = ticks(start), ticks(end)
    for name in ("paramhub-up", "aggregator", "orchestrator"):
        if name in before and name in after:
            user_ticks, system_ticks = (a - b for a, b in zip(after[name], before[name]))
            cpu[name] = 1000 * (user_ticks + system_ticks) / tick / rounds
            system[name + "_system"] = 1000 * system_ticks / tick / rounds
    cpu["total"] = sum(cpu.values())
    cpu.update(system)
    return {name: round(value, 1) for name, value in cpu.items()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", required=True)
    parser.add_argument("--workers", type=int, required=True)
    parser.add_argument("--network", default="lenet")
    parser.add_argument("--lr", type=float)
    parser.add_argument("--lr-schedule")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--job")
    parser.add_argument("--slow-worker")
    parser.add_argument("--orchestrator")
    parser.add_argument("--gradient-encoding")
    parser.add_argument("--pipeline-depth", type=int)
    parser.add_argument("--host-sum", action="store_true", help="the workers summed their gradients on the host")
    parser.add_argument("--cpu-start")
    parser.add_argument("--cpu-end")
    parser.add_argument("results", nargs="+")
    args = parser.parse_args()

    results = sorted((load(path) for path in args.results), key=lambda r: r["index"])
    if len(results) != args.workers:
        sys.exit("summary: %d results for %d workers" % (len(results), args.workers))
    first = results[0]
    evaluations = first["evaluations"]
    wall = max(r["end"] for r in results) - max(r["ready"] for r in results) - first["eval_seconds"]
    rounds = first["rounds"]
    summary = {
        "mode": args.mode,
        "workers": args.workers,
        "network": args.network,
        "parameters": first["parameters"],
        "epochs": first["epochs"],
        "batch": first["batch"],
        "lr": args.lr,
        "lr_schedule": args.lr_schedule,
        "seed": args.seed,
        "rounds": rounds,
        "wall_seconds": round(wall, 3),
        "ms_per_round": round(1000 * wall / rounds, 2) if rounds else None,
        "final_test_accuracy": evaluations[-1]["accuracy"] if evaluations else None,
        "epoch_test_accuracies": [round(e["accuracy"], 4) for e in evaluations],
        "eval_seconds_excluded": round(first["eval_seconds"], 3),
    }
    if rounds:
        summary["cpu_ms_per_round"] = cpu_per_round(results, rounds, args.cpu_start or "", args.cpu_end or "")
    if args.job:
        summary["job"] = args.job
    if args.mode == "paramhub":
        summary["shards"] = first.get("shards")
        summary["gradient_encoding"] = args.gradient_encoding
        summary["pipeline_depth"] = args.pipeline_depth
        summary["host_sum"] = args.host_sum
        summary["per_worker"] = [{"worker": r["index"], "compute_ms_mean": round(r["compute_ms_mean"], 2),
                                  "wait_ms_mean": round(r["wait_ms_mean"], 2),
                                  "samples_first_clock": r["samples_first_clock"],
                                  "samples_last_clock": r["samples_last_clock"], "samples_min": r["samples_min"],
                                  "samples_mean": round(r.get("samples_mean", 0.0), 2),
                                  "threads_last": r["threads_last"]} for r in results]
    else:
        summary["per_worker"] = [{"worker": r["index"], "step_ms_mean": round(r["step_ms_mean"], 2),
                                  "samples_last_clock": r["samples_last_clock"]} for r in results]
    if args.slow_worker:
        summary["slow_worker"] = args.slow_worker
        if args.orchestrator:
            summary["orchestrator"] = orchestrator_view(args.orchestrator)
    print(json.dumps(summary, separators=(",", ":")))


if __name__ == "__main__":
    main()
