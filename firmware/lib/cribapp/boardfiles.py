# Reading the board's own files (board.json, layout.json, deploy.json). Kept
# apart from the app so that main.py's deploy-error fallback and CircuitPython's
# boot.py can read them without loading the app (which a cut-off deploy may
# have left unable to import).
import json


def _path(root, name):
    return root + "/" + name if root else name


def read_json(root, name):
    """(data, problem): data is None if the file is missing or unreadable."""
    try:
        f = open(_path(root, name))
    except OSError:
        return None, False
    try:
        return json.loads(f.read()), False
    except (OSError, ValueError):
        return None, True
    finally:
        f.close()


def deploy_finished(root=""):
    """False if the last `cribboard flash` stopped half way: deploy.json says
    "incomplete" or was itself cut off. No deploy.json: installed another way."""
    data, bad = read_json(root, "deploy.json")
    if data is None:
        return not bad
    return isinstance(data, dict) and data.get("state") == "complete"
