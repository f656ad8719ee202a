"""The hardware catalog: actuator families and component types the hardware plugins offer."""

from dataclasses import dataclass, field
from typing import List

from . import _interlink

__all__ = ["Family", "families"]


@dataclass(frozen=True)
class Family:
    """One hardware plugin's family and the catalog types it offers."""

    plugin: str  # plugin name, e.g. "hebi_x"
    family: str  # e.g. "HEBI X-series"
    types: List[str] = field(default_factory=list)


def families() -> List[Family]:
    """Every hardware family of the loaded hardware plugins, in plugin load order."""
    return [Family(**entry) for entry in _interlink._hardware_families()]
