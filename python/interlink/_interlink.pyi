"""Type stubs of interlink's native module (re-exported by ``interlink``). Attributes are read-only."""

import os
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

class Geometry:
    """The shape of a visual or collision, in its own frame."""

    type: str
    size: npt.NDArray[np.float64]
    radius: float
    length: float
    radii: npt.NDArray[np.float64]
    normal: npt.NDArray[np.float64]
    plane_size: npt.NDArray[np.float64]
    mesh_uri: str
    mesh_path: Optional[str]
    scale: npt.NDArray[np.float64]

class Shape:
    """A visual or collision of a link."""

    name: str
    kind: str
    link: str
    origin: npt.NDArray[np.float64]
    relative_to: Optional[str]
    geometry: Geometry
    material: str
    color: Optional[npt.NDArray[np.float64]]

class Link:
    """A rigid body: mass properties, visuals and collisions."""

    name: str
    model: str
    mass: float
    com: npt.NDArray[np.float64]
    inertial_origin: npt.NDArray[np.float64]
    inertia: npt.NDArray[np.float64]
    has_inertial: bool
    visuals: List[Shape]
    collisions: List[Shape]
    gravity: bool

class Mimic:
    """A joint that follows another: q = multiplier * q_joint + offset."""

    joint: str
    multiplier: float
    offset: float

class Joint:
    """A joint, with or without DOFs: type, links, axes, origin, limits, dynamics."""

    name: str
    frame: str
    type: str
    parent: str
    child: str
    parent_link: str
    child_link: str
    origin: npt.NDArray[np.float64]
    axes: npt.NDArray[np.float64]
    axis: Optional[npt.NDArray[np.float64]]
    lower: List[float]
    upper: List[float]
    effort: List[float]
    velocity: List[float]
    damping: List[float]
    friction: List[float]
    spring_reference: List[float]
    spring_stiffness: List[float]
    mimic: Optional[Mimic]
    first_dof: int
    dof_count: int
    initial: List[float]
    loop_closure: bool

JointInfo = Joint

class Frame:
    """An explicit frame of the file (SDFormat <frame>, MJCF <site>, ...)."""

    name: str
    attached_to: str
    attached_link: str
    origin: npt.NDArray[np.float64]
    relative_to: Optional[str]

class ModelElement:
    """A model of the load: the top model, a nested or an included one."""

    name: str
    format: str
    format_version: str
    file: str
    static: bool
    canonical_link: str
    links: List[str]
    joints: List[str]
    models: List[str]
    pose: npt.NDArray[np.float64]
    parameters: Dict[str, str]
    reading_notes: Dict[str, str]
    gravity: Optional[npt.NDArray[np.float64]]

class Tree:
    """The kinematic tree by name: str() draws it as `interlink tree` does."""

    roots: List[str]
    def parent(self, link: str) -> Optional[str]: ...
    def parent_joint(self, link: str) -> Optional[str]: ...
    def children(self, link: str) -> List[str]: ...
    def child_joints(self, link: str) -> List[str]: ...
    def __call__(self) -> str: ...

class Model:
    """A loaded, composed model with resolved frames."""

    ok: bool
    diagnostics: List[Diagnostic]
    dofs: List[str]
    root: str
    format: str
    source_file: str
    frame_kinds: Dict[str, str]
    links: List[Link]
    joints: List[Joint]
    frames_list: List[Frame]
    models: List[ModelElement]
    tree: Tree
    def view(self, path: Optional[str] = None, open_browser: bool = True) -> str:
        """Writes the model's page of `interlink view` (to ``path``, default a temporary file), opens it
        in the web browser unless told not to, and returns the file's path (docs/view.md)."""
        ...
    def _repr_html_(self) -> str: ...
    def link(self, name: str) -> Link: ...
    def joint(self, name: str) -> Joint: ...
    def frames(self, q: Configuration = None, relative_to: Optional[str] = None) -> Dict[str, npt.NDArray[np.float64]]: ...
    def pose(self, frame: str, q: Configuration = None, relative_to: Optional[str] = None) -> npt.NDArray[np.float64]: ...
    def poses(self, frame: str, Q: npt.ArrayLike, relative_to: Optional[str] = None) -> npt.NDArray[np.float64]: ...
    def mass_properties(
        self, q: Configuration = None, subtree: Optional[str] = None
    ) -> Tuple[float, npt.NDArray[np.float64], npt.NDArray[np.float64]]: ...
    def jacobian(self, frame: str, q: Configuration = None) -> npt.NDArray[np.float64]: ...
    def convert(
        self,
        path: Union[str, "os.PathLike[str]"],
        to: Optional[str] = None,
        mesh_uris: Optional[str] = None,
        urdf_floating_joint: bool = False,
    ) -> List[Diagnostic]: ...
    def configuration(self, q: Configuration = None) -> npt.NDArray[np.float64]: ...

def _load(path: str, format: Optional[str], resource_paths: List[str], confine: bool = ..., args: Dict[str, str] = ...) -> Model: ...
def _loads(text: str, format: Optional[str], file_name: str, resource_paths: List[str], confine: bool = ...) -> Model: ...
def _plugins() -> Tuple[List[dict], List[dict]]: ...
def _hardware_families() -> List[dict]: ...
def _write(
    model: Model, path: str, to: Optional[str], mesh_uris: Optional[str], urdf_floating_joint: bool = ...
) -> List[Diagnostic]: ...
def _writers() -> List[Tuple[str, List[str]]]: ...
