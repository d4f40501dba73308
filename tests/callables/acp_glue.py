import json, re, tests.callables.acp_standin as agents  # noqa: E401, I001 (the README's glue, as a user writes it)
agents.call_llm_stream_full_output = lambda prompt, name: json.dumps({"ItemstateUpdates": [{"itemId": i, "state": 1} for i in re.findall(r"^- (\S+):", prompt, re.M)], "KeyInformation": [{"itemId": i, "outputabstract": "stub"} for i in re.findall(r"^- (\S+):", prompt, re.M)], "LastUpdated": "2026-05-04T09:00:00Z"})
def agent(agent_context): return agents.run_sub_agent({}, agent_context)["agent_context"]
