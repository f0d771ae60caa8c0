"""What the pipeline reads: the source files (`read`), the corpus manifest (`manifest`), and
what is known or guessed about each document (`metadata`, with `countries`' names)."""
