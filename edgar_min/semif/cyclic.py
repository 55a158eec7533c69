"""Position-fair letter slots: every option asked at every letter once, the answers combined.

A small model's letter slot mostly measures the letter: SmolLM2-135M chose option A in 50 of
50 labelled decisions whose right answers were spread over A-E. The remedy here is PriDe's
(Zheng et al., "Large Language Models Are Not Robust Multiple Choice Selectors", ICLR 2024):
the probability a model gives an option's letter is taken as a prior over the letters times
the option's own probability. Over the k cyclic orders of k options each option sits at each
letter once, so the geometric mean of its k probabilities holds the same product of priors for
every option, and renormalising removes it exactly. A decision whose options come rotated asks
the same k prompts, so its probabilities do not depend on which letter an option got.

Contextual calibration ("Calibrate Before Use", Zhao et al., ICML 2021: divide by the answer to a
content-free state) was measured beside it and left out: one call per option set is cheaper, but
it only divides out the letters' prior where the model's bias is that prior, and on
SmolLM2-135M each of 25 decisions asked in its rotated orders still changed its top choice.
PriDe's cheaper form (the prior learned once from the first few decisions asked in every order,
later decisions asked in one order and divided by it) was measured and left out for the same
reason: on SmolLM2-135M the prior is most of what one order says, and what is left once it is
divided out is that order's own noise (a turned decision kept its top choice in 7 of 25).
"""

from __future__ import annotations

import math

from edgar_min.semif.types import DecisionRequest

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["combined", "rotations"]


def rotations(decision: DecisionRequest) -> tuple[DecisionRequest, ...]:
    """`decision` asked in each cyclic order of its options, the given order first."""
    options = decision.options
    turned = (
        DecisionRequest(decision.state, decision.question, options[r:] + options[:r], decision.id)
        for r in range(1, len(options))
    )
    return (decision, *turned)


def combined(per_order: Sequence[Sequence[float]]) -> tuple[float, ...]:
    """One probability per option from its letter's log-probability in every order asked.

    `per_order[r][i]` is option i's (in the decision's own order) log-probability in the r-th
    order. The geometric mean of the probabilities is the softmax of the mean log-probability:
    each order's own normalising constant is the same for every option and cancels.
    """
    count = len(per_order)
    means = [sum(row[i] for row in per_order) / count for i in range(len(per_order[0]))]
    peak = max(means)
    weights = [math.exp(m - peak) for m in means]
    total = sum(weights)
    return tuple(w / total for w in weights)
