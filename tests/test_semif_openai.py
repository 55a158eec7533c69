"""The openai engine's wire format against a small local server that speaks as llama.cpp does.

The server's answers are rules written here (a prior over letters or over listing places, a
liking for some options, a habit of writing some ids whatever the evidence), so what is under
test is what the engine does with them: every option asked at every letter or place, the answers
combined, the state first, every prompt of a call in one request where the server takes prompt
lists, and ids read where its `/tokenize` tells them apart. The real llama.cpp server is in
test_semif_openai_model.py.
"""

from __future__ import annotations

import json
import math
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from edgar_min.config import SemifConfig
from edgar_min.errors import ModelError
from edgar_min.semif import DecisionRequest, Option, get_engine, readout
from edgar_min.semif import openai as openai_engine

REQ = DecisionRequest(
    "the boiler is broken", "Who to call?", [Option("alice", "lead"), Option("bob", "landlord")]
)
SECOND = DecisionRequest(REQ.state, "Urgent?", [Option("yes"), Option("no"), Option("later")])
BEFORE, AFTER = "<|system|>", "<|end|><|assistant|>"


class Letters:
    """A letter slot: log-probability `prior[letter] + liked.get(option id, 0)` for each offered letter."""

    def __init__(self, prior=None, liked=None, logprobs=True) -> None:
        self.prior = prior or {}
        self.liked = liked or {}
        self.logprobs = logprobs

    def choice(self, user: str, index: int = 0) -> dict:
        lines = [x for x in user.splitlines() if len(x) > 2 and x[1] == "." and x[0].isupper()]
        top = [
            {"token": x[0], "logprob": self.prior.get(x[0], -1.0) + self.liked.get(x[3:].split(":")[0], 0.0)}
            for x in lines
        ]
        top.append({"token": "The", "logprob": -9.0})
        choice = {"index": index, "message": {"content": top[0]["token"]}, "text": top[0]["token"]}
        if self.logprobs:
            choice["logprobs"] = {"content": [{"top_logprobs": top}]}
        return choice


class Ids:
    """A plain prompt ending in `Answer:`: log-probability of an id's first token by rule.

    `place[j]` for the j-th option listed, plus `habit[id]` always, plus `liked[id]` only when the
    evidence is not the content-free `N/A`.
    """

    def __init__(self, place=None, liked=None, habit=None, crowd=0) -> None:
        self.place = place or {}
        self.liked = liked or {}
        self.habit = habit or {}
        self.crowd = crowd  # other words the model would write first, each at log-probability 2

    def choice(self, text: str, index: int, body: dict | None = None) -> dict:
        """As llama.cpp: the `body["logprobs"]` likeliest tokens."""
        evidence = text.splitlines()[0].removeprefix("Text: ")
        if evidence == "no logprobs here":
            return {"index": index, "text": " The"}
        ids = [x[2:].split(":")[0] for x in text.splitlines() if x.startswith("- ")]
        logits = {
            first_piece(i): self.place.get(j, -1.0)
            + self.habit.get(i, 0.0)
            + (0.0 if evidence == "N/A" else self.liked.get(i, 0.0))
            for j, i in enumerate(ids)
        }
        logits |= {f" w{n}": 2.0 for n in range(self.crowd)} | {" The": -12.0}
        body = body or {}
        listed = sorted(logits, key=logits.get, reverse=True)[: body.get("logprobs", len(logits))]
        top = [{"token": t, "logprob": logits[t]} for t in listed]
        return {"index": index, "text": listed[0], "logprobs": {"content": [{"top_logprobs": top}]}}


def first_piece(option_id: str) -> str:
    """The test server's tokenizer: an id's first token is a space and its first three characters."""
    return f" {option_id}"[:4]


