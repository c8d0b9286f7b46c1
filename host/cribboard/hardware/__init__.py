# The hardware's data read as the firmware reads it (spec), and the documents made from it (documents).
