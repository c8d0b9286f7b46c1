from cribapp.mpmain import run

run()
