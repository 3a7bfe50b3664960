"""The compiled vector environment (paiute.envs.vector) against the Python one, side by side.

* **Differential**: ``gym.make_vec(..., vectorization_mode="vector_entry_point")`` and
  ``gym.make_vec(..., vectorization_mode="sync")`` (``SyncVectorEnv`` over the single
  ``PaiuteEnv``, its bots the engine's ``GreedyPlayer``, ``RandomPlayer`` and ``PlayoutPlayer``)
  made with the same keywords, reset with the same seed and given the same actions return the
  same observations, rewards, terminations, truncations and infos at every step, for a few
  hundred steps across several tables, presets, table sizes, seats, options and illegal-action
  modes, across many autoreset boundaries: the same deals, the same bot moves (ties included)
  and the same rewards.
* **The vector API by hand** (Gymnasium's checker is for single environments): the spaces
  contain what the environment returns, every mask row admits a sample, next-step autoreset,
  seeding per table, errors, and a policy seated at the other tables' seats (self-play).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

pytest.importorskip("numba")

import paiute.envs.gymnasium  # noqa: F401 - registers paiute/Paiute-v0
from paiute.actions import NUM_ACTIONS
from paiute.envs import GYMNASIUM_ID
from paiute.envs import vector as vector_module
from paiute.envs.vector import PaiuteVectorEnv
from paiute.envs.vector_tables import TableGenerator, entry_points
from paiute.errors import IllegalActionError, PaiuteError


def make_pair(num_envs: int, **kwargs: Any) -> tuple[Any, Any]:
    """The compiled vector env and the synchronous one over the single env, same keywords."""
    compiled = gym.make_vec(
        GYMNASIUM_ID, num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs
    )
    mode = kwargs.pop("autoreset_mode", AutoresetMode.NEXT_STEP)
    sync = gym.make_vec(
        GYMNASIUM_ID,
        num_envs=num_envs,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": mode},
        **kwargs,
    )
    return compiled, sync


def assert_same_info(ours: dict[str, Any], theirs: dict[str, Any], where: str) -> None:
    """The same keys, presence masks and values (the text of an illegal action aside: the
    engine words it from the whole deal, the kernels by its rule)."""
    assert set(ours) == set(theirs), (where, sorted(set(ours) ^ set(theirs)))
    for key, value in theirs.items():
        mine = ours[key]
        if isinstance(value, dict):
            assert_same_info(mine, value, f"{where}/{key}")
        elif key == "illegal":
            assert np.array_equal(ours["_illegal"], theirs["_illegal"]), where
        elif key == "final_obs":
            for a, b in zip(mine, value, strict=True):
                assert (a is None and b is None) or np.array_equal(a, b), (where, key)
        else:
            assert isinstance(mine, np.ndarray), (where, key)
            assert mine.dtype == value.dtype, (where, key, mine, value)
            assert mine.shape == value.shape, (where, key)
            if value.dtype == object:
                assert list(mine) == list(value), (where, key, list(mine), list(value))
            else:
                assert np.array_equal(mine, value), (where, key, mine, value)


def lock_step(steps: int, num_envs: int, seed: int, masked: bool = True, **kwargs: Any) -> Counter[str]:
    """Step both environments with the same actions (a seeded sample from the mask, or from
    every action with ``masked=False``); every return must agree. Returns what happened."""
    compiled, sync = make_pair(num_envs, **kwargs)
    rng = np.random.default_rng(seed)
    seen: Counter[str] = Counter()
    try:
        ours, info = compiled.reset(seed=seed)
        theirs, sync_info = sync.reset(seed=seed)
        assert np.array_equal(ours, theirs)
        assert_same_info(info, sync_info, "reset")
        for step in range(steps):
            weights = rng.random((num_envs, NUM_ACTIONS))
            if masked:
                weights *= info["action_mask"]
            actions = weights.argmax(axis=1)
            ours, rewards, terminated, truncated, info = compiled.step(actions)
            theirs, sync_rewards, sync_terminated, sync_truncated, sync_info = sync.step(actions)
            where = f"step {step}"
            assert np.array_equal(ours, theirs), (where, np.flatnonzero((ours != theirs).any(axis=1)))
            assert np.array_equal(rewards, sync_rewards), (where, rewards, sync_rewards)
            assert np.array_equal(terminated, sync_terminated), where
            assert np.array_equal(truncated, sync_truncated), where
            assert_same_info(info, sync_info, where)
            assert ours.dtype == np.float32
            assert compiled.observation_space.contains(ours)
            for end in info.get("end", []) if "final_info" not in info else info["final_info"].get("end", []):
                if end is not None:
                    seen[end] += 1
            seen["illegal"] += int(info.get("_illegal", np.zeros(1, bool)).sum())
            seen["paid"] += int((rewards != 0).sum())
    finally:
        compiled.close()
        sync.close()
    return seen


MIXED = ["greedy:aggression=0.8,horizon=2", "random", "greedy:aggression=0.8,horizon=2", "random:seed=5"]


@pytest.mark.parametrize(
    ("players", "kwargs", "ends"),
    [
        (4, {"opponents": "greedy"}, {"over"}),
        (
            3,
            {"opponents": "random", "preset": "gamerules", "seat": 2, "max_turns": 30},
            {"over", "max_turns"},
        ),
        (2, {"opponents": "greedy", "jokers": True, "payout": "scale", "seat": 1}, {"over"}),
        (5, {"opponents": MIXED, "preset": "gamerules", "max_turns": 12, "seat": 3}, {"over", "max_turns"}),
        (4, {"opponents": ["playout", "greedy", "random"], "carry_match": True, "stake": 2}, {"over"}),
        (6, {"opponents": "greedy", "wild_colour": "opposite", "max_rebuilds": 0, "max_turns": 60}, {"over"}),
        # Random play rebuilds the stock (R4.6) and, with no rebuild allowed, ends dead (R4.7).
        (3, {"opponents": "random", "max_rebuilds": 0, "reshuffle_keeps_top": False}, {"dead"}),
    ],
    ids=[
        "pagat-4-greedy",
        "gamerules-3-random-seat2-cut",
        "2-jokers-scale",
        "5-mixed-cut",
        "carry-playout",
        "6-greedy",
        "3-random-dead",
    ],
)
def test_the_compiled_tables_play_the_single_env_step_for_step(
    players: int, kwargs: dict[str, Any], ends: set[str]
) -> None:
    seen = lock_step(250, 4, 11 + players, players=players, **kwargs)
    assert sum(seen[end] for end in ("over", "dead", "max_turns")) >= 8, seen  # autoreset boundaries
    assert all(seen[end] for end in ends), seen
    assert seen["paid"] > 0, seen  # chips changed hands


@pytest.mark.parametrize("illegal", ["terminate", "replace"])
def test_illegal_actions_end_or_are_replaced_as_in_the_single_env(illegal: str) -> None:
    """Actions sampled from all 111 ids: most are illegal (R4.2, R6...)."""
    seen = lock_step(120, 3, 5, masked=False, players=3, opponents="greedy", illegal=illegal)
    assert seen["illegal"] > 10, seen


def test_same_step_autoreset_matches_the_sync_env() -> None:
    seen = lock_step(
        150, 3, 8, players=4, opponents="random", max_turns=10, autoreset_mode=AutoresetMode.SAME_STEP
    )
    assert sum(seen.values()) - seen["paid"] >= 5, seen


# -- the vector API by hand ---------------------------------------------------------------------


def make(num_envs: int = 3, **kwargs: Any) -> PaiuteVectorEnv:
    envs = gym.make_vec(GYMNASIUM_ID, num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs)
    assert isinstance(envs, PaiuteVectorEnv)
    return envs


def masked_actions(info: dict[str, Any], rng: np.random.Generator) -> np.ndarray:
    """A uniform sample from each row's mask; a row that admits nothing fails."""
    masks = info["action_mask"].astype(bool)
    assert masks.any(axis=1).all(), "a row of the mask admits no action"
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def test_make_vec_defaults_to_the_compiled_env_with_batched_spaces() -> None:
    envs = gym.make_vec(GYMNASIUM_ID, num_envs=3, players=3, opponents="random")
    assert isinstance(envs, PaiuteVectorEnv)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert envs.single_action_space == gym.spaces.Discrete(NUM_ACTIONS)
    assert envs.action_space == gym.spaces.MultiDiscrete([NUM_ACTIONS] * 3)
    assert envs.observation_space.shape == (3, *envs.single_observation_space.shape)
    observations, info = envs.reset(seed=0)
    assert envs.observation_space.contains(observations)
    assert info["action_mask"].shape == (3, NUM_ACTIONS)
    assert info["action_mask"].dtype == np.int8
    assert info["_action_mask"].all()
    assert np.array_equal(envs.action_masks(), info["action_mask"].astype(bool))
    actions = masked_actions(info, np.random.default_rng(0))
    assert envs.action_space.contains(actions)
    observations, rewards, terminated, truncated, info = envs.step(actions)
    assert envs.observation_space.contains(observations)
    assert rewards.dtype == np.float64
    assert terminated.dtype == truncated.dtype == np.bool_
    envs.close()


