"""The SDSI server checks (draft-zhou-structured-data-schema-interaction-00), by what they judge:

session    the exchanges the checks share, made once per run through the SDSI binding
templates  each served template (sections 4.1, 4.2, 4.3)
exchange   payloads made from the templates (sections 3.1, 3.2, 4.1, 4.3, 7)
patches    the patches served by polling or inline (sections 6.2.2, 6.2.3, 7)
drives     test-clock drives of SDSI 6.2, planned on the oracle
evolution  the DSP and lifecycle judged over those drives (sections 6.2.1-6.2.3)
"""

from . import client  # noqa: F401
from . import evolution  # noqa: F401
from . import exchange  # noqa: F401
from . import patches  # noqa: F401
from . import templates  # noqa: F401
