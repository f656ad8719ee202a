"""Interlink for Python: load robot and multibody models of any registered format.

>>> import interlink
>>> m = interlink.load("robot.urdf")
>>> m.dofs, m.pose("tool", q={"joint1": 0.5})

Poses are 4x4 NumPy arrays X_RF of a frame F in the root frame R (the world for a world file,
the top model frame for a model file) unless ``relative_to`` names another frame. A
configuration ``q`` is None (all zeros), ``"zero"``, ``"initial"`` (the file's initial
positions), a sequence or array in DOF order (``m.dofs``), a dict ``{dof name: value}`` (the others
at zero) or a text as ``interlink frames --positions`` takes it (``"elbow=0.3,wrist=-1"``).
``m.poses(frame, Q)`` computes one frame at every row of ``Q`` (shape (N, dofs)) -> (N, 4, 4).

The model itself is read-only and typed: ``m.links`` / ``m.link(name)``, ``m.joints`` (every joint,
fixed ones too), ``m.frames_list``, ``m.models``, ``m.tree``, ``m.diagnostics``.
Every call releases the GIL while C++ works, so loads and queries run in parallel threads.
"""

# Imports are kept to what the interpreter has loaded anyway (no dataclasses, no typing at run
# time): `import interlink` is part of every script's start-up cost.
from __future__ import annotations

from os import PathLike, fspath
TYPE_CHECKING = False  # typing is imported by type checkers only

from . import _interlink
from ._interlink import Diagnostic, Frame, Geometry, Joint, Link, Mimic, Model, ModelElement, Shape, Tree
from . import view as _view

JointInfo = Joint  # the name of the class before every joint was listed (joints with DOFs only)

# The page of `interlink view` (docs/view.md): in the browser, or inline in Jupyter.
Model.view = _view.view
Model._repr_html_ = _view.repr_html

if TYPE_CHECKING:
    from typing import List, Mapping, Optional, Sequence, Union

__all__ = [
    "Diagnostic",
    "Frame",
    "Geometry",
    "Joint",
    "JointInfo",
    "Link",
    "LoadError",
    "Mimic",
    "Model",
    "ModelElement",
    "Shape",
    "Tree",
    "convert",
    "writers",
    "Plugin",
    "PluginReport",
    "RefusedLibrary",
    "hardware",
    "load",
    "loads",
    "plugins",
]


class LoadError(Exception):
    """The input is invalid. ``diagnostics`` holds every finding, errors first, each located."""

    def __init__(self, source: str, diagnostics: List[Diagnostic]):
        self.source = source
        self.diagnostics = diagnostics
        errors = [d for d in diagnostics if d.severity == "error"]
        lines = [str(d) for d in errors] or [str(d) for d in diagnostics]
        super().__init__(f"{source}: {len(errors)} error(s)\n" + "\n".join(lines))

    @property
    def errors(self) -> List[Diagnostic]:
        """The diagnostics of severity 'error'."""
        return [d for d in self.diagnostics if d.severity == "error"]


def _checked(model: Model, source: str) -> Model:
    if not model.ok:
        diagnostics = sorted(model.diagnostics, key=lambda d: d.severity != "error")
        raise LoadError(source, diagnostics)
    return model


def load(
    path: Union[str, PathLike],
    format: Optional[str] = None,
    resource_paths: Sequence[Union[str, PathLike]] = (),
    confine: bool = False,
    args: Optional[Mapping[str, str]] = None,
) -> Model:
    """Loads a model file, composes its includes and resolves every frame.

    ``format`` names the plugin to read the file with ("sdformat", "urdf", "hrdf", ...); by
    default the file's extension (and content) choose. ``resource_paths`` are searched for
    ``model://`` and ``package://`` URIs before ``INTERLINK_RESOURCE_PATH``. Includes and meshes
    are followed wherever the file names them; ``confine=True`` (for untrusted files) reads them
    only from the file's directory and the resource paths. ``args`` are the arguments of a xacro
    file (``$(arg NAME)``), e.g. ``{"arm_id": "fr3"}``.
    Raises LoadError (with ``.diagnostics``) when the input is invalid.
    """
    path = fspath(path)
    arguments = {str(k): str(v) for k, v in (args or {}).items()}
    model = _interlink._load(path, format, [fspath(p) for p in resource_paths], confine, arguments)
    return _checked(model, path)


