# The table's words: the tool's language (i18n), an error's words in it,
# quoting what a user gave, the games' own words.
