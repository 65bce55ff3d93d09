"""Adapters that present boardlab games to other frameworks.

* :mod:`boardlab.adapters.openspiel`: every game as an OpenSpiel Python game
  (needs the optional ``openspiel`` extra: ``pip install 'boardlab[openspiel]'``).

The adapters are imported on demand, so boardlab works without their frameworks.
"""
