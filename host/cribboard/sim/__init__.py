# The simulated board: its process (the firmware on MicroPython's unix port),
# the host's side of its hardware, the ones running for this user.
