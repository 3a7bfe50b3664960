"""The ``paiute`` command line: ``paiute eval``, ``paiute replay``, ``paiute rules``."""