def tokenized(text: str, joins_lines: bool = False) -> list[str]:
    """The test server's tokens of ` id` lines: `first_piece`, the rest of the id, each line's end.

    `joins_lines`: a line's end and the next line's space are one token.
    """
    pieces = []
    for line in text.splitlines(keepends=True):
        word = line.strip()
        pieces += [first_piece(word), word[3:], line[len(word) + 1 :]]
    pieces = [p for p in pieces if p]
    if joins_lines:
        pieces = [p[1:] if i and pieces[i - 1] == "\n" else p for i, p in enumerate(pieces)]
        pieces = [p + " " if p == "\n" and i < len(pieces) - 1 else p for i, p in enumerate(pieces)]
    return pieces


class LlamaLike:
    """A llama.cpp-like server: `.letters` answers letter slots; `.lists = False` refuses prompt lists.

    `.tokenizes` gives it a `/tokenize` (and `.ids` answers plain prompts by option id; see
    `tokenized` for `.joins_lines`),
    `.one_choice` makes it read only the first prompt of a list, `.garbled` answer its template with a
    page that is not JSON; `.seen` holds (path, body) of each request.
    """

    def __init__(self) -> None:
        state = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                state.seen.append((self.path, body))
                status, reply = state.route(self.path, body)
                data = reply if isinstance(reply, bytes) else json.dumps(reply).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.seen, self.lists, self.letters, self.one_choice, self.garbled = [], True, Letters(), False, False
        self.tokenizes, self.ids, self.joins_lines = False, Ids(), False
        self.httpd = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def route(self, path, body):
        if path == "/apply-template" and self.garbled:
            return 200, b"<html>a page, not JSON</html>"
        if path == "/apply-template" and self.lists:
            system, user = (m["content"] for m in body["messages"])
            return 200, {"prompt": f"{BEFORE}{system}<|user|>{user}{AFTER}"}
        if path == "/tokenize" and self.tokenizes:
            pieces = tokenized(body["content"], self.joins_lines)
            return 200, {"tokens": [{"id": 1, "piece": piece} for piece in pieces]}
        if path == "/v1/completions" and self.lists:
            choices = [
                self.ids.choice(p, i, body)
                if p.startswith("Text: ")
                else self.letters.choice(p.removesuffix(AFTER).partition("<|user|>")[2], i)
                for i, p in enumerate(body["prompt"])
            ][::-1]
            return 200, {"choices": choices[-1:] if self.one_choice else choices}
        if path == "/v1/chat/completions":
            if "response_format" in body:
                return 200, {"choices": [{"message": {"content": '{"choice": "B"}'}}]}
            return 200, {"choices": [self.letters.choice(body["messages"][1]["content"])]}
        return 404, {"error": {"message": "File Not Found", "code": 404}}

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    running = LlamaLike()
    yield running
    running.close()


def engine_at(server):
    return get_engine(SemifConfig(engine="openai", base_url=server.url), {})


def paths_asked(server):
    """The paths the server was asked, but `/tokenize`: by default it has none, so options go by letter."""
    return [path for path, _ in server.seen if path != "/tokenize"]


def users_asked(server):
    """The user text of every letter slot the server was asked, in order, from lists and chats alike."""
    found = []
    for path, body in server.seen:
        if path == "/v1/completions":
            found += [p.removesuffix(AFTER).partition("<|user|>")[2] for p in body["prompt"]]
        elif path == "/v1/chat/completions" and "response_format" not in body:
            found.append(body["messages"][1]["content"])
    return found


def options_in(user):
    return [x[3:].split(":")[0] for x in user.splitlines() if len(x) > 2 and x[1] == "."]


@pytest.mark.parametrize("lists", [True, False])
def test_every_option_is_asked_at_every_letter_with_the_state_first(server, lists):
    server.lists = lists
    engine_at(server).call_many([REQ, SECOND])
    users = users_asked(server)
    assert [options_in(u) for u in users] == [
        ["alice", "bob"], ["bob", "alice"],
        ["yes", "no", "later"], ["no", "later", "yes"], ["later", "yes", "no"],
    ]  # fmt: skip
    assert all(u.startswith("Evidence:\nthe boiler is broken\n\nCriterion: ") for u in users)


