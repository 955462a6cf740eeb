"""The ``asobiba`` command."""
