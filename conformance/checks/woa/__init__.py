"""The WoA checks (draft-gaikwad-woa-00), by what they look at:

document    the WoA document itself (sections 4 to 4.3)
discovery   how it is served: media type, UTF-8, caching, HTTPS and TLS (sections 1, 7, 8.1,
            9.2)
invocation  POSTs to every agent and operation over rest (sections 4.3.1, 5.1, 5.2)
client      a WoA client driven by --client-command against the spy host (4.1, 4.2, 4.3.1, 5, 7,
            8)
"""

from . import client  # noqa: F401
from . import discovery  # noqa: F401
from . import document  # noqa: F401
from . import invocation  # noqa: F401
from . import mcp  # noqa: F401
