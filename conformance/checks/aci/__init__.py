"""The ACI checks (draft-chang-agent-context-interaction-02), by role:

    invoked_session  the AgentContexts the suite sends invoked agents, once per run
    invoked          what invoked agents return (sections 2.1, 5.2, 5.3, 6)
"""

from . import invoked  # noqa: F401
