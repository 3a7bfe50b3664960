"""``paiute play``: Paiute at the terminal, against bots and other people on one screen.

The package is layered so that only :mod:`paiute.tui.app`, :mod:`paiute.tui.watch`,
:mod:`paiute.tui.lesson_app`, :mod:`paiute.tui.widgets`, :mod:`paiute.tui.dialogs` and
:mod:`paiute.tui.review_screen` need Textual:

* :mod:`paiute.tui.session`: the game loop (a :class:`~paiute.match.Match`, the bots, the
  record file kept after every deal, ``--resume``), with no user interface;
* :mod:`paiute.tui.describe`: words and card text for what a seat sees, built only from its
  :class:`~paiute.observation.Observation` (R9);
* :mod:`paiute.tui.help`: the rules as implemented, the combinations table and examples;
* :mod:`paiute.tui.cells`: text broken, cut and padded in the columns a terminal draws (a
  Bengali vowel sign takes one), for ``--plain`` and for every dialog of
  :mod:`paiute.tui.dialogs`;
* :mod:`paiute.tui.plain`: the line-based ``--plain`` mode, over any pair of streams;
* :mod:`paiute.tui.app`: the full-screen Textual application;
* :mod:`paiute.tui.watch`: ``paiute replay FILE --watch``, a saved match step by step
  (:mod:`paiute.tui.launch` starts it without importing Textual before it is needed);
* :mod:`paiute.tui.lesson`: ``paiute learn``, a guided first deal, with no user interface;
  :mod:`paiute.tui.lesson_app` shows it full screen, :mod:`paiute.tui.lesson_plain` line by line.
"""
