"""Database work in transactions; states and API routes call these."""
