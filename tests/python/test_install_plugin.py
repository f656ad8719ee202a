"""The installed package: `cmake --install` puts `interlink` into the prefix's site-packages, and a
plugin built out of tree against that install (samples/toml_plugin) is usable from Python through
INTERLINK_PLUGIN_PATH, with the same frames as the CLI."""

import json
import os
import subprocess
import sys

import numpy as np

from conftest import BINARY_DIR, DATA, SOURCE_DIR, cli_frames

CMAKE = os.environ.get("CMAKE_COMMAND", "cmake")
MODEL = DATA / "sdformat/test/integration/model/double_pendulum.toml"

SCRIPT = """
import json, sys
import interlink
report = interlink.plugins()
m = interlink.load(sys.argv[1])
q = [0.3 * (i + 1) for i in range(len(m.dofs))]
print(json.dumps({
    "module": interlink.__file__,
    "plugins": report.names(),
    "refused": [r.path for r in report.refused],
    "format": m.format,
    "dofs": m.dofs,
    "q": q,
    "frames": {name: pose.tolist() for name, pose in m.frames(q).items()},
}))
"""


def run(*args, **kwargs):
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{' '.join(map(str, args))}:\n{done.stdout}\n{done.stderr}"
    return done


def test_installed_package_uses_an_out_of_tree_plugin(tmp_path):
    prefix = tmp_path / "prefix"
    run(CMAKE, "--install", BINARY_DIR, "--prefix", prefix)
    modules = list(prefix.glob("lib/python3*/site-packages/interlink/_interlink*.so"))
    assert len(modules) == 1, list(prefix.rglob("_interlink*"))
    site = modules[0].parent.parent
    assert (site / "interlink/__init__.py").exists() and (site / "interlink/_interlink.pyi").exists()

    sample = tmp_path / "toml-build"
    run(CMAKE, "-S", SOURCE_DIR / "samples/toml_plugin", "-B", sample, "-DCMAKE_BUILD_TYPE=Release",
        f"-DCMAKE_PREFIX_PATH={prefix}")
    run(CMAKE, "--build", sample)

    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "INTERLINK_PLUGIN_PATH")}
    env.update(PYTHONPATH=str(site), INTERLINK_PLUGIN_PATH=str(sample))
    result = json.loads(run(sys.executable, "-c", SCRIPT, MODEL, env=env, cwd=tmp_path).stdout)
    assert result["module"].startswith(str(site))  # the installed copy, not the build tree
    assert "toml_sample" in result["plugins"] and "sdformat" in result["plugins"]
    assert result["refused"] == []
    assert result["format"] == "toml_sample"

    cli, dofs = cli_frames(MODEL, positions=result["q"], env={"INTERLINK_PLUGIN_PATH": str(sample)})
    assert dofs == result["dofs"] and dofs
    assert set(cli) == set(result["frames"]) and "child_dp::model_1::lower_link" in cli
    for name, (position, _) in cli.items():
        np.testing.assert_allclose(np.array(result["frames"][name])[:3, 3], position, atol=1e-9)

    # Without the path the plugin is not there, and the file is refused with a reason.
    del env["INTERLINK_PLUGIN_PATH"]
    failing = subprocess.run([sys.executable, "-c", SCRIPT, str(MODEL)], capture_output=True, text=True, env=env)
    assert failing.returncode != 0 and "NO_PARSER" in failing.stderr
