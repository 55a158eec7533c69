"""The openai engine's wire format against a small local server that speaks as llama.cpp does.

The server's letter slot is a rule written here (a prior over letters, a liking for
some options), so what is under test is what the engine does with it: every option asked
at every letter, the answers combined, the state first, and every prompt of a call in one
request where the server takes prompt lists. The real llama.cpp server is in
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
from edgar_min.semif import DecisionRequest, Option, get_engine

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


class LlamaLike:
    """A llama.cpp-like server: `.letters` answers letter slots; `.lists = False` refuses prompt lists.

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
        self.httpd = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def route(self, path, body):
        if path == "/apply-template" and self.garbled:
            return 200, b"<html>a page, not JSON</html>"
        if path == "/apply-template" and self.lists:
            system, user = (m["content"] for m in body["messages"])
            return 200, {"prompt": f"{BEFORE}{system}<|user|>{user}{AFTER}"}
        if path == "/v1/completions" and self.lists:
            users = [p.removesuffix(AFTER).partition("<|user|>")[2] for p in body["prompt"]]
            choices = [self.letters.choice(u, i) for i, u in enumerate(users)][::-1]
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
    paths = [path for path, _ in server.seen]
    assert paths == ["/apply-template", "/v1/completions"]
    assert engine.transport == "prompt lists"
    body = server.seen[1][1]
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
    assert [path for path, _ in server.seen] == ["/apply-template"] + ["/v1/chat/completions"] * 5
    server.seen.clear()
    engine.call(REQ)
    assert [path for path, _ in server.seen] == ["/v1/chat/completions"] * 2  # not asked again


def test_a_template_answered_with_no_json_is_asked_again_on_the_next_call(server):
    server.garbled = True
    engine = engine_at(server)
    assert engine.call(REQ).extra["orders"] == 2
    assert engine.transport is None
    assert [path for path, _ in server.seen] == ["/apply-template"] + ["/v1/chat/completions"] * 2
    server.garbled = False
    server.seen.clear()
    engine.call(REQ)
    assert engine.transport == "prompt lists"
    assert [path for path, _ in server.seen] == ["/apply-template", "/v1/completions"]


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
    assert [path for path, _ in server.seen] == ["/apply-template", "/v1/completions"] + [
        "/v1/chat/completions"
    ] * 5
    assert [len(r.probabilities) for r in results] == [2, 3]


def test_an_unreachable_server_is_a_sentence_naming_the_url():
    engine = get_engine(SemifConfig(engine="openai", base_url="http://127.0.0.1:9/v1", timeout_s=2), {})
    with pytest.raises(ModelError, match=r"semif engine openai: http://127.0.0.1:9/v1/chat/completions"):
        engine.call(REQ)