def test_a_letter_slot_that_only_favours_a_letter_gives_every_option_the_same_probability(server):
    server.letters = Letters(prior={"A": -0.05, "B": -3.0, "C": -6.0})
    alone, many = engine_at(server).call(REQ), engine_at(server).call_many([REQ, SECOND])
    assert alone.probabilities == pytest.approx((0.5, 0.5))
    assert many[1].probabilities == pytest.approx((1 / 3, 1 / 3, 1 / 3))


def test_an_option_the_model_favours_wins_whatever_its_letter_and_rotating_changes_nothing(server):
    # A strong pull to A and a real liking for "later": the liking decides, at any letter.
    server.letters = Letters(prior={"A": 0.0, "B": -2.0, "C": -4.0}, liked={"later": 1.0, "no": 0.5})
    engine = engine_at(server)
    first = engine.call(SECOND)
    turned = engine.call(
        DecisionRequest(SECOND.state, SECOND.question, SECOND.options[1:] + SECOND.options[:1])
    )
    assert first.selected == turned.selected == "later"
    assert first.probs == pytest.approx(turned.probs, abs=1e-12)
    # The liking alone, exactly: softmax of (0, 0.5, 1.0) over yes, no, later.
    weights = [math.exp(x) for x in (0.0, 0.5, 1.0)]
    assert first.probabilities == pytest.approx(tuple(w / sum(weights) for w in weights))
    assert first.extra["orders"] == 3
    assert first.prompt_order == "state_first"


def test_prompt_lists_carry_every_prompt_of_a_call_in_one_request(server):
    server.letters = Letters(prior={"A": 0.0, "B": -2.0, "C": -4.0}, liked={"bob": 0.7})
    engine = engine_at(server)
    listed = engine.call_many([REQ, SECOND])
    assert paths_asked(server) == ["/apply-template", "/v1/completions"]
    assert [path for path, _ in server.seen].count("/tokenize") == 1  # none there: not asked again
    assert engine.transport == "prompt lists"
    body = server.seen[-1][1]
    assert len(body["prompt"]) == 5
    assert (body["max_tokens"], body["logprobs"], body["temperature"]) == (1, 20, 0)
    assert all(p.startswith(BEFORE + "You choose one option") and p.endswith(AFTER) for p in body["prompt"])
    # The same answers as one chat request per prompt gives.
    server.lists = False
    chatted = engine_at(server).call_many([REQ, SECOND])
    assert [r.probabilities for r in listed] == [r.probabilities for r in chatted]
    assert [r.selected for r in listed] == ["bob", "yes"]


def test_a_server_without_prompt_lists_is_asked_one_prompt_a_request(server):
    server.lists = False
    engine = engine_at(server)
    engine.call_many([REQ, SECOND])
    assert engine.transport == "one request per prompt"
    assert paths_asked(server) == ["/apply-template"] + ["/v1/chat/completions"] * 5
    server.seen.clear()
    engine.call(REQ)
    assert [path for path, _ in server.seen] == ["/v1/chat/completions"] * 2  # not asked again


def test_a_template_answered_with_no_json_is_asked_again_on_the_next_call(server):
    server.garbled = True
    engine = engine_at(server)
    assert engine.call(REQ).extra["orders"] == 2
    assert engine.transport is None
    assert paths_asked(server) == ["/apply-template"] + ["/v1/chat/completions"] * 2
    server.garbled = False
    server.seen.clear()
    engine.call(REQ)
    assert engine.transport == "prompt lists"
    assert [path for path, _ in server.seen] == ["/apply-template", "/tokenize", "/v1/completions"]


def test_a_template_that_does_not_keep_the_text_whole_is_not_used(server):
    server.lists = True
    engine = engine_at(server)
    original = engine.messages
    engine.messages = lambda d, order="state_first": [
        *original(d, order)[:1],
        {"role": "user", "content": "x"},
    ]
    engine.call(REQ)
    assert engine.transport == "one request per prompt"


