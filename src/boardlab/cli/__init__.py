"""The ``boardlab`` command."""
