"""Response documents, modelled on the A4H captures (one line, SAP's attribute order).

Each builder takes plain values and returns the body text; nothing here touches emulator
state, so the builders can be compared with the captures in isolation. One module per area.
"""

from .common import *  # noqa: F403
from .objects import *  # noqa: F403
from .pages import *  # noqa: F403
from .repository import *  # noqa: F403
from .runs import *  # noqa: F403
