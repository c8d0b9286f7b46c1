from cribapp.mpmain import rest

rest()
