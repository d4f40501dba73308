"""The ACI checks (draft-chang-agent-context-interaction-02), by role:

invoked_session  the AgentContexts the suite sends invoked agents, once per run
invoked          what invoked agents return (sections 2.1, 5.2, 5.3, 6)
master_session   the draft's two tasks, run by the master against the suite's spy agents
master           what masters send, in which order, and the TaskContext they return (2.1, 3,
                 4.2, 5, 6)
"""

from . import invoked  # noqa: F401
from . import master  # noqa: F401
