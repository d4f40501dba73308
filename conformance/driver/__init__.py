"""Drivers: how the suite makes a client under test act (the client is not a server the suite can
call).

`command.py` runs a command template once per invocation (`--client-command`)."""

from .command import MAX_STDERR
from .command import MAX_STDOUT
from .command import CommandDriver
from .command import Outcome
from .command import Request
from .command import client_environment

__all__ = ["MAX_STDERR", "MAX_STDOUT", "CommandDriver", "Outcome", "Request", "client_environment"]
