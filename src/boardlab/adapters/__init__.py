"""Adapters that present boardlab games to other frameworks.

* :mod:`boardlab.adapters.openspiel`: every game as an OpenSpiel Python game
  (needs the optional ``openspiel`` extra: ``pip install 'boardlab[openspiel]'``).
* :mod:`boardlab.adapters.pettingzoo`: every game as a PettingZoo environment, AEC and Parallel
  (needs the optional ``pettingzoo`` extra: ``pip install 'boardlab[pettingzoo]'``).

The adapters are imported on demand, so boardlab works without their frameworks.
"""
