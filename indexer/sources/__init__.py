"""What the pipeline reads: the source files (`read`), the corpus manifest (`manifest`), and
what is known or guessed about each document (`metadata`: its title and id, with `parties`
from `countries`' names and their `stateforms`, and `dates` of signature)."""
