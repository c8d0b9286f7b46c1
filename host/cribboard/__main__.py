# `python -m cribboard`: the same command as `cribboard`.
from cribboard.cli import main

main()
