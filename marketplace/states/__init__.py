"""Reflex states: ``AuthState`` at the base, one substate per page."""
