"""Type stubs of interlink's native module (re-exported by ``interlink``). Attributes are read-only."""

from typing import Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

Configuration = Union[None, str, Sequence[float], npt.ArrayLike, Mapping[str, float]]

class Diagnostic:
    """One finding about an input: severity, code, message and where."""

    severity: str
    code: str
    message: str
    file: str
    line: int
    column: int

class JointInfo:
    """A joint with DOFs, as the configuration vector sees it."""

    name: str
    type: str
    first_dof: int
    dof_count: int
    axes: npt.NDArray[np.float64]
    axis: Optional[npt.NDArray[np.float64]]
    lower: List[float]
    upper: List[float]
    effort: List[float]
    velocity: List[float]
    initial: List[float]
    parent_link: str
    child_link: str

class Model:
    """A loaded, composed model with resolved frames."""

    ok: bool
    diagnostics: List[Diagnostic]
    dofs: List[str]
    joints: List[JointInfo]
    root: str
    format: str
    source_file: str
    frame_kinds: Dict[str, str]
    def frames(self, q: Configuration = None, relative_to: Optional[str] = None) -> Dict[str, npt.NDArray[np.float64]]: ...
    def pose(self, frame: str, q: Configuration = None, relative_to: Optional[str] = None) -> npt.NDArray[np.float64]: ...
    def mass_properties(
        self, q: Configuration = None, subtree: Optional[str] = None
    ) -> Tuple[float, npt.NDArray[np.float64], npt.NDArray[np.float64]]: ...
    def jacobian(self, frame: str, q: Configuration = None) -> npt.NDArray[np.float64]: ...
    def convert(self, path: str) -> List[Diagnostic]: ...
    def tree(self) -> str: ...
    def configuration(self, q: Configuration = None) -> npt.NDArray[np.float64]: ...

def _load(path: str, format: Optional[str], resource_paths: List[str], confine: bool = ...) -> Model: ...
def _loads(text: str, format: Optional[str], file_name: str, resource_paths: List[str], confine: bool = ...) -> Model: ...
def _plugins() -> Tuple[List[dict], List[dict]]: ...
def _hardware_families() -> List[dict]: ...
