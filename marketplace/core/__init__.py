"""Pure business rules: no database, no Reflex."""