def test_a_reply_without_logprobs_falls_back_to_a_constrained_answer_in_the_given_order(server):
    server.letters = Letters(logprobs=False)
    result = engine_at(server).call(REQ)
    assert result.selected == "bob"
    assert result.probabilities == (0.0, 1.0)
    assert "constrained answer" in result.extra["probability_status"]
    assert "no logprobs" in result.extra["probability_status"]
    asked = [body for path, body in server.seen if "response_format" in body]
    assert len(asked) == 1
    assert asked[0]["response_format"]["json_schema"]["schema"]["properties"]["choice"]["enum"] == ["A", "B"]
    assert asked[0]["messages"][1]["content"].startswith("Evidence:\nthe boiler is broken")


def test_a_letter_missing_from_the_top_logprobs_gets_the_lowest_listed_and_is_named(server):
    class Short(Letters):
        dropped = ("C",)

        def choice(self, user, index=0):
            choice = super().choice(user, index)
            top = choice["logprobs"]["content"][0]["top_logprobs"]
            choice["logprobs"]["content"][0]["top_logprobs"] = [
                t for t in top if t["token"] not in self.dropped
            ]
            return choice

    server.letters = Short(prior={"A": -0.5, "B": -1.0})
    result = engine_at(server).call(SECOND)
    assert sorted(result.extra["missing_letters"]) == ["C:later", "C:no", "C:yes"]
    # C was bounded by the lowest logprob listed (-9.0, "The") in every order, so all stay equal.
    assert result.probabilities == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    assert all(p > 0 for p in result.probabilities)


def test_a_list_reply_without_a_choice_per_prompt_falls_back_to_chat_requests(server):
    server.one_choice = True  # a server that reads only the first prompt of a list
    engine = engine_at(server)
    results = engine.call_many([REQ, SECOND])
    assert engine.transport == "one request per prompt"
    assert paths_asked(server) == ["/apply-template", "/v1/completions"] + ["/v1/chat/completions"] * 5
    assert [len(r.probabilities) for r in results] == [2, 3]


def test_an_unreachable_server_is_a_sentence_naming_the_url():
    engine = get_engine(SemifConfig(engine="openai", base_url="http://127.0.0.1:9/v1", timeout_s=2), {})
    with pytest.raises(ModelError, match=r"semif engine openai: http://127.0.0.1:9/v1/chat/completions"):
        engine.call(REQ)


def test_ids_are_read_where_the_server_tokenizes_and_a_habit_or_a_place_cancels(server):
    # A strong pull to the first place listed and a habit of writing "yes": only the liking that
    # the evidence brings decides, exactly.
    server.tokenizes = True
    server.ids = Ids(place={0: 0.0, 1: -2.0, 2: -4.0}, liked={"later": 1.0, "no": 0.5}, habit={"yes": 3.0})
    engine = engine_at(server)
    first, alone = engine.call_many([SECOND, REQ])
    weights = [math.exp(x) for x in (0.0, 0.5, 1.0)]
    assert first.selected == "later"
    assert first.probabilities == pytest.approx(tuple(w / sum(weights) for w in weights))
    assert alone.probabilities == pytest.approx((0.5, 0.5))
    assert readout(first) == "option-id logprobs"
    assert (first.extra["orders"], first.extra["content_free"]) == (3, "N/A")
    # The five ids' first tokens in one request.
    assert [path for path, _ in server.seen] == ["/apply-template", "/tokenize", "/v1/completions"]
    body = server.seen[-1][1]
    # Every order of each decision with its evidence, then each order without it: one request.
    assert (len(body["prompt"]), body["logprobs"], body["max_tokens"]) == (10, 50, 1)
    assert all(p.startswith("Text: the boiler is broken\nQuestion: ") for p in body["prompt"][:5])
    assert all(p.startswith("Text: N/A\n") and p.endswith("\nAnswer:") for p in body["prompt"][5:])
    turned = engine.call(
        DecisionRequest(SECOND.state, SECOND.question, SECOND.options[1:] + SECOND.options[:1])
    )
    assert turned.probs == pytest.approx(first.probs, abs=1e-12)


