"""The rules a schema cannot say, read with the drafts' own words."""

from __future__ import annotations


def test_the_drafts_own_status_words_are_read_first() -> None:
    """ACI 5.2's words: a goal "unfinished" (or "not completed") under an overall "completed"
    breaks ACI-5.1-OVERALL-STATUS-DERIVED; it had passed, "unfinished" reading neither way."""
    from conformance.validation import validate_message
    from conformance.validation.rules import unread_words

    def task(overall: str, *goals: str) -> dict[str, object]:
        return {
            "TaskContext": {
                "OverallStatus": overall,
                "GoalStatus": [{"Goal": f"g{n}", "Status": s} for n, s in enumerate(goals)],
            }
        }

    for pending in ("unfinished", "not completed", "Unfinished"):
        broken = validate_message("aci/task-context", task("completed", "completed", pending))
        assert "ACI-5.1-OVERALL-STATUS-DERIVED" in {v.requirement for v in broken}, pending
    assert unread_words(task("completed", "completed", "unfinished")) == []
    assert unread_words(task("halfway", "completed", "almost")) == ["almost", "halfway"]
