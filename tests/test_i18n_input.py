"""Input in the reader's language: the card letters each language prints are read back (R1.4),
where they cannot be taken for another rank."""

from __future__ import annotations

import gettext

import pytest

from paiute.cards import Card, Rank, parse_cards
from paiute.cli.main import main
from paiute.errors import ParseError
from paiute.i18n import LANGUAGES, Translator, translator


@pytest.mark.parametrize("lang", LANGUAGES)
def test_r1_4_every_card_as_its_language_prints_it_parses_back(lang: str) -> None:
    tr = translator(lang)
    pack = [Card.of(rank, suit) for rank in Rank for suit in range(4)]
    assert tr.parse_cards(" ".join(tr.card(card) for card in pack)) == pack
    assert [tr.parse_card(str(card)) for card in pack] == pack  # the canonical text, always


def test_r1_4_romanian_eval_reads_romanian_letters(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "ro", "eval", "R♠ D♠ V♠ 10♠ A♠"]) == 0
    out = capsys.readouterr().out
    assert "Chintă roială" in out
    assert main(["--lang", "ro", "eval", "R♠ D♠ V♠ 10♠ 7♠", "--wild", "R"]) == 0
    assert "R♠" in capsys.readouterr().out  # --wild R: the kings are wild
    # English does not know the Romanian letters: one line, usage error.
    assert main(["eval", "R♠ D♠ V♠ 10♠ A♠"]) == 2
    assert "unknown card text 'R♠'" in capsys.readouterr().err


def test_r1_4_plain_play_reads_the_language_letters() -> None:
    from paiute import Deal, RuleSet, SeededChance
    from paiute.tui.plain import parse_command

    obs = Deal.new(RuleSet(), players=2, dealer=0, chance=SeededChance(1)).observation(1)
    assert str(parse_command("x R♥", obs, translator("ro")).action) == "discard Kh"
    assert parse_command("x R♥", obs, translator("en")).error is not None


class _Ambiguous(Translator):
    """A language that prints the jack as K (and the king as R): K could be either."""

    def rank_symbol(self, rank: Rank) -> str:
        return {Rank.JACK: "K", Rank.KING: "R"}.get(rank, rank.symbol)


def test_r1_4_an_ambiguous_letter_is_refused_with_the_ways_to_write_it() -> None:
    tr = _Ambiguous("xx", gettext.NullTranslations())
    assert tr.parse_cards("R♠ 2h") == parse_cards("Ks 2h")
    with pytest.raises(ParseError) as caught:
        tr.parse_cards("K♠ 2h")
    assert (
        str(caught.value)
        == "card text 'K♠' is ambiguous in this language: write J for the jack or R for the king (R1.4)"
    )
    with pytest.raises(ParseError):
        tr.parse_rank("k")
