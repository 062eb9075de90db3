"""Scheduled work: the daily lead refresh."""