def test_next_step_autoreset_and_every_mask_row_admits_a_sample() -> None:
    """A masked sample every step (illegal="raise": an illegal one would fail); a table whose
    deal ended shows an all-ones mask, then its next step is a reset: reward 0, not done, the
    new deal's own mask."""
    envs = make(4, players=4, opponents="greedy", illegal="raise", max_turns=20)
    rng = np.random.default_rng(2)
    _, info = envs.reset(seed=3)
    resets = 0
    ended = np.zeros(4, dtype=bool)
    for _ in range(400):
        _, rewards, terminated, truncated, info = envs.step(masked_actions(info, rng))
        assert not rewards[ended].any()
        assert not (terminated | truncated)[ended].any()
        assert (info["action_mask"][ended].sum(axis=1) < NUM_ACTIONS).all()
        resets += int(ended.sum())
        ended = terminated | truncated
        assert info["action_mask"][ended].all()
        assert not info["_end"][~ended].any() if "_end" in info else not ended.any()
    assert resets > 20


def test_each_table_is_seeded_from_the_seed_and_its_index() -> None:
    """Table ``i`` of ``reset(seed=s)`` plays as a table reset with ``s + i``, however many
    tables there are; the same seed plays the same again."""
    five, three = make(5, players=3), make(3, players=3)
    listed = make(3, players=3)
    rng = np.random.default_rng(0)
    a, info = five.reset(seed=7)
    b, _ = three.reset(seed=7)
    c, _ = listed.reset(seed=[7, 8, 9])
    assert np.array_equal(a[:3], b)
    assert np.array_equal(b, c)
    for _ in range(60):
        actions = masked_actions(info, rng)
        a, _, _, _, info = five.step(actions)
        b, _, _, _, _ = three.step(actions[:3])
        c, _, _, _, _ = listed.step(actions[:3])
        assert np.array_equal(a[:3], b)
        assert np.array_equal(b, c)
    again, _ = three.reset(seed=7)
    first, _ = make(3, players=3).reset(seed=7)
    assert np.array_equal(again, first)


