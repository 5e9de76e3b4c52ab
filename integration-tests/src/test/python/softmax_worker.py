"""PythonWorkerIT's worker and its NumPy reference: softmax regression of a data set generated here, an
external model of ParamHub (weight outputs x inputs, then bias), trained through the Python worker library.

    softmax_worker.py worker    --bootstrap-servers B --registry-url R --job J --index I --workers N --out DIR
                                [--kill-after-clock N] [--kafka-config JSON] [--registry-auth USER:PASSWORD] [--registry-ca PEM]
                                [--host-group I,J,...]
    softmax_worker.py reference --initial FILE --learning-rate LR --global-batch B --seed S --epochs E
                                --workers N [--host-group I,J,...] --out FILE

A worker prints "published clock c" after each clock and, at the end, writes the model it reads after the last
clock to DIR/final-<index>.f32. The reference computes the same job in one process: each clock, every worker's
gradient sum on the model as it stands, summed in double in worker order, divided by the clock's samples and
applied as the aggregator's SGD does (p = (float) (p - lr x (float) (sum / samples)), in double).

--host-group: the workers, this one among them, that sum their gradients on their host (protocol 2); in the
reference, their gradients are first added in double in worker order and rounded to float32, the host's sum,
which then counts in the clock's sum at its lowest index, as the aggregator adds the record its leader sends.
"""

import argparse
import json
import logging
import os
import signal
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "clients", "python"))

import numpy as np  # noqa: E402

from paramhub_worker import Worker, WorkerConfig  # noqa: E402
from paramhub_worker.plan import BatchPlan, round_robin_share  # noqa: E402

SAMPLES = 600
INPUTS = 40
OUTPUTS = 7
PARAMETERS = OUTPUTS * INPUTS + OUTPUTS


def dataset():
    """600 samples of 40 features in 7 classes, the same in every process."""
    rng = np.random.default_rng(20261126)
    x = rng.standard_normal((SAMPLES, INPUTS)).astype(np.float32)
    truth = rng.standard_normal((OUTPUTS, INPUTS)).astype(np.float32)
    y = np.argmax(x @ truth.T + 0.5 * rng.standard_normal((SAMPLES, OUTPUTS)), axis=1).astype(np.int64)
    return x, y


def gradient_sum(parameters, x, y):
    """The gradient of the cross-entropy summed over the samples (float32), and the summed loss."""
    weight = parameters[:OUTPUTS * INPUTS].reshape(OUTPUTS, INPUTS)
    bias = parameters[OUTPUTS * INPUTS:]
    logits = x @ weight.T + bias
    logits -= logits.max(axis=1, keepdims=True)
    exp = np.exp(logits)
    probabilities = exp / exp.sum(axis=1, keepdims=True)
    rows = np.arange(len(y))
    loss = float(-np.log(probabilities[rows, y]).sum())
    probabilities[rows, y] -= 1
    return np.concatenate([(probabilities.T @ x).reshape(-1), probabilities.sum(axis=0)]).astype(np.float32), loss


def work(args):
    x, y = dataset()
    config = WorkerConfig(bootstrap_servers=args.bootstrap_servers, registry_url=args.registry_url, job=args.job,
                          index=args.index, workers=args.workers, model_timeout_s=args.model_timeout,
                          kafka_config=json.loads(args.kafka_config),
                          registry_auth=tuple(args.registry_auth.split(":", 1)) if args.registry_auth else None,
                          registry_ca=args.registry_ca, host_group=args.host_group)
    with Worker(config) as worker:
        spec = worker.join(dataset_size=SAMPLES)
        assert spec["parameters"] == PARAMETERS, spec["parameters"]
        for step in worker.clocks():
            gradient, loss = gradient_sum(step.parameters, x[step.samples], y[step.samples])
            step.publish(gradient, loss)
            print("published clock %d" % step.clock, flush=True)
            if step.clock == args.kill_after_clock:
                os.kill(os.getpid(), signal.SIGKILL)
        worker.leave()
        final = worker.final_parameters()
    final.astype("<f4").tofile(os.path.join(args.out, "final-%d.f32" % args.index))
    print("done", flush=True)


def host_sum(gradients):
    """What a host group's leader publishes: its workers' float32 gradients added in double, rounded once."""
    total = np.zeros(PARAMETERS, dtype=np.float64)
    for gradient in gradients:
        total += gradient.astype(np.float64)
    return total.astype(np.float32)


def reference(args):
    x, y = dataset()
    host_group = sorted(args.host_group or [])
    parameters = np.fromfile(args.initial, dtype="<f4").astype(np.float32)
    plan = BatchPlan(SAMPLES, args.global_batch, args.seed)
    for clock in range(args.epochs * plan.clocks_per_epoch):
        batch = plan.batch(clock)
        total = np.zeros(PARAMETERS, dtype=np.float64)
        samples = 0
        gradients = []
        for index in range(args.workers):
            share = round_robin_share(batch, index, args.workers)
            gradients.append(gradient_sum(parameters, x[share], y[share])[0])
            samples += len(share)
        for index in range(args.workers):
            if host_group and index == host_group[0]:
                total += host_sum([gradients[member] for member in host_group]).astype(np.float64)
            elif index not in host_group:
                total += gradients[index].astype(np.float64)
        mean = (total / samples).astype(np.float32)
        parameters = (parameters.astype(np.float64) - args.learning_rate * mean.astype(np.float64)).astype(np.float32)
    parameters.astype("<f4").tofile(args.out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["worker", "reference"])
    parser.add_argument("--bootstrap-servers")
    parser.add_argument("--registry-url")
    parser.add_argument("--job")
    parser.add_argument("--index", type=int)
    parser.add_argument("--workers", type=int)
    parser.add_argument("--model-timeout", type=float, default=30.0)
    parser.add_argument("--kill-after-clock", type=int, default=-1,
                        help="SIGKILL this process once clock N is published (and flushed)")
    parser.add_argument("--kafka-config", default="{}", help="librdkafka settings, JSON")
    parser.add_argument("--registry-auth")
    parser.add_argument("--registry-ca")
    parser.add_argument("--host-group", type=lambda text: [int(index) for index in text.split(",")],
                        help="comma-separated worker indices of this host that sum their gradients (protocol 2)")
    parser.add_argument("--initial")
    parser.add_argument("--learning-rate", type=float)
    parser.add_argument("--global-batch", type=int)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--epochs", type=int)
    parser.add_argument("--out")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    (work if args.mode == "worker" else reference)(args)


if __name__ == "__main__":
    main()
