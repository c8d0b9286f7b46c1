# Where the simulated boards running for a user are listed: the login's
# runtime folder, or with none (a root shell, a container, a cron job) the
# HOME's own cache folder, so that two HOMEs of one user never find each
# other's boards (issue 69, item 9).
import sys

import pytest

from cribboard.sim import registry


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG folders are Linux's")
def test_with_no_runtime_folder_each_home_lists_its_own_boards(tmp_path, monkeypatch):
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    found = []
    for home in ("one", "two"):
        monkeypatch.setenv("HOME", str(tmp_path / home))
        found.append(registry.folder())
    assert found[0] != found[1]
    assert found[0].is_relative_to(tmp_path / "one")
    assert found[1].is_relative_to(tmp_path / "two")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG folders are Linux's")
def test_a_login_with_a_runtime_folder_lists_its_boards_there(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "run"))
    assert registry.folder() == tmp_path / "run" / "cribboard" / "sims"
