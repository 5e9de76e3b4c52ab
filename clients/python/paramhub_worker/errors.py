"""The errors a worker raises, each with a message saying what it waited for or what is missing."""


class ParamHubError(Exception):
    """Any error of the ParamHub worker library."""


class JobNotFoundError(ParamHubError):
    """No valid spec of the job appeared on ``jobs`` in time."""


class ModelTimeoutError(ParamHubError):
    """The model version a clock needs did not arrive in time."""


class RegistryError(ParamHubError):
    """The schema registry refused a request or could not be reached."""

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status


class SubjectNotFoundError(RegistryError):
    """The registry has no schema under the subject a worker writes to."""


class PublishError(ParamHubError):
    """Kafka refused a record the worker sent."""
