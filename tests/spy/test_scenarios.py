"""The spy host's scenarios: its documents keep every rule of the draft, so that a client that
validates documents strictly is never penalised for following it."""

from __future__ import annotations


def test_the_spy_hosts_documents_keep_every_rule_of_the_draft() -> None:
    from conformance.spy import SCENARIOS
    from conformance.validation import validate_message

    for scenario in SCENARIOS:
        for host, document in scenario.documents.items():
            assert validate_message("woa/document", document) == [], (scenario.name, host)
