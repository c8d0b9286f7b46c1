from cribmp.start import rest

rest()
