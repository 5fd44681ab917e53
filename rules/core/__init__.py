"""The engine core shared by every game: the Game/State/View contract, errors with reason codes,
parameters and rulesets, bots, game logs, replay, simulation and statistics.

One concern per module: ``errors``, ``params``, ``game``, ``registry``, ``bots``, ``log``,
``replay``, ``simulate``, ``stats``.  See ``rules/README.md`` for how to add a game.
"""