def loads(
    text: str,
    format: Optional[str] = None,
    file_name: str = "<string>",
    resource_paths: Sequence[Union[str, PathLike]] = (),
    confine: bool = False,
) -> Model:
    """Loads a model from a string, read by the plugin named ``format``.

    ``file_name`` stands for the text in diagnostics; without ``format`` its extension chooses
    the plugin, and relative includes are resolved beside it. With ``confine=True`` only the
    resource paths may be read from. Raises LoadError when invalid.
    """
    model = _interlink._loads(text, format, file_name, [fspath(p) for p in resource_paths], confine)
    return _checked(model, file_name)


def convert(
    src: Union[str, PathLike],
    dst: Union[str, PathLike],
    to: Optional[str] = None,
    format: Optional[str] = None,
    resource_paths: Sequence[Union[str, PathLike]] = (),
    mesh_uris: Optional[str] = None,
    urdf_floating_joint: bool = False,
) -> List[Diagnostic]:
    """Loads ``src`` and writes it to ``dst``, as ``interlink convert SRC -o DST [--to TO]`` does.

    ``to`` names the writer (``writers()`` lists them: sdformat, urdf, mjcf, json, dot); by default
    the extension of ``dst`` chooses. ``format`` and ``resource_paths`` are those of ``load``;
    ``mesh_uris`` is the CLI's ``--mesh-uris`` (portable, relative, absolute, as-written) and
    ``urdf_floating_joint`` its ``--urdf-floating-joint`` (URDF output: a floating base becomes a
    ``floating`` joint from ``world``). The
    writers are the CLI's (one registry): the output is read back before it replaces ``dst``.
    Returns the writer's warnings (what the target format cannot hold). Raises LoadError when
    ``src`` is invalid and ValueError when it cannot be written in that format; refuses to
    overwrite ``src``.
    """
    src, dst = fspath(src), fspath(dst)
    import os.path  # os is loaded by the interpreter anyway

    if os.path.exists(dst) and os.path.samefile(src, dst):
        raise ValueError(f"refusing to overwrite the input '{src}' with its conversion")
    model = load(src, format=format, resource_paths=resource_paths)
    return _interlink._write(model, dst, to, mesh_uris, urdf_floating_joint)


def writers() -> List[tuple]:
    """The output formats of ``convert``: (name, extensions) pairs, as ``interlink convert --to`` takes them."""
    return [(name, list(extensions)) for name, extensions in _interlink._writers()]


class _Record:
    """A small read-only record: fields by keyword, compared and printed by value."""

    __slots__ = ()

    def __init__(self, **fields):
        for name in self.__slots__:
            object.__setattr__(self, name, fields[name])

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __eq__(self, other):
        return type(self) is type(other) and all(getattr(self, n) == getattr(other, n) for n in self.__slots__)

    def __hash__(self):
        return hash(tuple(repr(getattr(self, n)) for n in self.__slots__))

    def __repr__(self):
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__)
        return f"{type(self).__name__}({fields})"


class Plugin(_Record):
    """A plugin library that passed the handshake: name, version, kind ("format" or
    "hardware"), extensions (lower case, with the dot) and path of the shared library."""

    __slots__ = ("name", "version", "kind", "extensions", "path")


class RefusedLibrary(_Record):
    """A library that was found but not accepted: path, and the reason (a Diagnostic)."""

    __slots__ = ("path", "reason")


class PluginReport(_Record):
    """What plugin discovery found: ``loaded`` plugins and ``refused`` libraries.

    Iterating it yields the loaded plugins.
    """

    __slots__ = ("loaded", "refused")

    def __iter__(self):
        return iter(self.loaded)

    def __len__(self) -> int:
        return len(self.loaded)

    def names(self) -> List[str]:
        """Names of the loaded plugins."""
        return [p.name for p in self.loaded]


def plugins() -> PluginReport:
    """Plugins found beside the Interlink library and in INTERLINK_PLUGIN_PATH (read once,
    at the first use of the module), and the libraries that were refused with the reason."""
    loaded, refused = _interlink._plugins()
    return PluginReport(
        loaded=[Plugin(**entry) for entry in loaded],
        refused=[RefusedLibrary(**entry) for entry in refused],
    )


from . import hardware  # noqa: E402  (the submodule uses the names above)
