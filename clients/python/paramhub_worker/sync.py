"""When a worker may start a clock, and on which version (topology/.../sync/SyncPolicy.java, the worker's half).

With ``min_clock`` the smallest ``minClock`` over the shards and ``own`` the smallest ``clocks[worker]``:

- BSP: ``min_clock >= c``; pipelined BSP with depth D: ``min_clock >= c - D``, computed on version max(0, c - D);
- SSP(s): ``min_clock >= c - s`` and ``own >= c``, except at the clock the worker joined at;
- ASP: ``own >= c``, except at the clock the worker joined at.
"""

UNBOUNDED = None


class SyncPolicy:
    """A job's sync mode as a worker obeys it."""

    def __init__(self, mode, staleness=0, pipeline_depth=0):
        if mode not in ("BSP", "SSP", "ASP"):
            raise ValueError("unknown sync mode %r" % (mode,))
        self.mode = mode
        self.pipeline_depth = max(0, pipeline_depth) if mode == "BSP" else 0
        if mode == "BSP":
            self.clock_bound = self.pipeline_depth
        elif mode == "SSP":
            self.clock_bound = staleness
        else:
            self.clock_bound = UNBOUNDED

    @classmethod
    def of(cls, spec):
        """The policy of a JobSpec dict."""
        return cls(spec["syncMode"], spec.get("staleness", 0), spec.get("pipelineDepth", 0))

    def pinned_version(self, clock):
        """The version ``clock`` must be computed on under pipelined BSP, or None for the newest held."""
        return max(0, clock - self.pipeline_depth) if self.pipeline_depth > 0 else None

    def min_clock_to_start(self, clock):
        """The smallest ``min_clock`` on which ``clock`` may start; None when there is none (ASP)."""
        return None if self.clock_bound is UNBOUNDED else clock - self.clock_bound

    def own_clocks_to_start(self, clock, first_clock):
        """How many of its own clocks the model must include: SSP and ASP read their own writes."""
        return clock if self.mode != "BSP" and clock > first_clock else 0

    def may_start(self, clock, first_clock, min_clock, own_clocks):
        """Whether a worker that joined at ``first_clock`` may start ``clock`` on a complete model."""
        needed = self.min_clock_to_start(clock)
        return (needed is None or min_clock >= needed) and own_clocks >= self.own_clocks_to_start(clock, first_clock)

    @property
    def follows_planned_shares(self):
        """Only BSP workers cut the batch by the orchestrator's shares; every mode follows its threads."""
        return self.mode == "BSP"

    @property
    def waits_for_whole_versions(self):
        """BSP reads ask the broker to wait for a whole version's bytes."""
        return self.mode == "BSP"
