"""FastAPI app mounted on Reflex's backend (``/api/`` and ``/functions/v1/``)."""
