"""What reads skills: discovery, the SKILL.md format, validation, the catalogue, routing and suggestion.

Nothing here imports `edgar_min.learning` (what writes skills), so listing, showing, validating,
indexing and suggesting skills keep working in a build with the learning package deleted.
"""
