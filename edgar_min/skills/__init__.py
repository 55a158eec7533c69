"""What reads skills: discovery, the SKILL.md format, validation.

Nothing here imports `edgar_min.learning`, so `skills validate` keeps working
in a build with the learning package deleted.
"""
