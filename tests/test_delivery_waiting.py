"""The Stop hook waits, bounded, for the turn it is about to reach the agent's log."""

import json
import threading
import time

from edgar_min.delivery.waiting import wait_for_turn


def _line(record):
    return (json.dumps(record) + "\n").encode()


def test_a_short_last_message_is_waited_for_after_the_prompt_that_quotes_it(tmp_path):
    log = tmp_path / "session.jsonl"
    prompt = {"type": "user", "promptId": "p-2", "message": {"content": "say Done. when done"}}
    log.write_bytes(_line({"type": "assistant", "message": {"content": "Done."}}) + _line(prompt))
    payload = {"prompt_id": "p-2", "last_assistant_message": "Done."}

    def finish():
        time.sleep(0.4)
        with log.open("ab") as handle:
            handle.write(_line({"type": "assistant", "message": {"content": "Done."}}))

    writer = threading.Thread(target=finish)
    start = time.monotonic()
    writer.start()
    wait_for_turn(str(log), 5.0, payload)
    waited = time.monotonic() - start
    writer.join()
    # Neither the earlier turn's "Done." nor the prompt's own words count: the reply itself must land.
    assert log.read_bytes().count(b"Done.") == 3
    assert 0.35 < waited < 4


def test_without_a_prompt_id_a_short_message_is_not_waited_for(tmp_path):
    log = tmp_path / "session.jsonl"
    log.write_bytes(_line({"type": "user", "message": {"content": "hi"}}))
    start = time.monotonic()
    wait_for_turn(str(log), 2.0, {"last_assistant_message": "Done."})
    assert time.monotonic() - start < 1  # "Done." alone could be any earlier turn's: nothing to wait for


def test_one_look_says_whether_the_turn_is_written_yet(tmp_path):
    from edgar_min.delivery.waiting import turn_written

    log = tmp_path / "session.jsonl"
    payload = {"prompt_id": "p-2", "last_assistant_message": "All tests pass now."}
    assert not turn_written(str(log), payload)  # no log yet
    log.write_bytes(_line({"type": "user", "promptId": "p-2", "message": {"content": "fix the tests"}}))
    assert not turn_written(str(log), payload)  # the prompt, not yet the reply
    with log.open("ab") as handle:
        handle.write(_line({"type": "assistant", "message": {"content": "All tests pass now."}}))
    assert turn_written(str(log), payload)
    # A payload that names no turn (Gemini CLI's) has nothing to wait for once the log is there.
    assert turn_written(str(log), {"prompt_response": "All tests pass now."})
