"""The Django app behind the Django servers: one `Item` model, seeded with the shared dataset."""