def test_a_question_asked_again_reuses_its_content_free_answers_and_tokens(server):
    server.tokenizes = True
    engine = engine_at(server)
    engine.call(SECOND)
    server.seen.clear()
    again = DecisionRequest("the lift is stuck again", SECOND.question, SECOND.options)
    assert engine.call(again).extra["readout"] == "option ids"
    assert [path for path, _ in server.seen] == ["/v1/completions"]
    assert [p.splitlines()[0] for p in server.seen[0][1]["prompt"]] == ["Text: the lift is stuck again"] * 3


def test_ids_that_share_a_first_token_are_asked_by_letter_in_the_same_call(server):
    server.tokenizes = True
    server.letters = Letters(liked={"alpine": 1.0})
    server.ids = Ids(liked={"bob": 1.0})
    close = DecisionRequest("a trip", "Where?", [Option("alps"), Option("alpine")])  # both " alp"
    by_id, by_letter = engine_at(server).call_many([REQ, close])
    assert (by_id.selected, readout(by_id)) == ("bob", "option-id logprobs")
    assert (by_letter.selected, readout(by_letter)) == ("alpine", "letter-slot logprobs")
    lists = [body["prompt"] for path, body in server.seen if path == "/v1/completions"]
    assert [len(prompts) for prompts in lists] == [4, 2]
    assert all(p.startswith(BEFORE) for p in lists[1])


def test_a_decision_whose_reply_has_no_logprobs_goes_by_letter_and_the_next_is_read_from_its_own(server):
    server.tokenizes = True
    server.ids = Ids(place={0: 0.0, 1: -2.0, 2: -4.0}, liked={"later": 1.0, "no": 0.5})
    broken = DecisionRequest("no logprobs here", REQ.question, REQ.options)
    first, second = engine_at(server).call_many([broken, SECOND])
    assert readout(first) == "letter-slot logprobs"
    assert readout(second) == "option-id logprobs"
    weights = [math.exp(x) for x in (0.0, 0.5, 1.0)]
    assert second.probabilities == pytest.approx(tuple(w / sum(weights) for w in weights))


def test_a_call_with_more_content_free_prompts_than_are_kept_still_reads_every_decision_by_id(
    server, monkeypatch
):
    monkeypatch.setattr(openai_engine, "CONTENT_FREE_KEPT", 2)
    server.tokenizes = True
    server.ids = Ids(liked={"later": 1.0})
    engine = engine_at(server)
    result = engine.call(SECOND)  # three orders: three content-free prompts
    assert readout(result) == "option-id logprobs"
    assert result.selected == "later"
    assert len(engine._content_free) == 2


def test_ids_outside_the_top_tokens_get_the_lowest_listed_and_are_named(server):
    # Sixty words the model would write before any id, and only the top 50 listed: no id is read,
    # and each gets the lowest listed, so none wins by being left out.
    server.tokenizes = True
    server.ids = Ids(liked={"later": 1.0}, crowd=60)
    result = engine_at(server).call(SECOND)
    assert result.extra["missing_ids"] == ["later", "no", "yes"]
    assert result.probabilities == pytest.approx((1 / 3, 1 / 3, 1 / 3))


def test_ids_whose_lines_the_tokenizer_does_not_split_where_they_begin_are_asked_one_by_one(server):
    server.tokenizes, server.joins_lines = True, True
    server.ids = Ids(liked={"later": 1.0})
    result = engine_at(server).call(SECOND)
    assert (readout(result), result.selected) == ("option-id logprobs", "later")
    # All three in one request, whose tokens did not begin where the second line does, then each alone.
    assert [path for path, _ in server.seen].count("/tokenize") == 4
