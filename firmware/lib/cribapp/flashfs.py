# The board's files, behind the small interface the store uses, so tests
# can swap in a flash that loses power at any instant.
import os


class FlashFiles:
    def __init__(self, root=""):
        self.root = root

    def path(self, name):
        return self.root + "/" + name if self.root else name

    def open(self, name, mode):
        return open(self.path(name), mode)

    def rename(self, old, new):
        os.rename(self.path(old), self.path(new))

    def remove(self, name):
        try:
            os.remove(self.path(name))
        except OSError:
            pass

    def size(self, name):
        """Bytes in the file, or -1 if there is none."""
        try:
            return os.stat(self.path(name))[6]
        except OSError:
            return -1


def replace(files, tmp, name):
    """Rename tmp over name. FAT (CircuitPython, ESP32 ports) will not
    rename over a file: there the old one goes first, and a cut between the
    two steps leaves a whole tmp, which its reader takes up."""
    try:
        files.rename(tmp, name)
    except OSError:
        files.remove(name)
        files.rename(tmp, name)
