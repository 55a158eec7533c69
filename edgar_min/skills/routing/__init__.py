"""Which skills a task's text points at, ranked by what this project's skills and use say.

The rooms: `words` (tokenising: words, stop words, stems), `index` (each skill's words weighted by
field, as BM25F postings), `cachefile` (the postings as text, for the routing cache), `taught`
(what use taught: the messages that led to a skill, and those that needed none) and `engine`
(scoring: the ranked skills with a confidence each, and the SemIf engine answering from them).
"""

from __future__ import annotations

from edgar_min.skills.routing.engine import THRESHOLD, Hit, Ranking, RoutingEngine, RoutingIndex
from edgar_min.skills.routing.index import Card, card_terms, rule_key
from edgar_min.skills.routing.taught import NONE_ID, taught_terms
from edgar_min.skills.routing.words import MAX_QUERY_CHARS, REDACTED, split_words, stem, words

__all__ = [
    "MAX_QUERY_CHARS",
    "NONE_ID",
    "REDACTED",
    "THRESHOLD",
    "Card",
    "Hit",
    "Ranking",
    "RoutingEngine",
    "RoutingIndex",
    "card_terms",
    "rule_key",
    "split_words",
    "stem",
    "taught_terms",
    "words",
]
