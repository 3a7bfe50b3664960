"""What the bots and the rules let us work out about a game: it stands on :mod:`paiute.players`.

* :mod:`paiute.analysis.hint`: the best move for the seat to act, and why, from its observation.
* :mod:`paiute.analysis.review`: what every decision of a finished record cost.
* :mod:`paiute.analysis.tournament`: duplicate tournaments between players, with ratings.
* :mod:`paiute.analysis.simulate`: the facts of the game over many deals between bots.
* :mod:`paiute.analysis.odds`: exact odds of the combinations.
* :mod:`paiute.analysis.lesson`: the guided first deal's script (``paiute learn``, "Learn to
  play" on the web): the prepared deal, its steps and each step's check.

Importing this package loads none of them; each is imported where it is used.
"""
