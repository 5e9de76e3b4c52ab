"""ParamHub's worker protocol in Python: join a job, compute each clock's gradient in your own code (NumPy,
PyTorch), publish it, leave. Written from docs/protocol.md; needs only Debian's python3-confluent-kafka,
python3-avro and python3-numpy (python3-torch for ``paramhub_worker.torch_adapter``).

Modules, one job each: ``registry`` (schema registry and wire format), ``codec`` (Avro values), ``plan``
(sample permutation, batch shares, shard layout), ``encoding`` (float32/bfloat16 vectors, partitioner),
``sync`` (when a clock may start), ``model`` (reading ``model``), ``jobs`` (finding the job),
``publisher`` and ``membership`` (writing), ``host_group``, ``host_leader`` and ``host_wire`` (summing a host's
gradients, protocol 2), ``host_model`` (one reader of the model a host), ``worker`` (the loop), ``data`` and
``torch_adapter``.
"""

from .errors import (JobNotFoundError, ModelTimeoutError, ParamHubError, PublishError, RegistryError,
                     SubjectNotFoundError)
from .host_group import HostMember
from .host_leader import HostLeader
from .host_wire import host_address
from .worker import Step, Worker, WorkerConfig

__version__ = "0.1.0"
#: The version of docs/protocol.md this library implements.
PROTOCOL_VERSION = 2

__all__ = ["Worker", "WorkerConfig", "Step", "HostLeader", "HostMember", "host_address", "ParamHubError",
           "JobNotFoundError", "ModelTimeoutError", "RegistryError", "SubjectNotFoundError", "PublishError",
           "__version__", "PROTOCOL_VERSION"]