def test_r4_2_an_illegal_action_with_illegal_raise_names_the_env_and_the_rule() -> None:
    envs, twin = make(3, illegal="raise"), make(3)
    _, info = envs.reset(seed=4)
    twin.reset(seed=4)
    actions = info["action_mask"].argmax(axis=1)
    actions[1] = 2 + 51  # discard a card before drawing (R4.2): every table starts by drawing
    with pytest.raises(IllegalActionError, match=r"^R4\.2 env 1, seat 0: discard .*draw first") as caught:
        envs.step(actions)
    assert caught.value.rule == "R4.2"
    assert "\n" not in str(caught.value)
    actions[1] = info["action_mask"][1].argmax()  # nothing was applied: the step goes on as the twin's
    after, *_ = envs.step(actions)
    expected, *_ = twin.step(actions)
    assert np.array_equal(after, expected)


def test_r4_2_the_masks_given_out_are_the_callers_and_never_make_an_action_legal() -> None:
    """The env checks an action against the masks it gave; a caller writing to its copy in
    ``info`` changes nothing of what the rules allow."""
    envs, twin = make(3, illegal="raise"), make(3)
    _, info = envs.reset(seed=4)
    twin.reset(seed=4)
    legal = info["action_mask"].argmax(axis=1)
    info["action_mask"][:] = 1  # every action "legal"...
    actions = legal.copy()
    actions[1] = 2 + 51  # ...but a discard before drawing still breaks R4.2
    with pytest.raises(IllegalActionError, match=r"^R4\.2 env 1, seat 0"):
        envs.step(actions)
    info["action_mask"][:] = 0  # and no action "legal": the rules' own still are
    after, *_ = envs.step(legal)
    expected, *_ = twin.step(legal)
    assert np.array_equal(after, expected)


