"""The model's prior over the option letters, learned once and divided out of later decisions.

PriDe's cheap form (Zheng et al., "Large Language Models Are Not Robust Multiple Choice
Selectors", ICLR 2024): the probability a model gives an option's letter is taken as a prior
over the letters times the option's own probability. Asked in every cyclic order of its k
options, one decision shows the prior alone: each option visits each letter once, so the mean
log-probability of a letter over the orders holds every option's own probability equally, and
its softmax over the letters is the prior (`cyclic.letter_prior`). The mean of those priors over
the first `[semif] prior_samples` decisions of k options is kept, and every later decision of k
options is asked in one order, its letters' probabilities divided by the prior and renormalised
(`cyclic.debiased`): one prompt a decision instead of k.

The priors are kept per server, model, prompt and number of options in the person's state
folder (`cache/semif-priors.json`, outside the project, so a clone ships none), and forgotten
when the file goes; an unreadable file is read as empty and replaced.
"""

from __future__ import annotations

import math
from os.path import join

from edgar_min import jsoncodec
from edgar_min.atomic import read_text, write_text
from edgar_min.digests import cache_key
from edgar_min.semif.prompt import SYSTEM, render
from edgar_min.semif.types import DecisionRequest, Option

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from edgar_min.layout import Layout

__all__ = ["FILE_NAME", "LetterPriors"]

FILE_NAME = "semif-priors.json"
VERSION = 1


def _prompt_key() -> str:
    """A key of the prompt around the letters: a prior learned under another prompt is not reused."""
    sample = DecisionRequest("s", "q", (Option("a", "x"), Option("b", "y")))
    return cache_key(f"{SYSTEM}\n{render(sample, 'state_first')}".encode())


# (decisions counted, the sum of their priors) per key
Entry = tuple[int, tuple[float, ...]]


class LetterPriors:
    """Letter priors per (server, model, number of options): learned from `samples` decisions each.

    With a layout they are read from and written to its state folder; without one (a bench, a
    test) they live as long as the engine.
    """

    def __init__(self, samples: int, layout: Layout | None = None) -> None:
        self.samples = samples
        self._layout = layout
        self._entries: dict[str, Entry] | None = None

    def _key(self, base_url: str, model: str, count: int) -> str:
        return f"{base_url} {model} {count} {_prompt_key()}"

    def _load(self) -> dict[str, Entry]:
        if self._entries is None:
            self._entries = _read(self._layout) if self._layout is not None else {}
        return self._entries

    def prior(self, base_url: str, model: str, count: int) -> tuple[float, ...] | None:
        """The learned prior over `count` letters, or None while fewer than `samples` were seen."""
        seen, total = self._load().get(self._key(base_url, model, count), (0, ()))
        if seen < self.samples:
            return None
        return tuple(x / sum(total) for x in total)

    def add(self, base_url: str, model: str, priors: Sequence[Sequence[float]]) -> None:
        """Count decisions' own priors (all of one number of options) until `samples` are in."""
        if not priors:
            return
        entries = self._load()
        key = self._key(base_url, model, len(priors[0]))
        seen, total = entries.get(key, (0, (0.0,) * len(priors[0])))
        wanted = priors[: max(0, self.samples - seen)]
        if not wanted:
            return
        for prior in wanted:
            total = tuple(a + b for a, b in zip(total, prior, strict=True))
        entries[key] = (seen + len(wanted), total)
        if self._layout is not None:
            kept = {k: {"samples": n, "sum": list(t)} for k, (n, t) in entries.items()}
            text = jsoncodec.dumps({"version": VERSION, "priors": kept})
            write_text(join(self._layout.cache, FILE_NAME), text, root=self._layout.state)


def _read(layout: Layout) -> dict[str, Entry]:
    """The kept priors; a missing, unreadable or misshapen file (or entry) is none."""
    try:
        text = read_text(join(layout.cache, FILE_NAME), root=layout.state)
        data = jsoncodec.loads(text) if text is not None else None
    except (OSError, ValueError, UnicodeDecodeError):
        return {}
    if (
        not isinstance(data, dict)
        or data.get("version") != VERSION
        or not isinstance(data.get("priors"), dict)
    ):
        return {}
    return {
        key: (e["samples"], tuple(map(float, e["sum"])))
        for key, e in data["priors"].items()
        if _well_formed(e)
    }


def _well_formed(entry: object) -> bool:
    if not isinstance(entry, dict):
        return False
    samples, total = entry.get("samples"), entry.get("sum")
    return (
        isinstance(samples, int)
        and not isinstance(samples, bool)
        and samples > 0
        and isinstance(total, list)
        and 1 <= len(total) <= 16
        and all(
            isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x > 0
            for x in total
        )
    )
