"""Fixtures of the retarget Python suite: the shared data, the command line, scratch files.

ctest (python/CMakeLists.txt) runs this suite with PYTHONPATH at the built module,
RETARGET_CLI at the built `retarget` program and RETARGET_SOURCE_DIR at the source tree. The
shared recordings are $RETARGET_TEST_DATA or <source>/../shared/data; when they are missing the
tests that need them are skipped, or fail when RETARGET_REQUIRE_ALL is set (the test preset).
"""
import json
import os
import pathlib
import subprocess

import pytest


def _flag(name):
    return os.environ.get(name, "") not in ("", "0")


def data_dir():
    env = os.environ.get("RETARGET_TEST_DATA")
    if env is not None:
        return pathlib.Path(env) if pathlib.Path(env).is_dir() else None
    source = os.environ.get("RETARGET_SOURCE_DIR")
    if source is None:
        source = pathlib.Path(__file__).resolve().parents[2]
    fallback = pathlib.Path(source) / ".." / "shared" / "data"
    return fallback.resolve() if fallback.is_dir() else None


def require(what):
    """Skips the test for a missing `what`, or fails it under RETARGET_REQUIRE_ALL."""
    if _flag("RETARGET_REQUIRE_ALL") or _flag("RETARGET_REQUIRE_DATA"):
        pytest.fail(f"{what} is missing and RETARGET_REQUIRE_ALL is set")
    pytest.skip(f"{what} is missing")


@pytest.fixture(scope="session")
def data():
    d = data_dir()
    if d is None:
        require("the shared data (../shared/data or $RETARGET_TEST_DATA)")
    return d


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("RETARGET_CLI")
    if not path or not os.path.exists(path):
        require("the retarget command line ($RETARGET_CLI)")

    def run(*args, check=True):
        result = subprocess.run([path, *map(str, args)], capture_output=True, text=True)
        if check and result.returncode != 0:
            raise AssertionError(f"retarget {' '.join(map(str, args))} failed ({result.returncode}):\n{result.stderr}")
        return result

    return run


@pytest.fixture(scope="session")
def eval_json(cli):
    """`retarget eval ... --json` as a dict, without the head (metric, motion, angles, robot, frames)."""

    def run(motion, angles, robot, metric, *extra):
        out = json.loads(cli("eval", motion, angles, "--robot", robot, "--metrics", metric, "--json", *extra).stdout)
        for key in ("metric", "motion", "angles", "robot", "frames"):
            out.pop(key, None)
        return out

    return run


@pytest.fixture(scope="session")
def scratch(tmp_path_factory):
    return tmp_path_factory.mktemp("retarget")
