"""Local fakes of the external services the app talks to (real sockets, no mocks)."""
