"""deckpress rules engines: one engine per game on a shared core, driven by validated content.

``deckpress.rules.core`` holds what every game shares (the Game/State/View contract, reason codes,
parameters, bots, logs, replay, simulation, statistics); ``deckpress.rules.mission_emission`` is the first
game.  Engines read content through :mod:`deckpress.generator.content` and never import rendering code.
How to add a game: ``rules/README.md``.

Quick use::

    from deckpress.rules.core.registry import load
    game = load("mission-emission", overrides={"mode": "strategy", "players": 3})
    state = game.new_state()          # a chance node: the deal
    state.apply(state.legal_actions()[0])
"""
