"""Test helpers, imported as ``helpers.x`` (pytest's ``pythonpath``).

- cards, rulesets: seats and card constants; the presets and option variants tests run under
- reference, deals, scoring: docs/rules.md restated apart from the engine (plays, the deal and
  tribute, scores)
- referee: the independent referee of a game's event log
- policies, drivers: seeded random players, and the drivers that play games and matches
- reading: a game's events, dealt hands and observable state
- strategies: hypothesis strategies for cards, hands and plays
- tables: the server's table actor in process on a fake clock; servers: live server processes
"""
