"""The bidding and regional families: Briscola a chiamata, the Chilean variants.

Each family is a preset of the ordinary engine (see :data:`companion.engine.rules.PRESETS`):

- ``chiamata-5`` (:mod:`.chiamata`): five players bid for the right to call a card; its
  holder is the caller's hidden partner. Options ``buia`` and ``a_punti``.
- ``chile-4``: four players, five cards each, with the obligations of tute
  (:mod:`.tute`): follow suit, trump, beat, overtrump.
- ``chile-remate-3`` (:mod:`.remate`): an auction from 100, a talon of two cards, the 40 of
  caballo and rey of trumps and 10 for the last trick.

A family with bidding is a :class:`~.family.Family` that the replay's table consults: it
handles the bidding events, says when play may start, and settles the contract.
"""
