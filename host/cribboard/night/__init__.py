# A club night (a tournament the boards run): the draw of its rounds and its
# standings.
