"""Threads (issue 35): loads and queries from many threads at once, in a fresh interpreter where
NumPy was not imported first (eight threads calling `interlink.loads(...).frames()` used to
deadlock there), and the same numbers as one thread."""

import os
import subprocess
import sys
import textwrap

from conftest import SOURCE_DIR

PANDA = SOURCE_DIR / "tests/data/example-robot-data/panda.urdf"

SCRIPT = textwrap.dedent("""
    import sys, threading
    import interlink                      # NumPy is not imported before the threads start
    assert "numpy" not in sys.modules, "import interlink must not import NumPy"
    text = open(sys.argv[1]).read()
    results, errors = {}, []
    start = threading.Barrier(8)
    def work(k):
        try:
            start.wait()
            for _ in range(20):
                m = interlink.loads(text, format="urdf", file_name="panda.urdf")
                frames = m.frames({"panda_joint2": 0.1 * k})
                hand = m.pose("panda_hand", {"panda_joint2": 0.1 * k})
                Q = [[0.1 * k if i == 1 else 0.0 for i in range(len(m.dofs))]] * 5
                many = m.poses("panda_hand", Q)
                J = m.jacobian("panda_hand", {"panda_joint2": 0.1 * k})
                assert (abs(hand - frames["panda_hand"]) < 1e-12).all() and (many == hand).all(), k
                assert J.shape == (6, 9), J.shape
                links = m.links
                assert len(m.joints) > len(m.dofs) and links[1].inertia.shape == (3, 3), len(m.joints)
            results[k] = hand
        except Exception as e:
            errors.append(repr(e))
    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads: t.start()
    for t in threads: t.join()
    assert not errors, errors
    m = interlink.loads(text, format="urdf", file_name="panda.urdf")
    for k, hand in results.items():
        assert (m.pose("panda_hand", {"panda_joint2": 0.1 * k}) == hand).all()
    print("ok", len(results))
""")


def test_eight_threads_load_and_query_without_numpy_imported_first():
    for _ in range(3):  # the deadlock came every time; three fresh interpreters make it certain
        done = subprocess.run([sys.executable, "-c", SCRIPT, str(PANDA)], capture_output=True, text=True,
                              timeout=120, env=dict(os.environ))
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "ok 8"


def test_threads_share_one_model():
    import threading
    import numpy as np
    import interlink
    m = interlink.load(PANDA)
    Q = np.random.default_rng(8).uniform(-1, 1, size=(200, len(m.dofs)))
    expected = m.poses("panda_hand_tcp", Q)   # one thread
    out = [None] * 8

    def work(k):
        out[k] = np.array([m.pose("panda_hand_tcp", q) for q in Q])

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for result in out:
        np.testing.assert_array_equal(result, expected)