@pytest.mark.parametrize(
    ("kwargs", "said"),
    [
        ({"opponents": "ismcts"}, "vectorization_mode='sync'"),
        ({"opponents": "greedy:depth=2"}, "has no option 'depth'"),
        ({"observation_object": True}, "vectorization_mode='sync'"),
        ({"render_mode": "ansi"}, "vectorization_mode='sync'"),
        ({"opponents": ["greedy"]}, "1 opponent specs for 3 other seats"),
        ({"opponents": ["greedy:horizon=2", "greedy", "random"]}, "share one aggression and horizon"),
        ({"seat": 4}, "R2.2 seat 4"),
        ({"autoreset_mode": "Sometimes"}, "autoreset_mode='Sometimes'"),
        ({"max_turns": 0}, "max_turns must be"),
    ],
)
def test_bad_keywords_are_one_line_errors(kwargs: dict[str, Any], said: str) -> None:
    with pytest.raises(PaiuteError, match=re.escape(said)) as caught:
        make(2, **kwargs)
    assert "\n" not in str(caught.value)


def test_bad_steps_are_one_line_errors() -> None:
    envs = make(2, players=3, max_turns=4, autoreset_mode=AutoresetMode.DISABLED)
    with pytest.raises(PaiuteError, match="reset the environment first"):
        envs.step(np.zeros(2, dtype=np.int64))
    _, info = envs.reset(seed=1)
    with pytest.raises(PaiuteError, match=r"2 integer action ids, one per table; got shape \(3,\)"):
        envs.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(PaiuteError, match="of float64"):
        envs.step(np.zeros(2))
    rng = np.random.default_rng(1)
    done = np.zeros(2, dtype=bool)
    while not done.any():
        _, _, terminated, truncated, info = envs.step(masked_actions(info, rng))
        done = terminated | truncated
    row = int(np.flatnonzero(done)[0])
    with pytest.raises(PaiuteError, match=f"env {row}'s deal has ended: reset it first"):
        envs.step(masked_actions(info, rng))
    _, reset_info = envs.reset(options={"reset_mask": done})  # DISABLED: reset the ended rows
    assert np.array_equal(reset_info["_action_mask"], done)
    info["action_mask"][done] = reset_info["action_mask"][done]
    envs.step(masked_actions(info, rng))


@pytest.mark.parametrize("layout", ["int8", "uint16", "int32 strided", "int64 reversed", "int64 read-only"])
def test_actions_of_any_integer_type_and_layout_play_as_int64_ones(layout: str) -> None:
    """The step's kernels are called without Numba's typing (fixed argument types): the
    actions, whatever their integer dtype, strides or flags, are played as the same ids in a
    C-contiguous int64 array, and the caller's array is left as it was."""
    ours, theirs = make(4, players=3, opponents="greedy"), make(4, players=3, opponents="greedy")
    _, info = ours.reset(seed=7)
    theirs.reset(seed=7)
    rng = np.random.default_rng(3)
    for _ in range(40):
        ids = masked_actions(info, rng)
        if layout == "int32 strided":
            given = np.repeat(ids.astype(np.int32), 2)[::2]
        elif layout == "int64 reversed":
            given = ids[::-1].copy()[::-1]
        else:
            given = ids.astype(layout.split()[0])
        if layout == "int64 read-only":
            given.flags.writeable = False
        kept = given.copy()
        observations, rewards, terminated, truncated, info = ours.step(given)
        expected = theirs.step(ids.astype(np.int64))
        assert np.array_equal(given, kept)
        assert np.array_equal(observations, expected[0])
        assert np.array_equal(rewards, expected[1])
        assert np.array_equal(terminated | truncated, expected[2] | expected[3])


def test_r4_5_cards_taken_from_the_pile_are_known_at_their_holders_seat() -> None:
    """Each seat's known-cards plane (R4.5: taken from the pile; R2.6: the face-up upcard) as
    the engine's encoder has it, relative to the learner at seat 2, which takes the pile's top
    card whenever it may."""
    compiled, sync = make_pair(4, players=4, seat=2, opponents="greedy", preset="gamerules")
    observations, info = compiled.reset(seed=12)
    expected, _ = sync.reset(seed=12)
    encoder = compiled.encoder
    planes = [encoder.seat_field(k, "known") for k in range(4)]
    known = Counter[int]()
    rng = np.random.default_rng(4)
    for _ in range(150):
        assert np.array_equal(observations, expected)
        for k, field in enumerate(planes):
            known[k] += int(observations[:, field.offset : field.offset + field.length].sum())
        masks = info["action_mask"].astype(bool)
        actions = np.where(masks[:, 1], 1, masked_actions(info, rng))  # 1: take the pile's top
        observations, _, _, _, info = compiled.step(actions)
        expected = sync.step(actions)[0]
    assert known[0] > 0, known
    assert known[1] + known[2] + known[3] > 0, known


