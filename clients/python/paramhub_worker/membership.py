"""A worker's announcements on ``membership`` (docs/protocol.md, "Membership"): JOINED, a HEARTBEAT every
max(50 ms, sessionTimeoutMs / 4) from a thread of its own (also while the caller computes or waits), LEFT.
Each ``WorkerStatus`` carries the clock the worker is on and its wall-clock time, keyed ``job/worker``.
"""

import logging
import threading

from .publisher import now_utc

log = logging.getLogger(__name__)


class Membership:
    """Announces one worker of one job; ``clock`` is read by every heartbeat."""

    def __init__(self, publisher, topic, job, worker, session_timeout_ms):
        self.publisher = publisher
        self.topic = topic
        self.job = job
        self.worker = worker
        self.period_s = max(50, session_timeout_ms // 4) / 1000.0
        self.clock = 0
        self._stop = threading.Event()
        self._thread = None

    def announce(self, state, finished=False):
        self.publisher.send(self.topic, "%s/%s" % (self.job, self.worker), {
            "job": self.job, "worker": self.worker, "state": state, "clock": self.clock, "timestamp": now_utc(),
            "finished": finished})

    def join(self, clock):
        """Announces JOINED at ``clock`` and starts the heartbeats."""
        self.clock = clock
        self.announce("JOINED")
        self.publisher.flush()
        self._thread = threading.Thread(target=self._beat, name="%s-heartbeat" % self.worker, daemon=True)
        self._thread.start()

    def _beat(self):
        while not self._stop.wait(self.period_s):
            try:
                self.announce("HEARTBEAT")
            except Exception:  # a missed heartbeat is retried at the next; the main thread sees send failures
                log.exception("%s could not send a heartbeat", self.worker)

    def leave(self, finished):
        """Stops the heartbeats and announces LEFT (the caller flushes); ``finished``: the job is over for this
        worker, which sent the gradients of its ``clock`` clocks (the aggregator then marks the job's final version)."""
        self.stop()
        self.announce("LEFT", finished)

    def stop(self):
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
