# Makes this folder the package cribboard.hardware_data in the installed host
# tool, which reads the pin maps (boards/) and layouts (layouts/) from it.
