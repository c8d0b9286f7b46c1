from cribmp.start import run

run()
