"""``Model.view()`` and ``Model._repr_html_()``: the model as the page of ``interlink view``.

The page is made by the ``interlink`` command from the model recorded as the JSON core model
(``Model.convert``), which keeps each model's source rules and resolved mesh paths, so the page
shows the same frames as this Model.
"""

from __future__ import annotations

# Modules are imported where they are used: `import interlink` must stay cheap.
import os


def _cli() -> str:
    """The ``interlink`` command: $INTERLINK_CLI, beside this package (build tree, install), or PATH."""
    import shutil
    from pathlib import Path

    if os.environ.get("INTERLINK_CLI"):
        return os.environ["INTERLINK_CLI"]
    here = Path(__file__).resolve().parent
    for candidate in (here.parent.parent / "bin" / "interlink",                 # build/python/interlink -> build/bin
                      here.parents[3] / "bin" / "interlink" if len(here.parents) > 3 else None):  # lib/pythonX/site-packages
        if candidate is not None and candidate.is_file():
            return str(candidate)
    found = shutil.which("interlink")
    if not found:
        raise RuntimeError("the interlink command was not found (set INTERLINK_CLI)")
    return found


def page_html(model) -> str:
    """The self-contained page of ``interlink view -o`` for this model."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory(prefix="interlink-view-") as directory:
        recorded = os.path.join(directory, "model.json")
        page = os.path.join(directory, "model.html")
        model.convert(recorded)
        # The recorded model names the meshes the load resolved, which passed its path policy
        # already; from the temporary directory they are all "outside", hence the flag.
        done = subprocess.run([_cli(), "view", recorded, "-o", page],
                              capture_output=True, text=True)
        if done.returncode not in (0, 1) or not os.path.exists(page):
            raise RuntimeError("interlink view failed: " + done.stderr)
        with open(page, encoding="utf-8") as text:
            return text.read()


def view(model, path=None, open_browser=True) -> str:
    """Writes the model's page (to ``path``, default a temporary file), opens it in the web browser
    unless told not to, and returns the file's path."""
    import tempfile
    import webbrowser
    from pathlib import Path

    if path is None:
        handle, path = tempfile.mkstemp(prefix="interlink-view-", suffix=".html")
        os.close(handle)
    Path(path).write_text(page_html(model), encoding="utf-8")
    if open_browser:
        webbrowser.open(Path(path).resolve().as_uri())
    return os.fspath(path)


def repr_html(model) -> str:
    """The page in an <iframe> (Jupyter shows it inline; the page's scripts stay in their frame)."""
    import html

    return ('<iframe style="width:100%;height:520px;border:1px solid #ccc" srcdoc="' + html.escape(page_html(model), quote=True)
            + '"></iframe>')
