"""The hardware catalog: actuator families and component types the hardware plugins offer."""

from __future__ import annotations

TYPE_CHECKING = False  # typing is imported by type checkers only

from . import _interlink, _Record

if TYPE_CHECKING:
    from typing import List

__all__ = ["Family", "families"]


class Family(_Record):
    """One hardware plugin's family and the catalog types it offers: plugin (e.g. "hebi_x"),
    family (e.g. "HEBI X-series") and types (catalog type names)."""

    __slots__ = ("plugin", "family", "types")


def families() -> List[Family]:
    """Every hardware family of the loaded hardware plugins, in plugin load order."""
    return [Family(**entry) for entry in _interlink._hardware_families()]
