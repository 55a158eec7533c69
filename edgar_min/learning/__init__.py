"""What writes skills: turn records, triggers, the outline, the experience store, the writer."""