def test_a_policy_at_the_other_seats_is_asked_once_a_round_for_all_its_tables() -> None:
    """Self-play: a callable at two seats gets, in one call, every table where one of them is
    to act, each row what that seat sees (it is to act: ``my_turn``), with its legal actions."""
    calls: list[int] = []
    encoder_tables: list[PaiuteVectorEnv] = []

    def policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        assert observations.dtype == np.float32
        assert masks.dtype == np.bool_
        assert masks.any(axis=1).all()
        my_turn = encoder_tables[0].encoder.field("my_turn").offset
        assert (observations[:, my_turn] == 1).all()
        calls.append(len(observations))
        return masks.argmax(axis=1)

    envs = make(6, players=4, opponents=[policy, "greedy", policy])
    encoder_tables.append(envs)
    rng = np.random.default_rng(5)
    _, info = envs.reset(seed=2)
    for _ in range(40):
        _, _, _, _, info = envs.step(masked_actions(info, rng))
    assert calls
    assert max(calls) <= 6
    assert sum(calls) > len(calls)  # batched: several tables a call


def test_an_illegal_action_of_a_policy_names_the_env_and_its_seat() -> None:
    def never_legal(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.full(len(masks), 110, dtype=np.int64)  # a six-card call before drawing

    envs = make(2, players=3, opponents=["random", never_legal], seat=0)

    def play() -> None:
        _, info = envs.reset(seed=0)  # the policy's seat may act before the learner's first turn
        envs.step(masked_actions(info, np.random.default_rng(0)))

    with pytest.raises(
        IllegalActionError, match=r"^R6\.1 env \d, the policy at seat 2: call: the seat must draw first$"
    ):
        play()


def test_the_first_compile_is_announced_on_one_line(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    """Where Numba's disk cache lacks a kernel, one line on stderr says the kernels compile."""
    monkeypatch.setattr(vector_module, "_PREPARED", False)
    cache = vector_module.kernels.play._cache._cache_file
    monkeypatch.setattr(cache, "_load_index", lambda: {})
    vector_module._prepare_kernels()
    vector_module._prepare_kernels()
    said = capsys.readouterr().err.splitlines()
    assert said == [
        "paiute: compiling the vector env's kernels (first use on this machine, a minute or two)…"
    ]


def test_without_numba_make_vec_says_what_to_install_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import paiute.compiled

    monkeypatch.setattr(paiute.compiled, "available", lambda: False)
    with pytest.raises(
        PaiuteError, match=r"needs Numba: pip install 'paiute\[rl\]', or pass vectorization_mode='sync'"
    ):
        gym.make_vec(GYMNASIUM_ID, num_envs=2)


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**40 + 7])
def test_a_table_generator_draws_what_numpy_integers_draws(seed: int) -> None:
    """Each table draws its dealer and the deal's chance seed through its bit generator's C
    entry points: the very numbers of ``np_random.integers``, the 32-bit halves it keeps
    between draws included."""
    numpy_generator = np.random.default_rng(seed)
    ours = TableGenerator(np.random.default_rng(seed))
    bounds = [1, 2, 3, 4, 5, 6, 7, 8, 2**31, 2**32 - 1, 2**32 + 1, 3**30, 2**63]
    order = np.random.default_rng(seed + 1).choice(bounds, size=400)
    assert [ours.integers(int(n)) for n in order] == [int(numpy_generator.integers(int(n))) for n in order]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 7, 8])
def test_r2_3_compiled_draws_of_fresh_deals_are_numpys(players: int) -> None:
    """A step's fresh deals draw each table's dealer (R2.3) and chance seed (R10.1) in
    compiled code, through the generators' states: ``integers(players)`` then
    ``integers(2**63)``, deal after deal, as ``np_random`` draws them."""
    seeds = range(40)
    ours = [TableGenerator(np.random.default_rng(seed)) for seed in seeds]
    numpy_generators = [np.random.default_rng(seed) for seed in seeds]
    addresses = np.array([generator.address for generator in ours], dtype=np.uint64)
    for _ in range(3):
        dealers = np.empty(len(ours), dtype=np.int64)
        chance = np.empty(len(ours), dtype=np.int64)
        rows = np.arange(len(ours), dtype=np.int64)
        vector_module.kernels.draw_fresh_deals(*entry_points(), addresses, rows, players, dealers, chance)
        expected = [(int(g.integers(players)), int(g.integers(2**63))) for g in numpy_generators]
        assert list(zip(dealers.tolist(), chance.tolist(), strict=True)) == expected
